// The bench's side of the load runner: forks bench/load-runner.ts once (under tsx) and sends it
// one spec at a time.
import { type ChildProcess, fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { LoadResult, LoadSpec, RunnerReply } from "./load-spec";

export class LoadRunner {
  private child: ChildProcess;
  private nextId = 1;
  private pending = new Map<number, { resolve: (r: LoadResult) => void; reject: (e: Error) => void }>();

  constructor() {
    this.child = fork(fileURLToPath(new URL("./load-runner.ts", import.meta.url)), [], {
      execArgv: ["--import", "tsx"],
      stdio: ["ignore", "inherit", "inherit", "ipc"],
    });
    this.child.on("message", (reply: RunnerReply) => {
      const waiter = this.pending.get(reply.id);
      if (!waiter) return;
      this.pending.delete(reply.id);
      if (reply.type === "result") waiter.resolve(reply.result);
      else waiter.reject(new Error(`load runner: ${reply.message}`));
    });
    this.child.on("exit", (code) => {
      for (const waiter of this.pending.values()) waiter.reject(new Error(`load runner exited (${code})`));
      this.pending.clear();
    });
  }

  run(spec: LoadSpec): Promise<LoadResult> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.child.send({ type: "run", id, spec });
    });
  }

  close() {
    if (this.child.connected) this.child.send({ type: "exit" });
  }
}
