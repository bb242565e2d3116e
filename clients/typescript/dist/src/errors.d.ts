import type { components } from "../../schema.js";
/** RFC 9457 problem details, as every non-2xx answer outside /oauth/* carries them. */
export type Problem = components["schemas"]["Problem"];
/** A non-2xx answer, with the API's problem details (RFC 9457) when the body held them. */
export declare class QuizApiError extends Error {
    readonly response: Response;
    readonly name = "QuizApiError";
    readonly status: number;
    /** The problem details: `code` is stable (`not_found`, `rate_limited`, …). */
    readonly problem: Problem | undefined;
    constructor(response: Response, body: unknown);
}
