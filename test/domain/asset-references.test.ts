import { describe, expect, it } from "vitest";
import { assetIdsIn } from "../../src/domain/asset-references";
import { generateAssetId } from "../../src/domain/asset-url";

describe("the asset ids a question's texts name", () => {
  const [a, b, c] = [generateAssetId(), generateAssetId(), generateAssetId()];

  it("finds each path and absolute URL of an asset, once, in order of first mention", () => {
    const texts = [
      `<p>See <img src="/v1/assets/${a}" alt="a"> and <img src='https://quiz.example.com/v1/assets/${b}'></p>`,
      JSON.stringify({ options: [{ id: "x", text: `<img src="/v1/assets/${a}">` }, { text: `/v1/assets/${c}` }] }),
    ];
    expect(assetIdsIn(texts)).toEqual([a, b, c]);
  });

  it("ignores what is no whole asset id: too short, another alphabet, a longer token, another path", () => {
    const texts = [
      `/v1/assets/${a.slice(0, -1)}`,
      `/v1/assets/${a.slice(0, -1)}u`,
      `/v1/assets/${a}x`,
      `/v1/assets/${a.toUpperCase()}`,
      `/v2/assets/${b}`,
      `/v1/asset/${c}`,
      "/v1/assets/",
      "",
    ];
    expect(assetIdsIn(texts)).toEqual([]);
  });

  it("an id followed by a quote, a query or the end counts", () => {
    expect(assetIdsIn([`"/v1/assets/${a}"`, `/v1/assets/${b}?x`, `x/v1/assets/${c}`])).toEqual([a, b, c]);
  });

  it("overlapping prefixes: /v1/assets//v1/assets/<id> finds the id", () => {
    expect(assetIdsIn([`/v1/assets//v1/assets/${a}`])).toEqual([a]);
  });
});
