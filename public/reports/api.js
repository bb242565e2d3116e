// Calls to this origin's API with the signed-in credential. The credential lives in this tab's
// sessionStorage (gone when the tab closes, never shared with other tabs) and is sent in the
// Authorization header of requests to this origin's /v1/ paths only: every URL is built here from
// a path, and a redirect is refused rather than followed.
const STORAGE_KEY = "quiz-reports:credential";

// Where the browser refuses sessionStorage (a third-party frame with storage blocked, as an LMS
// frames the report after an instructor's launch), the credential is kept in this page's memory
// instead: signed in until the page is left.
let inMemory = null;
const tabStorage = () => {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
};
const attempt = (use, fallback) => {
  const storage = tabStorage();
  if (storage)
    try {
      return use(storage);
    } catch {
      // Refused on use rather than on access: fall through to memory.
    }
  return fallback();
};

export const credential = {
  get: () =>
    attempt(
      (s) => s.getItem(STORAGE_KEY) ?? inMemory,
      () => inMemory,
    ),
  set: (value) => {
    inMemory = value;
    attempt(
      (s) => s.setItem(STORAGE_KEY, value),
      () => undefined,
    );
  },
  clear: () => {
    inMemory = null;
    attempt(
      (s) => s.removeItem(STORAGE_KEY),
      () => undefined,
    );
  },
};

/** A non-2xx answer: its status and, when it sent one, its problem body (RFC 9457). */
export class ApiError extends Error {
  constructor(status, problem) {
    super(problem?.detail ?? problem?.title ?? `HTTP ${status}`);
    this.status = status;
    this.code = problem?.code ?? null;
  }
}

function sameOriginApiUrl(path) {
  const url = new URL(path, window.location.origin);
  if (url.origin !== window.location.origin || !url.pathname.startsWith("/v1/")) throw new Error(`not an API path: ${path}`);
  return url;
}

/** GET path (under /v1/) with the credential; throws ApiError on a non-2xx answer. */
export async function request(path, { accept = "application/json", token = credential.get() } = {}) {
  if (!token) throw new ApiError(401, { code: "unauthorized", detail: "Not signed in." });
  const response = await fetch(sameOriginApiUrl(path), {
    headers: { Authorization: `Bearer ${token}`, Accept: accept },
    credentials: "omit",
    cache: "no-store",
    redirect: "error",
    referrerPolicy: "no-referrer",
  });
  if (!response.ok) {
    let problem = null;
    try {
      problem = await response.json();
    } catch {
      // Not a problem body (a proxy's error page, say): the status alone tells it.
    }
    throw new ApiError(response.status, problem);
  }
  return response;
}

export async function getJson(path, options) {
  return (await request(path, options)).json();
}

/** One page of a list: `{ items, next }`, next being the path of the following page or null. */
export async function page(path, listName) {
  const body = await getJson(path);
  const next = body.next_cursor ? withQuery(path, { cursor: body.next_cursor }) : null;
  return { items: body[listName] ?? [], next };
}

/** Every item of a list, following next_cursor to the last page. */
export async function all(path, listName) {
  const items = [];
  let next = path;
  while (next) {
    const result = await page(next, listName);
    items.push(...result.items);
    next = result.next;
  }
  return items;
}

export function withQuery(path, params) {
  const url = new URL(path, window.location.origin);
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  return `${url.pathname}${url.search}`;
}

/** The file name of a Content-Disposition header, if it names a plain one. */
function dispositionName(header) {
  const match = /filename="?([^";]+)"?/i.exec(header ?? "");
  const name = match?.[1]?.trim();
  return name && /^[\w.-]+$/.test(name) ? name : null;
}

/**
 * Downloads an export: a plain link cannot carry the Authorization header, so the file is fetched
 * with it and handed to the browser as a Blob URL, revoked once the download has started.
 */
export async function download(path, fallbackName) {
  const response = await request(path, { accept: "*/*" });
  const blob = await response.blob();
  const name = dispositionName(response.headers.get("content-disposition")) ?? fallbackName;
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
  return { name, bytes: blob.size };
}
