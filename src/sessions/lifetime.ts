import { z } from "@hono/zod-openapi";

/** A session's lifetime bounds (§17): at least a minute, at most a working day; two hours unless asked. */
const MIN_SESSION_SECONDS = 60;
const MAX_SESSION_SECONDS = 8 * 60 * 60;
const DEFAULT_SESSION_SECONDS = 2 * 60 * 60;

export const expiresInSchema = z
  .number()
  .int()
  .min(MIN_SESSION_SECONDS)
  .max(MAX_SESSION_SECONDS)
  .default(DEFAULT_SESSION_SECONDS)
  .openapi({ description: "Seconds the token lives: 60 to 28 800; 7 200 when left out.", example: 3600 });

/** Where a page reads a session's token: the fragment, which no server, log or Referer sees. */
export const sessionLink = (origin: string, page: "play" | "reports", token: string) => `${origin}/${page}/#session=${token}`;
