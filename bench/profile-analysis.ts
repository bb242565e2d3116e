// Reads a V8 CPU profile (the Chrome DevTools Protocol's Profiler.Profile, as workerd's inspector
// returns it) into Markdown: self and total time per function and per source bucket (an npm
// package, a file of src/, V8's own pseudo-frames), with bundle positions mapped back to their
// sources through the bundle's source map. Used by bench/profile.ts; also on its own:
//
//   npx tsx bench/profile-analysis.ts FILE.cpuprofile [--bundle DIR/index.js] [--top 30] [--requests N]
//                                     [--focus "NAME or PATH:LINE" …] [--depth 6] [--min 0.5]
//                                     [--totals BUCKET-PREFIX …] (default src/)
//
// --bundle: the bundle the profile ran (its .map beside it); --focus: print the merged tree of
// callees under every frame whose "name location" contains the string (repeatable).
import { existsSync, readFileSync } from "node:fs";
import { SourceMap } from "node:module";
import { basename, dirname, relative, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { table } from "./report";

export interface CallFrame {
  functionName: string;
  scriptId: string;
  url: string;
  /** 0-based. */
  lineNumber: number;
  /** 0-based. */
  columnNumber: number;
}

export interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  hitCount?: number;
  children?: number[];
  /** Samples per 1-based line of the script, within this node's function. */
  positionTicks?: { line: number; ticks: number }[];
}

export interface CpuProfile {
  nodes: ProfileNode[];
  /** µs. */
  startTime: number;
  endTime: number;
  samples?: number[];
  /** µs between a sample and the one before it. */
  timeDeltas?: number[];
}

/** Where a frame's code comes from. */
export interface Frame {
  /** Function name, or "(anonymous)". */
  name: string;
  /** Source path relative to the repository (mapped), or the script's URL; with a 1-based line. */
  location: string;
  /** An npm package ("zod", "@hono/zod-openapi"), "src/<dir>/<file>", a pseudo-frame such as "(garbage collector)", … */
  bucket: string;
}

/** V8's pseudo-frames: no code of anybody's, but where the samples land outside JavaScript. */
const PSEUDO = new Set(["(root)", "(program)", "(idle)", "(garbage collector)"]);

/**
 * Maps a bundle's positions back to its sources: the file and line through the source map, and
 * the module (hence the package) through the `// path` comment esbuild writes before each module
 * of an unminified bundle (a package's own source maps may point outside it: drizzle-orm's name
 * ../src/…, which would lose the package's name).
 */
export class BundleSources {
  private readonly map: SourceMap;
  private readonly mapDir: string;
  /** Generated line (0-based) where each module starts, ascending, and its path. */
  private readonly modules: { line: number; path: string }[] = [];
  /** The bundle's lines. */
  private readonly lines: string[];

  constructor(
    bundleFile: string,
    /** Profile URLs whose frames this bundle describes (workerd names a module by its path under modulesRoot). */
    readonly matches: (url: string) => boolean,
    /** What source paths are reported relative to. */
    private readonly root = process.cwd(),
  ) {
    const mapFile = `${bundleFile}.map`;
    this.map = new SourceMap(JSON.parse(readFileSync(mapFile, "utf8")));
    this.mapDir = dirname(resolve(mapFile));
    this.lines = readFileSync(bundleFile, "utf8").split("\n");
    this.lines.forEach((text, line) => {
      const m = /^\/\/ ([^\s@][^\s]*)$/.exec(text);
      if (m?.[1] && (m[1].includes("/") || m[1].includes(".") || m[1].includes(":")))
        this.modules.push({ line, path: m[1].replace(/^(\.\.\/)+/, "") });
    });
  }

  /** A 0-based bundle line: its source position (from its first non-blank column) and its text. */
  line(line: number): { where: string; bucket: string; text: string } | undefined {
    const text = this.lines[line];
    if (text === undefined) return undefined;
    const column = text.length - text.trimStart().length;
    const mapped = this.lookup(line, column);
    return mapped && { where: `${mapped.source}:${mapped.line}`, bucket: mapped.bucket, text: text.trim() };
  }

  /** The module a 0-based generated line belongs to (its path as esbuild wrote it). */
  moduleAt(line: number): string | undefined {
    let lo = 0;
    let hi = this.modules.length - 1;
    let found: string | undefined;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const m = this.modules[mid] as { line: number; path: string };
      if (m.line <= line) {
        found = m.path;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found;
  }

  /** Source file (relative to the root), 1-based line and bucket of a 0-based bundle position. */
  lookup(line: number, column: number): { source: string; line: number; bucket: string } | undefined {
    const module = this.moduleAt(line);
    const entry = this.map.findEntry(line, column) as { originalSource?: string; originalLine?: number };
    if (!entry?.originalSource) return module ? { source: module, line: line + 1, bucket: bucketOf(module) } : undefined;
    const absolute = entry.originalSource.startsWith("file://")
      ? new URL(entry.originalSource).pathname
      : resolve(this.mapDir, entry.originalSource);
    const bucket = bucketOf(module ?? relative(this.root, absolute));
    let source = relative(this.root, absolute);
    const at = source.lastIndexOf("node_modules/");
    if (at >= 0) {
      // node_modules/<package>/…, or the package's own source outside it (node_modules/src/… → drizzle-orm/src/…).
      const inside = source.slice(at + "node_modules/".length);
      source = inside.startsWith(`${bucket}/`) ? inside : `${bucket}/${inside}`;
    }
    return { source, line: (entry.originalLine ?? 0) + 1, bucket };
  }
}

/** The bucket of a source path: the package under the last node_modules/, or src/<dir>/<file>. */
export function bucketOf(source: string): string {
  const parts = source.split("/");
  const at = parts.lastIndexOf("node_modules");
  if (at >= 0) {
    const first = parts[at + 1] ?? source;
    return first.startsWith("@") ? `${first}/${parts[at + 2] ?? ""}` : first;
  }
  return source;
}

export class FrameResolver {
  private readonly cache = new Map<string, Frame>();

  constructor(
    private readonly sources: BundleSources[],
    /** Bucket for frames of a script no source map covers (e.g. the baseline's bundle). */
    private readonly unmappedBucket: (url: string) => string = (url) => url,
  ) {}

  /** A script line (1-based, as positionTicks give it), mapped; undefined where no map covers the script. */
  line(url: string, line: number): { where: string; bucket: string; text: string } | undefined {
    return this.sources.find((s) => s.matches(url))?.line(line - 1);
  }

  resolve(cf: CallFrame): Frame {
    const key = `${cf.functionName}|${cf.url}|${cf.lineNumber}|${cf.columnNumber}`;
    let frame = this.cache.get(key);
    if (!frame) {
      frame = this.compute(cf);
      this.cache.set(key, frame);
    }
    return frame;
  }

  private compute(cf: CallFrame): Frame {
    const name = cf.functionName || "(anonymous)";
    if (PSEUDO.has(cf.functionName) && cf.url === "") return { name, location: "", bucket: cf.functionName };
    if (cf.url === "") return { name, location: "(native)", bucket: "(native)" };
    const map = this.sources.find((s) => s.matches(cf.url));
    const mapped = map?.lookup(cf.lineNumber, cf.columnNumber);
    if (mapped) return { name, location: `${mapped.source}:${mapped.line}`, bucket: mapped.bucket };
    return { name, location: `${cf.url}:${cf.lineNumber + 1}`, bucket: this.unmappedBucket(cf.url) };
  }
}

export interface Row {
  key: string;
  frame: Frame;
  self: number;
  /** Samples with this key anywhere on the stack (each sample once, recursion or not). */
  total: number;
  /** Buckets only: self, plus the native callbacks (workerd's C++ API) its JavaScript called. */
  selfWithNatives: number;
}

export interface Analysis {
  /** All samples, and the non-idle ones every percentage is of. */
  samples: number;
  nonIdle: number;
  /** Median µs between consecutive samples (the effective sampling interval). */
  intervalUs: number;
  /** Wall-clock µs the profile spans. */
  spanUs: number;
  functions: Row[];
  buckets: Row[];
  /**
   * Samples by the innermost frame of src/ on their stack (what of ours caused them, library
   * callees included, later middleware not), or by their own bucket when no src/ frame is on
   * the stack (routing, continuations after an await, GC), largest first.
   */
  attributed: { frame: Frame; samples: number; inSrc: boolean }[];
  /** Self samples per source line (V8's positionTicks), hottest first. */
  lines: { where: string; fn: string; bucket: string; text: string; ticks: number }[];
}

const NATIVE = "(native API: workerd/V8 C++ callbacks)";

interface Resolved {
  node: ProfileNode;
  frame: Frame;
  /** For a native frame, the bucket of the nearest JavaScript caller; else the frame's own. */
  owner: string;
  /** The innermost frame of the application's own code (a bucket under `appPrefix`) on the path, if any. */
  app: Frame | undefined;
  children: Resolved[];
}

/**
 * The call tree with every frame resolved. A native callback (no script) is named after its
 * caller too, since "set" or "(anonymous)" alone says nothing: `set ← header (hono/dist/context.js:…)`.
 */
function resolveTree(profile: CpuProfile, resolver: FrameResolver, appPrefix = "src/"): Resolved {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const first = profile.nodes[0];
  if (!first) throw new Error("empty profile");
  const make = (node: ProfileNode, parent: Resolved | undefined): Resolved => {
    let frame = resolver.resolve(node.callFrame);
    let owner = frame.bucket;
    if (frame.location === "(native)") {
      const caller = parent && parent.frame.location !== "" ? parent.frame : undefined;
      frame = {
        name: frame.name,
        location: caller ? `native, from ${caller.name} ${caller.location}` : "native",
        bucket: NATIVE,
      };
      owner = parent && parent.owner !== "(root)" ? parent.owner : NATIVE;
    }
    const app = frame.bucket.startsWith(appPrefix) ? frame : parent?.app;
    return { node, frame, owner, app, children: [] };
  };
  const root = make(first, undefined);
  const stack: Resolved[] = [root];
  while (stack.length > 0) {
    const r = stack.pop() as Resolved;
    for (const c of r.node.children ?? []) {
      const child = byId.get(c);
      if (!child) continue;
      const rc = make(child, r);
      r.children.push(rc);
      stack.push(rc);
    }
  }
  return root;
}

function selfSamples(profile: CpuProfile): Map<number, number> {
  const selfOf = new Map<number, number>();
  const samples = profile.samples ?? [];
  if (samples.length > 0) for (const id of samples) selfOf.set(id, (selfOf.get(id) ?? 0) + 1);
  else for (const n of profile.nodes) selfOf.set(n.id, n.hitCount ?? 0);
  return selfOf;
}

/** Nodes in an order where every node comes before its children. */
function preorder(root: Resolved): Resolved[] {
  const order: Resolved[] = [];
  const stack = [root];
  while (stack.length > 0) {
    const r = stack.pop() as Resolved;
    order.push(r);
    for (const c of r.children) stack.push(c);
  }
  return order;
}

function subtreeSums(order: Resolved[], selfOf: Map<number, number>): Map<Resolved, number> {
  const sums = new Map<Resolved, number>();
  for (let i = order.length - 1; i >= 0; i--) {
    const r = order[i] as Resolved;
    let sum = selfOf.get(r.node.id) ?? 0;
    for (const c of r.children) sum += sums.get(c) ?? 0;
    sums.set(r, sum);
  }
  return sums;
}

const fnKey = (f: Frame) => `${f.name} ${f.location}`;

/**
 * Self samples per node, then per function (name + source position) and per bucket; totals by
 * one walk of the call tree that counts a subtree to a key only where the key first appears on
 * the path from the root (so recursion counts once).
 */
export function analyse(profile: CpuProfile, resolver: FrameResolver): Analysis {
  const selfOf = selfSamples(profile);
  let idle = 0;
  for (const n of profile.nodes) if (n.callFrame.functionName === "(idle)") idle += selfOf.get(n.id) ?? 0;
  const total = [...selfOf.values()].reduce((a, b) => a + b, 0);

  const functions = new Map<string, Row>();
  const buckets = new Map<string, Row>();
  const row = (rows: Map<string, Row>, key: string, frame: Frame) => {
    let r = rows.get(key);
    if (!r) {
      r = { key, frame, self: 0, total: 0, selfWithNatives: 0 };
      rows.set(key, r);
    }
    return r;
  };

  const root = resolveTree(profile, resolver);
  const subtree = subtreeSums(preorder(root), selfOf);

  // Depth-first, with counts of the keys on the current path.
  const onPath = new Map<string, number>();
  const enter = (rows: Map<string, Row>, key: string, frame: Frame, r: Resolved) => {
    const depth = onPath.get(key) ?? 0;
    if (depth === 0) row(rows, key, frame).total += subtree.get(r) ?? 0;
    onPath.set(key, depth + 1);
  };
  const leave = (key: string) => onPath.set(key, (onPath.get(key) ?? 1) - 1);
  const walk: { r: Resolved; exit: boolean }[] = [{ r: root, exit: false }];
  while (walk.length > 0) {
    const { r, exit } = walk.pop() as { r: Resolved; exit: boolean };
    const fk = `f:${fnKey(r.frame)}`;
    const bk = `b:${r.frame.bucket}`;
    if (exit) {
      leave(fk);
      leave(bk);
      continue;
    }
    const self = selfOf.get(r.node.id) ?? 0;
    row(functions, fk, r.frame).self += self;
    row(buckets, bk, r.frame).self += self;
    row(buckets, `b:${r.owner}`, { ...r.frame, bucket: r.owner }).selfWithNatives += self;
    enter(functions, fk, r.frame, r);
    enter(buckets, bk, r.frame, r);
    walk.push({ r, exit: true });
    for (const c of r.children) walk.push({ r: c, exit: false });
  }

  // Attribution to the innermost src/ frame.
  const attributed = new Map<string, { frame: Frame; samples: number; inSrc: boolean }>();
  for (const r of preorder(root)) {
    const self = selfOf.get(r.node.id) ?? 0;
    if (self === 0 || r.frame.bucket === "(idle)") continue;
    const key = r.app ? `f:${fnKey(r.app)}` : `b:${r.frame.bucket}`;
    const entry = attributed.get(key) ?? {
      frame: r.app ?? { name: `(no src/ frame) ${r.frame.bucket}`, location: "", bucket: r.frame.bucket },
      samples: 0,
      inSrc: r.app !== undefined,
    };
    entry.samples += self;
    attributed.set(key, entry);
  }

  // Hot lines: positionTicks of frames in mapped scripts (a native callback's ticks are its caller's line).
  const lines = new Map<string, { where: string; fn: string; bucket: string; text: string; ticks: number }>();
  for (const r of preorder(root)) {
    const cf = r.node.callFrame;
    if (cf.url === "" || !r.node.positionTicks) continue;
    for (const { line, ticks } of r.node.positionTicks) {
      const mapped = resolver.line(cf.url, line);
      const where = mapped?.where ?? `${cf.url}:${line}`;
      const key = `${where}|${r.frame.name}`;
      const entry = lines.get(key) ?? {
        where,
        fn: r.frame.name,
        bucket: mapped?.bucket ?? r.frame.bucket,
        text: mapped?.text ?? "",
        ticks: 0,
      };
      entry.ticks += ticks;
      lines.set(key, entry);
    }
  }

  const deltas = (profile.timeDeltas ?? [])
    .slice(1)
    .filter((d) => d > 0)
    .sort((a, b) => a - b);
  const drop = (rows: Map<string, Row>) =>
    [...rows.values()].filter((r) => r.frame.bucket !== "(idle)" && r.frame.bucket !== "(root)");
  return {
    samples: total,
    nonIdle: total - idle,
    intervalUs: deltas.length > 0 ? (deltas[Math.floor(deltas.length / 2)] as number) : Number.NaN,
    spanUs: profile.endTime - profile.startTime,
    functions: drop(functions).sort((a, b) => b.self - a.self || b.total - a.total),
    buckets: drop(buckets).sort((a, b) => b.selfWithNatives - a.selfWithNatives || b.self - a.self),
    lines: [...lines.values()].sort((a, b) => b.ticks - a.ticks),
    attributed: [...attributed.values()].sort((a, b) => b.samples - a.samples),
  };
}

/**
 * The callees of every frame whose "name location" contains `match` (outermost occurrences
 * only), merged into one tree, as an indented list with % of non-idle samples; branches under
 * `minPercent` are left out.
 */
export function calleeTree(
  profile: CpuProfile,
  resolver: FrameResolver,
  match: string,
  options: { depth?: number; minPercent?: number } = {},
): string {
  const selfOf = selfSamples(profile);
  let idle = 0;
  for (const n of profile.nodes) if (n.callFrame.functionName === "(idle)") idle += selfOf.get(n.id) ?? 0;
  const nonIdle = [...selfOf.values()].reduce((a, b) => a + b, 0) - idle;
  const root = resolveTree(profile, resolver);
  const subtree = subtreeSums(preorder(root), selfOf);
  interface Merged {
    frame: Frame;
    total: number;
    self: number;
    children: Map<string, Merged>;
  }
  const merged = new Map<string, Merged>();
  const add = (into: Map<string, Merged>, r: Resolved, depth: number) => {
    const key = fnKey(r.frame);
    let m = into.get(key);
    if (!m) {
      m = { frame: r.frame, total: 0, self: 0, children: new Map() };
      into.set(key, m);
    }
    m.total += subtree.get(r) ?? 0;
    m.self += selfOf.get(r.node.id) ?? 0;
    if (depth > 0) for (const c of r.children) add(m.children, c, depth - 1);
  };
  const depth = options.depth ?? 6;
  const stack = [root];
  while (stack.length > 0) {
    const r = stack.pop() as Resolved;
    if (fnKey(r.frame).includes(match)) add(merged, r, depth);
    else for (const c of r.children) stack.push(c);
  }
  const min = ((options.minPercent ?? 0.5) / 100) * nonIdle;
  const lines: string[] = [];
  const print = (nodes: Map<string, Merged>, indent: string) => {
    for (const m of [...nodes.values()].sort((a, b) => b.total - a.total)) {
      if (m.total < min) continue;
      lines.push(
        `${indent}- ${percent(m.total, nonIdle)} (self ${percent(m.self, nonIdle)}) \`${m.frame.name}\` ${m.frame.location} [${m.frame.bucket}]`,
      );
      print(m.children, `${indent}  `);
    }
  };
  print(merged, "");
  return lines.length > 0 ? lines.join("\n") : `(no frame matches "${match}")`;
}

export interface ReportOptions {
  /** Responses served while the profiler ran: for ms per request. */
  requests?: number;
  top?: number;
  /** Bucket prefixes whose functions get a "total time" table of their own (e.g. "src/"). */
  totalsFor?: string[];
  totalsTop?: number;
  /** Hot source lines to list (default 25; 0: none). */
  lines?: number;
  /** Add the table of samples by innermost src/ frame. */
  attribute?: boolean;
  attributeTop?: number;
}

const percent = (n: number, of: number) => (of > 0 ? `${((100 * n) / of).toFixed(1)} %` : "—");

/** The analysis as Markdown: summary line, bucket table, top functions by self time, key frames by total time. */
export function report(a: Analysis, options: ReportOptions = {}): string {
  const top = options.top ?? 30;
  const perSample = a.intervalUs / 1000;
  const perRequest = (n: number) =>
    options.requests && options.requests > 0 && Number.isFinite(perSample)
      ? ((n * perSample) / options.requests).toFixed(3)
      : "—";
  const out: string[] = [];
  if (a.nonIdle === 0) return "No samples: this isolate did not run while the profiler did.\n";
  out.push(
    `${a.nonIdle.toLocaleString("en-US")} non-idle samples of ${a.samples.toLocaleString("en-US")}, ` +
      `median interval ${a.intervalUs.toFixed(0)} µs` +
      (options.requests
        ? `; ${options.requests.toLocaleString("en-US")} responses; this isolate's sampled JS+native time ≈ ${perRequest(a.nonIdle)} ms/request`
        : ""),
    "",
  );
  out.push(
    table(
      ["Bucket", "self + native callees %", "ms/req", "self %", "on stack %"],
      a.buckets.map((r) => [
        r.frame.bucket,
        percent(r.selfWithNatives, a.nonIdle),
        perRequest(r.selfWithNatives),
        percent(r.self, a.nonIdle),
        percent(r.total, a.nonIdle),
      ]),
    ),
    "",
    '"self": samples whose innermost frame is in the bucket; "+ native callees": also the samples in workerd\'s C++ API callbacks (Headers, Response, console.log, crypto.subtle, fetch, …) that its JavaScript called, which the "(native API …)" row holds otherwise; "on stack": samples with any frame of the bucket on the stack. V8 builtins (JSON.stringify, RegExp, Array methods) have no frame of their own: their time is their caller\'s self time. Percentages of non-idle samples.',
    "",
  );
  out.push(
    `Top ${top} functions by self time:`,
    "",
    table(
      ["#", "Function", "Where", "Bucket", "self %", "total %"],
      a.functions
        .slice(0, top)
        .map((r, i) => [
          String(i + 1),
          `\`${r.frame.name}\``,
          r.frame.location,
          r.frame.bucket,
          percent(r.self, a.nonIdle),
          percent(r.total, a.nonIdle),
        ]),
    ),
    "",
  );
  if (options.attribute) {
    const rows = a.attributed.slice(0, options.attributeTop ?? 30);
    const inSrc = a.attributed.filter((r) => r.inSrc).reduce((n, r) => n + r.samples, 0);
    out.push(
      `By the innermost src/ frame on the stack (library and native callees included, later middleware not; ${percent(inSrc, a.nonIdle)} of samples have a src/ frame on the stack, the rest is listed by bucket):`,
      "",
      table(
        ["src/ function (or bucket, without one)", "Where", "%", "ms/req"],
        rows.map((r) => [
          r.inSrc ? `\`${r.frame.name}\`` : r.frame.name,
          r.frame.location,
          percent(r.samples, a.nonIdle),
          perRequest(r.samples),
        ]),
      ),
      "",
    );
  }
  const hot = a.lines.slice(0, options.lines ?? 25);
  if (hot.length > 0)
    out.push(
      `Top ${hot.length} source lines by self time (V8's per-line ticks; a line's own time, native callbacks included where workerd reports them):`,
      "",
      table(
        ["Line", "Function", "self %", "Code (bundle)"],
        hot.map((l) => [
          l.where,
          `\`${l.fn}\``,
          percent(l.ticks, a.nonIdle),
          `\`${(l.text.length > 90 ? `${l.text.slice(0, 87)}…` : l.text).replaceAll("|", "\\|").replaceAll("`", "'")}\``,
        ]),
      ),
      "",
    );
  for (const prefix of options.totalsFor ?? []) {
    const rows = a.functions
      .filter((r) => r.frame.bucket.startsWith(prefix))
      .sort((x, y) => y.total - x.total)
      .slice(0, options.totalsTop ?? 25);
    if (rows.length === 0) continue;
    out.push(
      `Frames of ${prefix}* by total (inclusive) time:`,
      "",
      table(
        ["Function", "Where", "total %", "total ms/req", "self %"],
        rows.map((r) => [
          `\`${r.frame.name}\``,
          r.frame.location,
          percent(r.total, a.nonIdle),
          perRequest(r.total),
          percent(r.self, a.nonIdle),
        ]),
      ),
      "",
    );
  }
  return out.join("\n");
}

// npx tsx bench/profile-analysis.ts FILE.cpuprofile [--bundle BUNDLE.js] [--top N] [--requests N]
if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const { parseArgs } = await import("node:util");
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      bundle: { type: "string" },
      top: { type: "string" },
      requests: { type: "string" },
      focus: { type: "string", multiple: true },
      depth: { type: "string" },
      min: { type: "string" },
      totals: { type: "string", multiple: true },
    },
  });
  const file = positionals[0];
  if (!file)
    throw new Error("usage: profile-analysis.ts FILE.cpuprofile [--bundle BUNDLE.js] [--top N] [--requests N] [--focus STR]");
  const profile = JSON.parse(readFileSync(file, "utf8")) as CpuProfile;
  const bundle = values.bundle;
  const sources =
    bundle && existsSync(`${bundle}.map`) ? [new BundleSources(bundle, (url) => basename(url) === basename(bundle))] : [];
  const resolver = new FrameResolver(sources);
  const a = analyse(profile, resolver);
  const requests = values.requests ? Number(values.requests) : undefined;
  process.stdout.write(
    `${report(a, { top: Number(values.top ?? 30), requests, totalsFor: values.totals ?? ["src/"], attribute: true })}\n`,
  );
  for (const focus of values.focus ?? [])
    process.stdout.write(
      `\nCallees of \`${focus}\`:\n\n${calleeTree(profile, resolver, focus, { depth: Number(values.depth ?? 6), minPercent: Number(values.min ?? 0.5) })}\n`,
    );
}
