import * as oauth from "oauth4webapi";
import { beforeAll, expect } from "vitest";
import { call } from "../../support/call";
import { clientAuth, discover, http, type SeededClient, seedClient } from "../../support/oauth-helpers";

/** The OAuth endpoints' suites: the server as oauth4webapi discovers it, two clients, and their calls. */

export const ACCESS_TOKEN = /^qz_at_[0-9A-Za-z]{43}$/;
export const REFRESH_TOKEN = /^qz_rt_[0-9A-Za-z]{43}$/;
export const READ = ["quizzes:read", "users:read"];

export let as: oauth.AuthorizationServer;
export let client: SeededClient;
export let other: SeededClient;

/** Before the file's tests: the discovered server, and two clients with READ. */
export function useServerAndClients(): void {
  beforeAll(async () => {
    as = await discover();
    client = await seedClient(READ);
    other = await seedClient(READ);
  });
}

export const verify = (accessToken: string) => call("/v1/auth/verify", { auth: accessToken });

export async function introspect(who: SeededClient, token: string) {
  const response = await oauth.introspectionRequest(as, { client_id: who.client_id }, clientAuth(who), token, http);
  return oauth.processIntrospectionResponse(as, { client_id: who.client_id }, response);
}

export async function revoke(who: SeededClient, token: string, method: "basic" | "post" = "basic") {
  const response = await oauth.revocationRequest(as, { client_id: who.client_id }, clientAuth(who, method), token, http);
  expect(response.status).toBe(200);
  expect(await response.clone().text()).toBe("");
  await oauth.processRevocationResponse(response);
}
