import { ApiError } from "../../lib/errors";

/**
 * Why a tool page (/lti/*) refuses: its status, the check it names and a sentence for the person
 * who sees it. The routes render it as an HTML page; nothing was written before it was thrown.
 */
export class ToolRefusal extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 413 | 415,
    readonly check: string,
    readonly detail: string,
    /** The platform the refusal is about, when known: its frame origins may frame the page. */
    readonly platformId?: string,
  ) {
    super(`${check}: ${detail}`);
  }
}

/** A launch check of §15 (verify.ts, launches.ts: an ApiError invalid_launch) as a tool refusal; anything else as it is. */
export function asToolRefusal(error: unknown, platformId?: string): unknown {
  if (error instanceof ApiError && error.code === "invalid_launch") {
    const check = String(error.options.members?.check ?? "invalid_launch");
    return new ToolRefusal(401, check, error.message, platformId);
  }
  return error;
}
