import { describe, expect, it } from "vitest";
import { originProblem } from "../../src/domain/web-origin";

// An LMS's frame origin (docs/lti.md, "Registering the platform with the API"): exactly an origin,
// since it is written into a Content-Security-Policy.

describe("originProblem", () => {
  it.each([
    ["https://school.instructure.com", "public"],
    ["https://moodle.school.example:8443", "public"],
    ["https://[2001:db8::1]", "public"],
    ["http://localhost:3000", "allow-loopback"],
    ["http://127.0.0.1:8788", "allow-loopback"],
  ] as const)("accepts %s (%s)", (origin, policy) => {
    expect(originProblem(origin, policy)).toBeUndefined();
  });

  it.each([
    ["https://school.instructure.com/", "a trailing slash"],
    ["https://school.instructure.com/courses", "a path"],
    ["https://school.instructure.com?x=1", "a query"],
    ["https://user@school.instructure.com", "a user name"],
    ["HTTPS://School.Instructure.com", "not as browsers serialise it"],
    ["https://school.instructure.com:443", "the default port written out"],
    ["https://*.instructure.com", "a wildcard"],
    ["https://a.example.org https://b.example.org", "two sources"],
    ["https://a.example.org;script-src", "policy syntax"],
    ["'self'", "a keyword"],
    ["*", "a bare wildcard"],
    ["http://school.example.org", "http"],
    ["http://localhost:3000", "loopback under the public policy"],
    ["data:", "a scheme source"],
    [`https://${"a".repeat(250)}.org`, "too long"],
  ])("refuses %s (%s)", (origin) => {
    expect(originProblem(origin, "public")).toEqual(expect.any(String));
  });
});
