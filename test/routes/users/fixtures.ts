import { expect } from "vitest";
import { call } from "../../support/call";

export const USER_ID = /^user_[0-7][0-9a-hjkmnp-tv-z]{25}$/;
export const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
export const MISSING_USER = "/v1/users/user_01kamz3f7c9n0p8s6e5vwx2y4r";

/** A fresh e-mail address: storage is shared by every test of this file. */
export const email = (label = "user") => `${label}-${crypto.randomUUID()}@example.com`;

export async function createUser(body: Record<string, unknown> = {}) {
  const res = await call("/v1/users", { body: { name: "Ada Lovelace", email: email(), ...body } });
  expect(res.status, res.text).toBe(201);
  return res.json;
}

/** Every user the list shows for `query`, following next_cursor to the end. */
export async function listAll(query = ""): Promise<any[]> {
  const out: any[] = [];
  let cursor: string | null = null;
  do {
    const params = new URLSearchParams(query);
    params.set("limit", "100");
    if (cursor) params.set("cursor", cursor);
    const res = await call(`/v1/users?${params}`);
    expect(res.status, res.text).toBe(200);
    out.push(...res.json.users);
    cursor = res.json.next_cursor;
  } while (cursor);
  return out;
}
