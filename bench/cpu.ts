// CPU time of the workerd process serving the bench (Linux /proc): the time the server spends
// per request, which other processes on a shared machine stretch far less than they stretch
// requests per second.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";

const CLOCK_TICKS_PER_SECOND = Number(execFileSync("getconf", ["CLK_TCK"]).toString().trim()) || 100;

/** workerd processes started by this process (Miniflare runs one per instance). */
export function workerdPids(): number[] {
  try {
    return execFileSync("pgrep", ["-P", String(process.pid), "workerd"])
      .toString()
      .trim()
      .split("\n")
      .map(Number)
      .filter(Boolean);
  } catch {
    return [];
  }
}

/** User + system CPU seconds of the processes, all threads. */
export function cpuSeconds(pids: number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name, which is in parentheses and may hold spaces: utime and stime are fields 14 and 15.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks / CLOCK_TICKS_PER_SECOND;
}
