import { fromBase64, toBase64 } from "./base64";
import { ApiError } from "./errors";

/**
 * Sealing: what the service must be able to use again — webhook signing secrets, the LTI tool's
 * private keys, platforms' access tokens — cannot be kept as a hash, so it is encrypted with
 * AES-256-GCM under a Worker secret (base64 of 32 bytes), with the id of what it belongs to as
 * additional data: a sealed value copied to another row does not open. D1 or KV alone, or a backup
 * of them, reveals none of it.
 *
 * Each kind of value names the secret that seals it. LTI's own key, LTI_SEALING_KEY, is optional:
 * without it LTI seals under WEBHOOK_SECRET_KEY, as every deployment did before the key had a
 * name of its own, and a value sealed under WEBHOOK_SECRET_KEY still opens once LTI_SEALING_KEY is
 * set (each named key is tried in turn; AES-GCM tells a wrong key by its tag), so setting it breaks
 * nothing already sealed (docs/deploying.md).
 */
const SEALED_VERSION = "v1";

/** What is sealed, the secrets that seal it (the first one set seals; each opens), and the 503 without any. */
const SEALS = {
  webhookSecrets: {
    keys: ["WEBHOOK_SECRET_KEY"],
    notConfigured: () =>
      new ApiError("webhooks_not_configured", "Webhooks are not configured on this deployment (WEBHOOK_SECRET_KEY)."),
  },
  ltiKeys: {
    keys: ["LTI_SEALING_KEY", "WEBHOOK_SECRET_KEY"],
    notConfigured: () =>
      new ApiError(
        "lti_not_configured",
        "LTI is not configured on this deployment: LTI_SEALING_KEY (or WEBHOOK_SECRET_KEY) seals the tool's private key.",
      ),
  },
} as const;

/** What a sealed value is: webhook signing secrets, or LTI's private keys and platform tokens. */
export type SealedKind = keyof typeof SEALS;

/**
 * The secrets sealing reads. LTI_SEALING_KEY is a Worker secret that wrangler.toml does not name
 * (it is optional, and local development runs on WEBHOOK_SECRET_KEY), so wrangler types cannot
 * know it.
 */
export type SealingEnv = Partial<Env> & { LTI_SEALING_KEY?: string };

const imported = new Map<string, Promise<CryptoKey>>();

/** The AES-256 key of one secret's material; not base64 of 32 bytes → the kind's 503. */
function aesKey(material: string, kind: SealedKind): Promise<CryptoKey> {
  let key = imported.get(material);
  if (!key) {
    let bytes: Uint8Array;
    try {
      bytes = fromBase64(material.trim());
    } catch {
      throw SEALS[kind].notConfigured();
    }
    if (bytes.byteLength !== 32) throw SEALS[kind].notConfigured();
    key = crypto.subtle.importKey("raw", bytes, "AES-GCM", false, ["encrypt", "decrypt"]);
    imported.set(material, key);
  }
  return key;
}

/** The kind's keys that are set, in order; none → the kind's 503. */
function keysOf(env: SealingEnv, kind: SealedKind): Promise<CryptoKey>[] {
  const set = SEALS[kind].keys.map((name) => env[name]).filter((material): material is string => !!material);
  if (set.length === 0) throw SEALS[kind].notConfigured();
  return set.map((material) => aesKey(material, kind));
}

/** `plain` sealed under the kind's first key that is set, bound to `boundTo`: `v1.<iv>.<ciphertext>`. */
export async function seal(env: SealingEnv, kind: SealedKind, boundTo: string, plain: string): Promise<string> {
  const [key] = keysOf(env, kind);
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv, additionalData: new TextEncoder().encode(boundTo) },
    await (key as Promise<CryptoKey>),
    new TextEncoder().encode(plain),
  );
  return `${SEALED_VERSION}.${toBase64(iv)}.${toBase64(new Uint8Array(sealed))}`;
}

/** A value seal made, opened with whichever of the kind's keys sealed it; throws when none does. */
export async function unseal(env: SealingEnv, kind: SealedKind, boundTo: string, sealed: string): Promise<string> {
  const [version, iv, data] = sealed.split(".");
  if (version !== SEALED_VERSION || !iv || !data) throw new Error(`sealed value of ${boundTo} is malformed`);
  const keys = keysOf(env, kind);
  let failure: unknown;
  for (const key of keys) {
    try {
      const plain = await crypto.subtle.decrypt(
        { name: "AES-GCM", iv: fromBase64(iv), additionalData: new TextEncoder().encode(boundTo) },
        await key,
        fromBase64(data),
      );
      return new TextDecoder().decode(plain);
    } catch (error) {
      if (error instanceof ApiError) throw error;
      failure = error;
    }
  }
  throw failure;
}
