import { ApiError } from "../lib/errors";
import { legacyId } from "../lib/ids";
import { fromBase64, toBase64 } from "./signature";

/**
 * Webhook signing secrets must be usable (the worker signs with them), so unlike keys and client
 * secrets they cannot be kept as hashes: they are sealed with AES-GCM under WEBHOOK_SECRET_KEY (a
 * Worker secret, base64 of 32 bytes), with the endpoint's id as additional data, so a sealed
 * secret copied to another row does not open. D1 alone, or a backup of it, reveals no secret.
 */
const SEALED_VERSION = "v1";

const keys = new Map<string, Promise<CryptoKey>>();

const notConfigured = () =>
  new ApiError("webhooks_not_configured", "Webhooks are not configured on this deployment (WEBHOOK_SECRET_KEY).");

/** The AES-256 key of WEBHOOK_SECRET_KEY; missing or not base64 of 32 bytes → 503. */
function sealingKey(env: Partial<Env>): Promise<CryptoKey> {
  const material = env.WEBHOOK_SECRET_KEY;
  if (!material) throw notConfigured();
  let key = keys.get(material);
  if (!key) {
    let bytes: Uint8Array;
    try {
      bytes = fromBase64(material.trim());
    } catch {
      throw notConfigured();
    }
    if (bytes.byteLength !== 32) throw notConfigured();
    key = crypto.subtle.importKey("raw", bytes, "AES-GCM", false, ["encrypt", "decrypt"]);
    keys.set(material, key);
  }
  return key;
}

export async function sealSecret(env: Partial<Env>, endpointId: string, secret: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv, additionalData: new TextEncoder().encode(endpointId) },
    await sealingKey(env),
    new TextEncoder().encode(secret),
  );
  return `${SEALED_VERSION}.${toBase64(iv)}.${toBase64(new Uint8Array(sealed))}`;
}

export async function openSecret(env: Partial<Env>, endpointId: string, sealed: string): Promise<string> {
  try {
    return await open(env, endpointId, sealed);
  } catch (error) {
    // Sealed before migration 0007 renamed the endpoint (we_… to whe_…, the same ULID): bound to the old id.
    const legacy = legacyId("webhookEndpoint", endpointId);
    if (legacy === undefined) throw error;
    return open(env, legacy, sealed);
  }
}

async function open(env: Partial<Env>, endpointId: string, sealed: string): Promise<string> {
  const [version, iv, data] = sealed.split(".");
  if (version !== SEALED_VERSION || !iv || !data) throw new Error(`sealed secret of endpoint ${endpointId} is malformed`);
  const plain = await crypto.subtle.decrypt(
    { name: "AES-GCM", iv: fromBase64(iv), additionalData: new TextEncoder().encode(endpointId) },
    await sealingKey(env),
    fromBase64(data),
  );
  return new TextDecoder().decode(plain);
}
