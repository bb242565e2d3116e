// The tarball `npm pack` makes in clients/typescript (docs/client.md) is a build output: git
// ignores it, so that packing the SDK never leaves a file to commit by mistake.
import { execFileSync, spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");
const CLIENT = join(ROOT, "clients/typescript");

describe("the SDK's packed tarball", () => {
  it("is ignored by git where npm pack writes it", () => {
    const [report] = JSON.parse(
      execFileSync("npm", ["pack", "--dry-run", "--json", "--loglevel=error"], { cwd: CLIENT, encoding: "utf8" }),
    ) as { filename: string }[];
    expect(report?.filename).toMatch(/^quiz-api-client-\d+\.\d+\.\d+\.tgz$/);
    const ignored = spawnSync("git", ["check-ignore", "--no-index", "-q", join("clients/typescript", report!.filename)], {
      cwd: ROOT,
    });
    expect(ignored.status, `git check-ignore clients/typescript/${report!.filename}`).toBe(0);
  });
});
