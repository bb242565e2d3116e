import { describe, expect, it } from "vitest";
import { toBase64 } from "../../src/lib/base64";
import { ApiError } from "../../src/lib/errors";
import { seal, unseal } from "../../src/lib/sealing";

/** src/lib/sealing.ts: each kind sealed under the secret named for it, LTI's with its fallback (docs/deploying.md). */
const key = () => toBase64(crypto.getRandomValues(new Uint8Array(32)));
const code = async (work: Promise<unknown>) => {
  try {
    await work;
  } catch (error) {
    return error instanceof ApiError ? error.code : `not an ApiError: ${String(error)}`;
  }
  return "no error";
};

describe("sealing", () => {
  it("opens what it sealed, bound to its id: another id does not open it", async () => {
    const env = { WEBHOOK_SECRET_KEY: key() };
    const sealed = await seal(env, "webhookSecrets", "whe_1", "whsec_secret");
    expect(sealed).toMatch(/^v1\.[A-Za-z0-9+/=]+\.[A-Za-z0-9+/=]+$/);
    expect(sealed).not.toContain("whsec_secret");
    expect(await unseal(env, "webhookSecrets", "whe_1", sealed)).toBe("whsec_secret");
    await expect(unseal(env, "webhookSecrets", "whe_2", sealed)).rejects.toThrow();
  });

  it("seals LTI's keys under WEBHOOK_SECRET_KEY while LTI_SEALING_KEY is unset", async () => {
    const webhooks = key();
    const sealed = await seal({ WEBHOOK_SECRET_KEY: webhooks }, "ltiKeys", "ltk_1", "jwk");
    expect(await unseal({ WEBHOOK_SECRET_KEY: webhooks }, "webhookSecrets", "ltk_1", sealed)).toBe("jwk");
  });

  it("seals LTI's keys under LTI_SEALING_KEY once it is set, and still opens those sealed under WEBHOOK_SECRET_KEY before", async () => {
    const webhooks = key();
    const before = await seal({ WEBHOOK_SECRET_KEY: webhooks }, "ltiKeys", "ltk_1", "older");
    const env = { WEBHOOK_SECRET_KEY: webhooks, LTI_SEALING_KEY: key() };
    const after = await seal(env, "ltiKeys", "ltk_2", "newer");
    expect(await unseal(env, "ltiKeys", "ltk_1", before)).toBe("older");
    expect(await unseal(env, "ltiKeys", "ltk_2", after)).toBe("newer");
    // Not under WEBHOOK_SECRET_KEY: the webhooks' key alone does not open it.
    await expect(unseal({ WEBHOOK_SECRET_KEY: webhooks }, "ltiKeys", "ltk_2", after)).rejects.toThrow();
    // LTI_SEALING_KEY alone is enough for LTI.
    expect(await unseal({ LTI_SEALING_KEY: env.LTI_SEALING_KEY }, "ltiKeys", "ltk_2", after)).toBe("newer");
  });

  it("answers the kind's 503 without its key, or with one that is not base64 of 32 bytes", async () => {
    expect(await code(seal({}, "ltiKeys", "ltk_1", "x"))).toBe("lti_not_configured");
    expect(await code(seal({}, "webhookSecrets", "whe_1", "x"))).toBe("webhooks_not_configured");
    // LTI's key seals nothing of the webhooks'.
    expect(await code(seal({ LTI_SEALING_KEY: key() }, "webhookSecrets", "whe_1", "x"))).toBe("webhooks_not_configured");
    expect(await code(seal({ LTI_SEALING_KEY: "c2hvcnQ=" }, "ltiKeys", "ltk_1", "x"))).toBe("lti_not_configured");
    expect(await code(seal({ WEBHOOK_SECRET_KEY: "not base64!" }, "webhookSecrets", "whe_1", "x"))).toBe(
      "webhooks_not_configured",
    );
  });
});
