import { describe, expect, it } from "vitest";
import { identifyCredential } from "../../src/auth/credentials";
import { generateAccessToken, generateApiKey } from "../../src/domain/credential-format";
import { ApiError } from "../../src/lib/errors";

/** The pure half of authentication: which credential the headers present, before any lookup. */
describe("identifyCredential", () => {
  const key = generateApiKey();
  const token = generateAccessToken();
  const problem = (result: ReturnType<typeof identifyCredential>) => {
    if (!(result instanceof ApiError)) throw new Error(`expected an error, got ${JSON.stringify(result)}`);
    return { status: result.status, code: result.code };
  };

  it("finds an API key in X-API-Key or in Authorization: Bearer, and an access token in Bearer", () => {
    expect(identifyCredential({ apiKey: key })).toEqual({ type: "api_key", key });
    expect(identifyCredential({ authorization: `Bearer ${key}` })).toEqual({ type: "api_key", key });
    expect(identifyCredential({ authorization: `bearer  ${token}` })).toEqual({ type: "access_token", token });
    expect(identifyCredential({ apiKey: key, authorization: `Bearer ${key}` })).toEqual({ type: "api_key", key });
  });

  it("no credential → 401 unauthorized; malformed or misplaced → 401 invalid_token; two different → 400", () => {
    expect(problem(identifyCredential({}))).toEqual({ status: 401, code: "unauthorized" });
    expect(problem(identifyCredential({ authorization: "Basic abc" }))).toEqual({ status: 401, code: "invalid_token" });
    expect(problem(identifyCredential({ apiKey: token }))).toEqual({ status: 401, code: "invalid_token" });
    const mistyped = `${key.slice(0, -1)}${key.endsWith("a") ? "b" : "a"}`;
    expect(problem(identifyCredential({ apiKey: mistyped }))).toEqual({ status: 401, code: "invalid_token" });
    expect(problem(identifyCredential({ apiKey: key, authorization: `Bearer ${token}` }))).toEqual({
      status: 400,
      code: "conflicting_credentials",
    });
  });
});
