import { describe, expect, it } from "vitest";
import { SCOPES } from "../../../src/lib/scopes";
import { BASE, callRaw } from "../../support/call";
import { workerFetch } from "../../support/oauth-helpers";
import { as, useServerAndClients } from "./fixtures";

useServerAndClients();

/** The parts of the OpenAPI document read here. */
interface Document {
  paths: Record<string, Record<string, { tags?: string[]; requestBody: { content: Record<string, unknown> } }>>;
  components: { securitySchemes: Record<string, unknown> };
}

describe("GET /.well-known/oauth-authorization-server", () => {
  it("is RFC 8414 metadata that oauth4webapi discovers; the issuer is the request's origin", async () => {
    expect(as).toEqual({
      issuer: BASE,
      token_endpoint: `${BASE}/oauth/token`,
      revocation_endpoint: `${BASE}/oauth/revoke`,
      introspection_endpoint: `${BASE}/oauth/introspect`,
      grant_types_supported: ["client_credentials", "refresh_token"],
      response_types_supported: [],
      token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post"],
      revocation_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post"],
      introspection_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post"],
      scopes_supported: [...SCOPES],
      service_documentation: `${BASE}/docs`,
    });
  });

  it("follows the host the request came to (ISSUER is empty in tests)", async () => {
    const res = await workerFetch("https://quiz.example.com/.well-known/oauth-authorization-server");
    const body = await res.json<{ issuer: string; token_endpoint: string }>();
    expect(body.issuer).toBe("https://quiz.example.com");
    expect(body.token_endpoint).toBe("https://quiz.example.com/oauth/token");
  });

  it("the OAuth endpoints are in the OpenAPI document, tagged OAuth", async () => {
    const doc = (await callRaw("/openapi.json", { auth: false })).json as Document;
    for (const [path, method] of [
      ["/oauth/token", "post"],
      ["/oauth/revoke", "post"],
      ["/oauth/introspect", "post"],
      ["/.well-known/oauth-authorization-server", "get"],
    ] as const) {
      expect(doc.paths[path]?.[method]?.tags, path).toEqual(["OAuth"]);
    }
    expect(Object.keys(doc.paths["/oauth/token"]!.post!.requestBody.content)).toEqual([
      "application/x-www-form-urlencoded",
      "application/json",
    ]);
    expect(doc.components.securitySchemes.ClientSecretBasic).toMatchObject({ type: "http", scheme: "basic" });
  });
});
