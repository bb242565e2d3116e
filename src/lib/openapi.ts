import { createRoute, OpenAPIHono, type RouteConfig, type RouteHandler, z } from "@hono/zod-openapi";
import type { AppEnv } from "../env";
import { encodeCursor } from "./pagination";
import { PROBLEM_CODES, problemExample } from "./problems";
import { validationHook } from "./validation";

/** A router whose validation failures all become problem bodies (400, or 404 for a malformed path id). */
export function createRouter() {
  return new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
}

/** Query parameters of an operation that takes none: any parameter is unknown (400). */
const NO_QUERY = z.strictObject({});

/**
 * `createRoute` with strict query parameters everywhere: an operation that declares no query
 * schema refuses every query parameter, as one that declares one refuses those it does not name.
 */
export function defineRoute<P extends string, R extends Omit<RouteConfig, "path"> & { path: P }>(config: R) {
  return createRoute({ ...config, request: { query: NO_QUERY, ...config.request } } as R);
}

export type AppRouteHandler<R extends RouteConfig> = RouteHandler<R, AppEnv>;

const ProblemSchema = z
  .object({
    type: z
      .string()
      .openapi({ description: "/problems/<code>: a page that explains the code.", example: "/problems/validation_failed" }),
    title: z.string().openapi({ description: "The reason phrase of the status.", example: "Bad Request" }),
    status: z.number().int().openapi({ example: 400 }),
    detail: z.string().openapi({ example: "title: Too big: expected string to have <=200 characters" }),
    code: z.enum(PROBLEM_CODES).openapi({ description: "Stable; the error catalogue at /problems/<code>." }),
    request_id: z.string(),
    errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  })
  .openapi("Problem", { example: problemExample("validation_failed") });

const ERROR_DESCRIPTIONS = {
  400: "Invalid input: malformed JSON, a missing, unknown or invalid field, or a bad cursor; also X-API-Key and Authorization carrying different credentials.",
  401: "Missing, invalid or expired credentials.",
  403: "The credential lacks the scope this operation needs.",
  404: "No such resource (also for ids of the wrong shape).",
  409: "The request conflicts with the resource's state.",
  413: "The body is larger than 1 MiB.",
  415: "The body is not application/json.",
  429: "Rate limited; retry after Retry-After seconds.",
  503: "The deployment lacks configuration this operation needs; the problem's code names it.",
} as const;
type ErrorStatus = keyof typeof ERROR_DESCRIPTIONS;

const problemResponse = (description: string) => ({
  description,
  content: { "application/problem+json": { schema: ProblemSchema } },
});

/** The error responses an operation documents, each a problem body. */
export function errorResponses<S extends ErrorStatus>(...statuses: S[]) {
  return Object.fromEntries(statuses.map((s) => [s, problemResponse(ERROR_DESCRIPTIONS[s])])) as {
    [K in S]: ReturnType<typeof problemResponse>;
  };
}

/** Errors every `/v1` operation may answer, whatever it does. */
export const COMMON_ERRORS = [401, 403, 429] as const;
/** Errors of an operation that reads a JSON body. */
export const BODY_ERRORS = [400, 413, 415] as const;

export function jsonBody<T extends z.ZodType>(schema: T, description?: string) {
  return {
    body: { required: true, description, content: { "application/json": { schema } } },
  };
}

/**
 * A JSON answer. `example`, when given, is this operation's own (the media type's): for an answer
 * that differs from the schema's example, such as a create's or a change's, which agree with the
 * operation's request example.
 */
export function jsonResponse<T extends z.ZodType>(schema: T, description: string, example?: z.output<T>) {
  return { description, content: { "application/json": { schema, ...(example === undefined ? {} : { example }) } } };
}

/**
 * A list page's example as the API answers it: the items under the list's name, and the cursor
 * of the page after the last of them (its sort key: an id, or a question's position), or null.
 */
export function pageExample<K extends string, T>(name: K, items: T[], after: string | number | null) {
  return { [name]: items, next_cursor: after === null ? null : encodeCursor(after) } as { [P in K]: T[] } & {
    next_cursor: string | null;
  };
}
