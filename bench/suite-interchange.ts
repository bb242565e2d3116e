// Question banks in and out (docs/import-export.md): a 10 MiB QTI package of 200 items imported through
// POST /v1/imports and the jobs queue, timed from the upload to the job's end, with the workerd
// CPU the whole import took (request, R2, queue, parse, the D1 batch); then the reader alone in
// Node on the same bytes (the parse's share); then GET /v1/quizzes/{id}/export of the imported
// 200-question quiz in each format.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { LocalWorker } from "../scripts/local-worker";
import { readQuestionBank } from "../src/interchange";
import { bigQtiPackage } from "../test/routes/imports/big-package";
import { machine, progress, sleep } from "./config";
import { cpuSeconds, workerdPids } from "./cpu";
import { int, median, ms, table } from "./report";

const IMPORT_RUNS = 5;
const EXPORT_RUNS = 10;
const ITEMS = 200;
const EXPORT_FORMATS = ["qti3", "qti21", "gift", "moodle_xml"] as const;

const FIXTURES = join(import.meta.dirname, "../test/interchange/fixtures/qti");
const fixture = (name: string) => readFileSync(join(FIXTURES, `${name}.xml`), "utf8");
const TEMPLATES = {
  items: [
    "choice-v2p1",
    "choice-multiple-v2p2",
    "text-entry-v3",
    "numeric-tolerance-v2p1",
    "order-v3",
    "match-v2p2",
    "true-false-v3",
    "blanks-v2p2",
  ].map(fixture),
  essay: fixture("extended-text-v3"),
};

interface Timed {
  seconds: number;
  cpuMs: number;
}

/** Runs `work` and returns how long it took and the workerd CPU it took meanwhile (ms). */
async function timed<T>(work: () => Promise<T>): Promise<Timed & { value: T }> {
  const pids = workerdPids();
  const cpuBefore = cpuSeconds(pids);
  const started = performance.now();
  const value = await work();
  return { value, seconds: (performance.now() - started) / 1000, cpuMs: (cpuSeconds(pids) - cpuBefore) * 1000 };
}

async function importOnce(url: string, key: string, zip: Uint8Array): Promise<{ quizId: string; written: number }> {
  const auth = { authorization: `Bearer ${key}` };
  const res = await fetch(`${url}/v1/imports`, {
    method: "POST",
    headers: { ...auth, "content-type": "application/zip" },
    body: zip,
  });
  const job = (await res.json()) as { id: string };
  if (res.status !== 202) throw new Error(`import refused: ${res.status} ${JSON.stringify(job)}`);
  for (;;) {
    const now = (await (await fetch(`${url}/v1/jobs/${job.id}`, { headers: auth })).json()) as {
      status: string;
      quiz_id: string;
      result: { imported: number; approximated: number } | null;
      error: unknown;
    };
    if (now.status === "failed") throw new Error(`import failed: ${JSON.stringify(now.error)}`);
    if (now.status === "succeeded" && now.result)
      return { quizId: now.quiz_id, written: now.result.imported + now.result.approximated };
    await sleep(20);
  }
}

export async function interchangeSuite(worker: LocalWorker, adminKey: string, loadBefore: number[]) {
  const zip = bigQtiPackage(TEMPLATES, ITEMS);
  progress(`imports: ${IMPORT_RUNS} × a ${(zip.length / 1048576).toFixed(2)} MiB package of ${ITEMS} items`);
  const imports: Timed[] = [];
  let quizId = "";
  for (let run = 0; run < IMPORT_RUNS; run++) {
    const { value, seconds, cpuMs } = await timed(() => importOnce(worker.url, adminKey, zip));
    if (value.written !== ITEMS) throw new Error(`only ${value.written} of ${ITEMS} items were written`);
    imports.push({ seconds, cpuMs });
    quizId = value.quizId;
  }
  const reads = Array.from({ length: IMPORT_RUNS }, () => {
    const started = performance.now();
    readQuestionBank(zip, { format: "qti" });
    return performance.now() - started;
  });

  progress(`exports: ${EXPORT_RUNS} × each format of a ${ITEMS}-question quiz`);
  const exportRows: string[][] = [];
  for (const format of EXPORT_FORMATS) {
    const latencies: number[] = [];
    let bytes = 0;
    let skipped = 0;
    // CPU over all the runs of a format: /proc counts in 10 ms ticks, more than one export takes.
    const all = await timed(async () => {
      for (let run = 0; run < EXPORT_RUNS; run++) {
        const started = performance.now();
        const res = await fetch(`${worker.url}/v1/quizzes/${quizId}/export?format=${format}`, {
          headers: { authorization: `Bearer ${adminKey}` },
        });
        if (res.status !== 200) throw new Error(`export ${format}: ${res.status}`);
        bytes = (await res.arrayBuffer()).byteLength;
        skipped = res.headers.get("export-skipped")?.split(",").length ?? 0;
        latencies.push(performance.now() - started);
      }
    });
    const cpu = all.cpuMs / EXPORT_RUNS;
    exportRows.push([
      format,
      `${int(ITEMS - skipped)} (${int(skipped)} skipped)`,
      `${(bytes / 1024).toFixed(0)} KiB`,
      ms(median(latencies)),
      ms(cpu),
      (cpu / ITEMS).toFixed(3),
    ]);
  }

  const seconds = median(imports.map((r) => r.seconds));
  const cpu = median(imports.map((r) => r.cpuMs));
  const parse = median(reads);
  return [
    `## Question banks: import and export (${IMPORT_RUNS} imports, ${EXPORT_RUNS} exports per format, medians)`,
    "",
    table(
      [
        "Import of a QTI package",
        "size",
        "items",
        "upload → job done (s)",
        "items/s",
        "workerd CPU ms",
        "CPU ms per item",
        "runs (s)",
      ],
      [
        [
          "POST /v1/imports, then the job (R2, queue, parse, one D1 batch of ~400 statements)",
          `${(zip.length / 1048576).toFixed(2)} MiB`,
          int(ITEMS),
          seconds.toFixed(2),
          int(ITEMS / seconds),
          int(cpu),
          (cpu / ITEMS).toFixed(2),
          imports.map((r) => r.seconds.toFixed(2)).join(" / "),
        ],
        [
          "the reader alone (Node, same code and bytes)",
          "",
          int(ITEMS),
          (parse / 1000).toFixed(2),
          int(ITEMS / (parse / 1000)),
          int(parse),
          (parse / ITEMS).toFixed(2),
          "",
        ],
      ],
    ),
    "",
    table(
      [
        "GET /v1/quizzes/{id}/export (200 questions)",
        "questions written",
        "file",
        "p50 ms",
        "workerd CPU ms",
        "CPU ms per question",
      ],
      exportRows,
    ),
    "",
    "Workers allow 30 s of CPU per queue invocation by default (and 128 MB): the import's whole CPU, D1 and R2 simulated in the same workerd included, is a small fraction of it. Locally every D1 statement also costs workerd CPU that Cloudflare spends elsewhere.",
    "",
    machine(loadBefore),
  ].join("\n");
}
