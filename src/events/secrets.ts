import { legacyId } from "../lib/ids";
import { seal, unseal } from "../lib/sealing";

/**
 * Webhook signing secrets must be usable (the worker signs with them), so unlike keys and client
 * secrets they cannot be kept as hashes: they are sealed (src/lib/sealing.ts) under
 * WEBHOOK_SECRET_KEY, bound to the endpoint's id.
 */
export const sealSecret = (env: Partial<Env>, endpointId: string, secret: string): Promise<string> =>
  seal(env, "webhookSecrets", endpointId, secret);

export async function openSecret(env: Partial<Env>, endpointId: string, sealed: string): Promise<string> {
  try {
    return await unseal(env, "webhookSecrets", endpointId, sealed);
  } catch (error) {
    // Sealed before migration 0007 renamed the endpoint (we_… to whe_…, the same ULID): bound to the old id.
    const legacy = legacyId("webhookEndpoint", endpointId);
    if (legacy === undefined) throw error;
    return unseal(env, "webhookSecrets", legacy, sealed);
  }
}
