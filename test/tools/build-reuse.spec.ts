// Under `wrangler dev`, scripts/build.ts keeps a bundle built from the same inputs: wrangler 4.86
// runs the build command a second time as its watcher starts (cloudflare/workers-sdk#7934), and
// that run must not rebuild (and reload) a bundle nothing changed. Any changed byte of any input,
// or other options, still rebuilds; without `reuse` (wrangler deploy) every run builds.
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildWorker, inputsFingerprint } from "../../scripts/build";

const BUILD_TIMEOUT_MS = 120_000;
const dir = mkdtempSync(join(tmpdir(), "build-reuse-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("inputsFingerprint", () => {
  it("changes with any byte of any input and with the options, not with a rewrite of the same bytes", () => {
    const a = join(dir, "a.ts");
    const b = join(dir, "b.ts");
    writeFileSync(a, "export const a = 1;\n");
    writeFileSync(b, "export const b = 2;\n");
    const first = inputsFingerprint([a, b], "dev");
    writeFileSync(a, "export const a = 1;\n");
    expect(inputsFingerprint([a, b], "dev")).toBe(first);
    expect(inputsFingerprint([a, b], "deploy")).not.toBe(first);
    expect(inputsFingerprint([b, a], "dev")).not.toBe(first);
    writeFileSync(b, "export const b = 3;\n");
    expect(inputsFingerprint([a, b], "dev")).not.toBe(first);
    rmSync(b);
    expect(inputsFingerprint([a, b], "dev")).not.toBe(first);
  });
});

describe("buildWorker({ reuse: true })", () => {
  it(
    "keeps the bundle built from the same inputs, and rebuilds when an input or the options changed",
    async () => {
      const outdir = join(dir, "dist");
      const options = { outdir, minify: true, devRoutes: true, reuse: true };
      expect((await buildWorker(options)).reused).toBe(false);
      const built = statSync(join(outdir, "index.js")).mtimeMs;
      const bundle = readFileSync(join(outdir, "index.js"), "utf8");
      expect(bundle).toContain("/__scheduled");

      // wrangler's second run: nothing changed.
      expect((await buildWorker(options)).reused).toBe(true);
      expect(statSync(join(outdir, "index.js")).mtimeMs).toBe(built);

      // An input changed: a file the bundle is recorded as built from.
      const record = join(outdir, "index.js.inputs.json");
      const input = join(dir, "input.ts");
      writeFileSync(input, "export const x = 1;\n");
      const { files } = JSON.parse(readFileSync(record, "utf8")) as { files: string[] };
      const withInput = [...files, input];
      writeFileSync(
        record,
        JSON.stringify({
          files: withInput,
          fingerprint: inputsFingerprint(withInput, JSON.stringify({ minify: true, devRoutes: true })),
        }),
      );
      expect((await buildWorker(options)).reused).toBe(true);
      writeFileSync(input, "export const x = 2;\n");
      expect((await buildWorker(options)).reused).toBe(false);

      // Other options: the bundle wrangler deploy uploads has no dev route.
      const deploy = await buildWorker({ ...options, devRoutes: false });
      expect(deploy.reused).toBe(false);
      expect(readFileSync(join(outdir, "index.js"), "utf8")).not.toContain("/__scheduled");
      // Without reuse, every run builds.
      expect((await buildWorker({ outdir, minify: true })).reused).toBe(false);
    },
    BUILD_TIMEOUT_MS,
  );
});
