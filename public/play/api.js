// Calls to this origin's API with the learner session's token (qz_lt_…). The token arrives in the
// URL's fragment (#session=…), which browsers never send to a server; it is moved at once into
// this tab's sessionStorage and taken out of the address bar, so it is in no URL the server sees,
// no history entry, no Referer (the page and every request say no-referrer) and never in
// localStorage. It travels only in the Authorization header of requests to this origin's /v1/.
import { tabStore } from "./tab-store.js";

const SESSION_KEY = "quiz-player:session";

/** The session's token: a new one from the fragment replaces the tab's; null when there is none. */
export function takeSessionToken() {
  const fragment = new URLSearchParams(window.location.hash.slice(1));
  const fromUrl = fragment.get("session");
  if (fragment.has("session")) {
    fragment.delete("session");
    const rest = fragment.toString();
    window.history.replaceState(null, "", `${window.location.pathname}${window.location.search}${rest ? `#${rest}` : ""}`);
  }
  if (fromUrl) tabStore.setItem(SESSION_KEY, fromUrl);
  return tabStore.getItem(SESSION_KEY);
}

let token = null;
export const useToken = (value) => {
  token = value;
};

/** A non-2xx answer: its status and, when it sent one, its problem body (RFC 9457). */
export class ApiError extends Error {
  constructor(status, problem, retryAfterSeconds = null) {
    super(problem?.detail ?? problem?.title ?? `HTTP ${status}`);
    this.status = status;
    this.code = problem?.code ?? null;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** No answer at all: offline, or the connection failed. */
export class NetworkError extends Error {}

/**
 * The server's clock, as the Date headers of its answers tell it: the offset (ms) from this
 * device's clock, so that a wrong device clock moves neither the timer nor the answers' order.
 * Date has whole seconds; the offset is taken at the request's midpoint and smoothed over answers.
 */
let clockOffsetMs = 0;
let clockSamples = 0;
export const serverNow = () => Date.now() + clockOffsetMs;

function learnClock(response, sentAt) {
  const date = Date.parse(response.headers.get("date") ?? "");
  if (Number.isNaN(date)) return;
  const receivedAt = Date.now();
  // The header truncates to the second: the server's time was within [date, date + 1000).
  const sample = date + 500 - (sentAt + receivedAt) / 2;
  clockSamples = Math.min(clockSamples + 1, 5);
  clockOffsetMs += (sample - clockOffsetMs) / clockSamples;
}

function apiUrl(path) {
  const url = new URL(path, window.location.origin);
  if (url.origin !== window.location.origin || !url.pathname.startsWith("/v1/")) throw new Error(`not an API path: ${path}`);
  return url;
}

/**
 * One call: answers the parsed JSON body (null for none). Throws ApiError on a non-2xx answer and
 * NetworkError when there was no answer. keepalive: the request outlives the page (pagehide).
 */
export async function call(method, path, { body, keepalive = false } = {}) {
  if (!token) throw new ApiError(401, { code: "unauthorized", detail: "No session." });
  const headers = { Authorization: `Bearer ${token}`, Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const sentAt = Date.now();
  let response;
  try {
    response = await fetch(apiUrl(path), {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: "omit",
      cache: "no-store",
      redirect: "error",
      referrerPolicy: "no-referrer",
      keepalive,
    });
  } catch (error) {
    throw new NetworkError(String(error));
  }
  learnClock(response, sentAt);
  const text = await response.text().catch(() => "");
  let json = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    // Not JSON (a proxy's error page, say): the status alone tells it.
  }
  if (!response.ok) {
    const retryAfter = Number(response.headers.get("retry-after"));
    throw new ApiError(response.status, json, Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null);
  }
  return json;
}

export const get = (path) => call("GET", path);
