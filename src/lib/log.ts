import type { Context } from "hono";
import type { AppEnv } from "../env";
import { config, LOG_LEVELS, type LogLevel } from "./config";

/**
 * The one log writer: one JSON object per line, `{ level, message, ...fields }`, for `wrangler
 * dev` and Workers Logs. Info goes to stdout (console.log), warnings and errors to stderr
 * (console.error). Never put a header, a body, a key or a token in the fields.
 */
type Fields = Record<string, unknown>;

export interface Logger {
  info(message: string, fields?: Fields): void;
  warn(message: string, fields?: Fields): void;
  error(message: string, fields?: Fields): void;
}

function write(level: LogLevel, message: string, fields: Fields): void {
  const line = JSON.stringify({ level, message, ...fields });
  if (level === "info") console.log(line);
  else console.error(line);
}

function atLevel(threshold: LogLevel): Logger {
  const rank = LOG_LEVELS.indexOf(threshold);
  const writer =
    (level: LogLevel) =>
    (message: string, fields: Fields = {}) => {
      if (LOG_LEVELS.indexOf(level) >= rank) write(level, message, fields);
    };
  return { info: writer("info"), warn: writer("warn"), error: writer("error") };
}

const LOGGERS = Object.fromEntries(LOG_LEVELS.map((level) => [level, atLevel(level)])) as Record<LogLevel, Logger>;

/** The logger at `env`'s LOG_LEVEL: lines below it are dropped. */
export const logger = (env?: Partial<Env>): Logger => LOGGERS[config(env).logLevel];

/**
 * For work that runs without the request's env at hand (the usage flush, the rate limiter's
 * counter writes): the default level, which keeps every line.
 */
export const log: Logger = logger();

/**
 * Logs an error no handler expected, with the request id the caller was given, so that a 500
 * can be traced. Never the request's headers or body: they may carry credentials.
 */
export function logUnexpectedError(c: Context<AppEnv>, err: unknown): void {
  logger(c.env).error("unexpected error", {
    request_id: c.get("requestId"),
    method: c.req.method,
    path: new URL(c.req.url).pathname,
    // Drizzle's messages end with the query's bound values (names, e-mails, hashes): cut them.
    error: (err instanceof Error ? `${err.name}: ${err.message}` : String(err)).split("\nparams:")[0],
    stack: err instanceof Error ? err.stack : undefined,
  });
}
