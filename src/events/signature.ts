import { fromBase64, toBase64 } from "../lib/base64";

/**
 * Standard Webhooks signing (standardwebhooks.com): a secret is `whsec_` + base64 of random bytes;
 * a signature is `v1,` + base64 of HMAC-SHA256 over `{id}.{timestamp}.{body}`, keyed by the
 * secret's decoded bytes; several signatures are separated by spaces (both secrets sign during a
 * rotation's grace). A receiver using the `standardwebhooks` library verifies it as it stands.
 */
const SECRET_PREFIX = "whsec_";
/** 32 random bytes: the specification asks for 24 to 64. */
const SECRET_BYTES = 32;

const encoder = new TextEncoder();

/** A fresh signing secret, shown once to whoever made the endpoint. */
export function newSigningSecret(): string {
  return `${SECRET_PREFIX}${toBase64(crypto.getRandomValues(new Uint8Array(SECRET_BYTES)))}`;
}

async function sign(secret: string, content: string): Promise<string> {
  const key = await crypto.subtle.importKey(
    "raw",
    fromBase64(secret.slice(SECRET_PREFIX.length)),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const mac = await crypto.subtle.sign("HMAC", key, encoder.encode(content));
  return `v1,${toBase64(new Uint8Array(mac))}`;
}

/** The `webhook-signature` header value: one `v1,…` per live secret, space-separated. */
export async function signatureHeader(secrets: string[], id: string, timestamp: number, body: string): Promise<string> {
  const content = `${id}.${timestamp}.${body}`;
  return (await Promise.all(secrets.map((secret) => sign(secret, content)))).join(" ");
}
