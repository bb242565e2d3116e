import { describe, expect, it } from "vitest";
import { assetIdFromSrc, assetPath, generateAssetId, isAssetId } from "../../src/domain/asset-url";

describe("asset ids", () => {
  it("are ast_ and 32 lower-case Crockford base32 characters, all different", () => {
    const ids = new Set(Array.from({ length: 2000 }, generateAssetId));
    expect(ids.size).toBe(2000);
    for (const id of ids) {
      expect(id).toMatch(/^ast_[0-9abcdefghjkmnpqrstvwxyz]{32}$/);
      expect(isAssetId(id)).toBe(true);
    }
  });

  it("use every character of the alphabet over many ids (160 random bits, no bias to a subset)", () => {
    const seen = new Set<string>();
    for (let i = 0; i < 500; i++) for (const ch of generateAssetId().slice(4)) seen.add(ch);
    expect([...seen].sort().join("")).toBe("0123456789abcdefghjkmnpqrstvwxyz");
  });

  it("refuses other shapes", () => {
    for (const bad of [
      "ast_",
      `ast_${"i".repeat(32)}`,
      `AST_${"a".repeat(32)}`,
      `ast_${"a".repeat(31)}`,
      `ast_${"a".repeat(33)}`,
      `ast_${"A".repeat(32)}`,
    ]) {
      expect(isAssetId(bad)).toBe(false);
    }
  });
});

describe("assetIdFromSrc", () => {
  const id = generateAssetId();
  const origin = "https://quiz.example";

  it("names the asset of its path or of its absolute URL on the service's origin", () => {
    expect(assetIdFromSrc(assetPath(id))).toBe(id);
    expect(assetIdFromSrc(`  ${assetPath(id)} `)).toBe(id);
    expect(assetIdFromSrc(`${origin}${assetPath(id)}`, origin)).toBe(id);
  });

  it("refuses anything else", () => {
    for (const src of [
      `${origin}${assetPath(id)}`, // no origin known
      `https://evil.example${assetPath(id)}`,
      `${origin}${assetPath(id)}?x=1`,
      `${origin}${assetPath(id)}#x`,
      `https://user@quiz.example${assetPath(id)}`,
      `${assetPath(id)}/more`,
      `${assetPath(id)}?x`,
      "javascript:alert(1)",
      "data:image/png;base64,AAAA",
      "//evil.example/v1/assets/x",
      `/v1/assets/../assets/${id}`,
      "",
    ]) {
      expect(
        assetIdFromSrc(src, src.startsWith(origin) && src === `${origin}${assetPath(id)}` ? undefined : origin),
        src,
      ).toBeNull();
    }
  });
});
