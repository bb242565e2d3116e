// The native side of bench/profile.ts (--native): Linux perf on the whole workerd process, for the
// CPU time no isolate's V8 profile sees — SQLite under D1, kj's HTTP, the Headers, Request and
// Response objects workerd builds in C++, V8's JSON and garbage collector, the Miniflare entry
// worker's routing — sorted into a few categories by the innermost recognisable frame of each
// sample's call stack. workerd ships with its symbols; JIT-compiled JavaScript has none here and
// counts as "JavaScript".
//
// On its own, for a recording bench/profile.ts --native --save DIR kept:
//   npx tsx bench/profile-native.ts DIR/<endpoint>.perf.data RESPONSES [DIR/baseline.perf.data RESPONSES]
import { spawn, spawnSync } from "node:child_process";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";
import { table } from "./report";

/** perf's sampling frequency (cpu-clock, so samples ÷ frequency is CPU time). */
export const PERF_HZ = 1999;

/** perf is installed and may profile this user's processes. */
export function perfAvailable(): boolean {
  return spawnSync("perf", ["--version"], { stdio: "ignore" }).status === 0;
}

/** `perf record` on a process until stop() (SIGINT, as perf expects, then its exit). */
export function startPerf(pid: number, file: string): { stop(): Promise<void> } {
  const perf = spawn(
    "perf",
    ["record", "-e", "cpu-clock", "-F", String(PERF_HZ), "-g", "-p", String(pid), "-o", file, "--quiet"],
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  let stderr = "";
  perf.stderr.on("data", (d: Buffer) => {
    stderr += d.toString();
  });
  const exited = new Promise<number | null>((resolve) => perf.on("exit", resolve));
  return {
    async stop() {
      perf.kill("SIGINT");
      const code = await exited;
      if (code !== 0 && code !== null) throw new Error(`perf record exited ${code}: ${stderr.slice(0, 500)}`);
    },
  };
}

/** One sample: its frames' symbols, innermost first. */
type Stack = string[];

/** `perf script` of a recording, sample by sample. */
export async function readPerf(file: string): Promise<Stack[]> {
  const perf = spawn("perf", ["script", "-i", file, "-F", "tid,ip,sym,dso"], { stdio: ["ignore", "pipe", "ignore"] });
  const stacks: Stack[] = [];
  let current: Stack | undefined;
  for await (const line of createInterface({ input: perf.stdout })) {
    if (line.trim() === "") {
      if (current) stacks.push(current);
      current = undefined;
    } else if (!/^\s/.test(line)) {
      current = [];
    } else {
      // "\t    3c1309a v8::internal::GlobalHandles::Create (/…/workerd)"
      const m = /^\s*[0-9a-f]+\s+(.*?)\s+\(([^)]*)\)\s*$/.exec(line);
      current?.push(m ? `${m[1]}${m[2]?.includes("kernel") ? " [kernel]" : ""}` : line.trim());
    }
  }
  if (current) stacks.push(current);
  return stacks;
}

/** Categories, tried frame by frame from the innermost outwards; the first frame that matches one decides. */
const CATEGORIES: { name: string; pattern: RegExp }[] = [
  {
    name: "V8 garbage collection (and workerd's wrapper tracing)",
    pattern:
      /v8::internal::(Heap\b|Heap::|Scavenger|MarkCompact|MinorGC|MinorMarkSweep|ConcurrentMarking|IncrementalMarking|GCTracer)|HeapTracer|cppgc::|Wrappable::(detachWrapper|maybeDeferDestruction)|RefToDelete/,
  },
  { name: "SQLite (local D1)", pattern: /sqlite3|Sqlite/ },
  { name: "V8 JSON.parse / JSON.stringify", pattern: /Json(Stringifier|Parser)/ },
  { name: "Headers objects (workerd C++)", pattern: /workerd::api::Headers/ },
  { name: "Request / Response objects (workerd C++)", pattern: /workerd::api::(Request|Response)\b|CfProperty|makeHttpResponse/ },
  { name: "crypto (SubtleCrypto, BoringSSL)", pattern: /SubtleCrypto|EVP_|SHA256|sha256_block|bssl::/ },
  {
    name: "fetch / service-binding calls (D1 and KV bindings, entry worker → worker)",
    pattern: /workerd::api::Fetcher|fetchImpl/,
  },
  {
    name: "HTTP and streams (kj)",
    pattern: /kj::(Http|_::HttpServer|.*HttpService)|kj::.*(Stream|AsyncIo)|UnixEventPort|Http(Input|Output)Stream/,
  },
  {
    name: "JavaScript (JIT code, V8 builtins, interpreter, runtime)",
    pattern: /^\[unknown\]|^Builtins?_|^v8::internal::|Runtime_/,
  },
];
/** Anywhere on the stack, before the categories: console.log (costly only while the inspector is on). */
const CONSOLE = {
  name: "console.log (V8's console; near zero without the inspector)",
  pattern: /ConsoleHelper|Builtin_Console|V8Console/,
};
/** Frames that say nothing of the cause: allocation, copying, the kernel. Skipped, so the caller decides. */
const SKIP =
  /tcmalloc|^malloc|^free$|^cfree|^__mem|^operator (new|delete)|kj::_::Heap|kj::heapString|kj::str\b|kj::ArrayDisposer|^__libc|^_int_| \[kernel\]$|^\[vdso\]/;
const OTHER = "other (workerd glue, kj event loop, kernel)";

export interface NativeAnalysis {
  samples: number;
  /** ms of CPU per request that one sample stands for. */
  msPerSample: number;
  /** ms of CPU per request, by category. */
  categories: Map<string, number>;
  /** The deciding frames (innermost ones that say something: not malloc, memcpy or the kernel), by samples. */
  leaves: { symbol: string; category: string; samples: number }[];
}

/** A C++ symbol without its template and call arguments, which would match anything (kj::Promise<…Stream…>). */
export function simplify(symbol: string): string {
  let s = symbol.replace(/\s*\[kernel\]$/, "");
  for (let previous = ""; previous !== s; ) {
    previous = s;
    s = s.replace(/<[^<>]*>/g, "‹›");
  }
  // perf cuts very long names, leaving a template unclosed.
  s = s
    .replace(/\(.*$/, "")
    .replace(/<[^>]*$/, "‹›")
    .replaceAll("‹›", "<>");
  return symbol.endsWith(" [kernel]") ? `${s} [kernel]` : s;
}

/** The sample's category, and the frame that decided it (the innermost one that says something). */
function categorise(stack: Stack): { category: string; symbol: string } {
  const names = stack.map(simplify);
  const console = names.find((s) => CONSOLE.pattern.test(s));
  if (console) return { category: CONSOLE.name, symbol: console };
  for (const symbol of names) {
    if (SKIP.test(symbol)) continue;
    for (const c of CATEGORIES) if (c.pattern.test(symbol)) return { category: c.name, symbol };
  }
  return { category: OTHER, symbol: names.find((s) => !SKIP.test(s)) ?? names[0] ?? "?" };
}

export function analyseNative(stacks: Stack[], requests: number): NativeAnalysis {
  const counts = new Map<string, number>();
  const leaves = new Map<string, { symbol: string; category: string; samples: number }>();
  for (const stack of stacks) {
    const { category, symbol } = categorise(stack);
    counts.set(category, (counts.get(category) ?? 0) + 1);
    // Templates and argument lists make the names long; their head says enough.
    const name = symbol.slice(0, 100);
    const key = `${category}|${name}`;
    const entry = leaves.get(key) ?? { symbol: name, category, samples: 0 };
    entry.samples += 1;
    leaves.set(key, entry);
  }
  const msPerSample = requests > 0 ? 1000 / PERF_HZ / requests : Number.NaN;
  return {
    samples: stacks.length,
    msPerSample,
    categories: new Map([...counts].sort((a, b) => b[1] - a[1]).map(([k, v]) => [k, v * msPerSample])),
    leaves: [...leaves.values()].sort((a, b) => b.samples - a.samples),
  };
}

const fmt = (n: number | undefined) => (n === undefined || !Number.isFinite(n) ? "—" : n.toFixed(3));

/** Markdown: ms per request by category (and against a reference run, e.g. the baseline's), then the hottest symbols. */
export function nativeReport(a: NativeAnalysis, reference?: { label: string; analysis: NativeAnalysis }, top = 12): string {
  const total = [...a.categories.values()].reduce((x, y) => x + y, 0);
  const refTotal = reference ? [...reference.analysis.categories.values()].reduce((x, y) => x + y, 0) : undefined;
  const names = [...new Set([...a.categories.keys(), ...(reference ? reference.analysis.categories.keys() : [])])];
  const rows = names.map((name) => {
    const ms = a.categories.get(name) ?? 0;
    const ref = reference ? (reference.analysis.categories.get(name) ?? 0) : undefined;
    return [
      name,
      fmt(ms),
      total > 0 ? `${((100 * ms) / total).toFixed(1)} %` : "—",
      ...(reference ? [fmt(ref), fmt(ms - (ref ?? 0))] : []),
    ];
  });
  rows.push([
    "**all of workerd**",
    `**${fmt(total)}**`,
    "100 %",
    ...(reference ? [`**${fmt(refTotal)}**`, `**${fmt(total - (refTotal ?? 0))}**`] : []),
  ]);
  const header = [
    "Category (whole workerd process)",
    "ms/req",
    "share",
    ...(reference ? [`${reference.label} ms/req`, "difference"] : []),
  ];
  return [
    table(header, rows),
    "",
    `Hottest deciding frames (the innermost frame of each sample that is not malloc, memcpy or the kernel; ${a.samples.toLocaleString("en-US")} samples at ${PERF_HZ} Hz):`,
    "",
    table(
      ["Frame", "Category", "ms/req"],
      a.leaves.slice(0, top).map((l) => [`\`${l.symbol.replaceAll("|", "\\|")}\``, l.category, fmt(l.samples * a.msPerSample)]),
    ),
  ].join("\n");
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const [file, requests, refFile, refRequests] = process.argv.slice(2);
  if (!file || !requests) throw new Error("usage: profile-native.ts FILE.perf.data RESPONSES [BASELINE.perf.data RESPONSES]");
  const a = analyseNative(await readPerf(file), Number(requests));
  const reference =
    refFile && refRequests
      ? { label: "reference", analysis: analyseNative(await readPerf(refFile), Number(refRequests)) }
      : undefined;
  process.stdout.write(`${nativeReport(a, reference, 25)}\n`);
}
