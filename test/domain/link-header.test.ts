import { describe, expect, it } from "vitest";
import { nextLink } from "../../src/domain/link-header";

const BASE = "https://lms.example.org/api/lti/courses/1/names_and_roles";

describe("nextLink: the rel=next target of a Link header (RFC 8288)", () => {
  it.each([
    ['<https://lms.example.org/p2>; rel="next"', "https://lms.example.org/p2"],
    ["<https://lms.example.org/p2>; rel=next", "https://lms.example.org/p2"],
    ['<https://lms.example.org/d>; rel="differences", <https://lms.example.org/p2>; rel="next"', "https://lms.example.org/p2"],
    ['<https://lms.example.org/p2>; title="a, b; rel=\\"x\\""; rel="NEXT"', "https://lms.example.org/p2"],
    ['<https://lms.example.org/p2>; rel="last next"', "https://lms.example.org/p2"],
    ['</api/page/2?x=1>; rel="next"', "https://lms.example.org/api/page/2?x=1"],
    ['garbage, <https://lms.example.org/p3>;rel="next"', "https://lms.example.org/p3"],
  ])("%s → %s", (header, next) => {
    expect(nextLink(header, BASE)).toBe(next);
  });

  it.each([
    [null],
    [""],
    ['<https://lms.example.org/p1>; rel="prev", <https://lms.example.org/p9>; rel="last"'],
    ['<https://lms.example.org/p2>; rel="nextish"'],
    ['<https://lms.example.org/p2; rel="next"'],
    ['"<https://lms.example.org/p2>; rel=next"'],
    ['<http://[::1>; rel="next"'],
  ])("no next in %s", (header) => {
    expect(nextLink(header, BASE)).toBeUndefined();
  });

  it("reads a hostile header in time proportional to its length", () => {
    const hostile = [
      `<${"<".repeat(200_000)}`,
      `<x>${";".repeat(200_000)}`,
      `<x>; rel="${"\\".repeat(200_000)}`,
      `${'"'.repeat(200_001)},`.repeat(2),
      `<x>; ${"a=b; ".repeat(50_000)}rel=next`,
    ];
    for (const header of hostile) {
      const started = performance.now();
      nextLink(header, BASE);
      expect(performance.now() - started).toBeLessThan(500);
    }
    expect(nextLink(`<https://lms.example.org/p2>; ${"a=b; ".repeat(50_000)}rel=next`, BASE)).toBe("https://lms.example.org/p2");
  });
});
