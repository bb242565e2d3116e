import type { z } from "@hono/zod-openapi";
import { ApiError, type FieldError, validationFailed } from "./errors";

/** Turns zod issues into the problem body's `errors`; unknown fields are named one by one. */
export function fieldErrors(error: z.ZodError, prefix = ""): FieldError[] {
  const out: FieldError[] = [];
  for (const issue of error.issues) {
    const base = joinPath(prefix, issue.path);
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) out.push({ path: joinPath(base, [key]), message: `Unknown field "${key}".` });
    } else {
      out.push({ path: base, message: issue.message });
    }
  }
  return out;
}

function joinPath(prefix: string, path: readonly PropertyKey[]): string {
  let out = prefix;
  for (const part of path) {
    out += typeof part === "number" ? `[${part}]` : out ? `.${String(part)}` : String(part);
  }
  return out;
}

/**
 * The validation hook of every route. A path parameter of the wrong shape is a resource that
 * cannot exist, so it answers 404 (never a database error); any other invalid input is a 400
 * that names each field.
 */
export function validationHook(result: { success: boolean; target: string; error?: z.ZodError }): void {
  if (result.success || !result.error) return;
  if (result.target === "param") throw new ApiError("not_found", "No resource has that id.");
  // joinPath adds the dot: a "query." prefix would give "query..limit".
  const prefix = result.target === "query" ? "query" : result.target === "header" ? "header" : "";
  throw validationFailed(fieldErrors(result.error, prefix));
}
