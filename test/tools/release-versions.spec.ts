// One release version everywhere (docs/compatibility.md): the package, the document's info.version
// (the app serves package.json's), the SDK's package, and the CHANGELOG's newest release.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../..");
const json = (path: string) => JSON.parse(readFileSync(join(ROOT, path), "utf8")) as { version: string };

describe("the release version", () => {
  const version = json("package.json").version;

  it("is the SDK's and the typed client document's", () => {
    expect(json("clients/typescript/package.json").version).toBe(version);
    expect((json("clients/typescript/openapi.json") as unknown as { info: { version: string } }).info.version).toBe(version);
  });

  it("is the CHANGELOG's newest release, dated, with an API changes section", () => {
    const changelog = readFileSync(join(ROOT, "CHANGELOG.md"), "utf8");
    const newest = /^## \[(\d+\.\d+\.\d+)\] - (\d{4}-\d{2}-\d{2})$/m.exec(changelog);
    expect(newest?.[1]).toBe(version);
    const section = changelog.slice(newest!.index, changelog.indexOf("\n## [", newest!.index + 1));
    expect(section).toMatch(/^### API changes$/m);
  });
});
