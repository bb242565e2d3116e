import type { components } from "../schema.js";

/** RFC 9457 problem details, as every non-2xx answer outside /oauth/* carries them. */
export type Problem = components["schemas"]["Problem"];

/** A non-2xx answer, with the API's problem details (RFC 9457) when the body held them. */
export class QuizApiError extends Error {
  override readonly name = "QuizApiError";
  readonly status: number;
  /** The problem details: `code` is stable (`not_found`, `rate_limited`, …). */
  readonly problem: Problem | undefined;
  constructor(
    readonly response: Response,
    body: unknown,
  ) {
    const problem = isProblem(body) ? body : undefined;
    super(`${response.status} ${problem ? `${problem.code}: ${problem.detail}` : response.statusText}`);
    this.status = response.status;
    this.problem = problem;
  }
}

const isProblem = (body: unknown): body is Problem =>
  typeof body === "object" && body !== null && typeof (body as { code?: unknown }).code === "string";
