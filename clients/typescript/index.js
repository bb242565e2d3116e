import createClient from "openapi-fetch";
/** The header that carries D1's bookmark both ways (read-your-writes across read replicas). */
const BOOKMARK = "X-D1-Bookmark";
/**
 * A client that sends `Authorization: Bearer <apiKey | accessToken>` with every request, and
 * echoes the latest `X-D1-Bookmark` it has received, so that each call reads every write the
 * client made or saw before it, whichever replica answers (a header you pass yourself wins).
 */
export function createQuizClient(options) {
    const credential = options.apiKey ?? options.accessToken;
    if (typeof credential !== "string" || credential === "")
        throw new TypeError("createQuizClient: apiKey or accessToken is required");
    const client = createClient({
        baseUrl: options.baseUrl.replace(/\/+$/, ""),
        ...(options.fetch ? { fetch: options.fetch } : {}),
        headers: { ...options.headers, Authorization: `Bearer ${credential}` },
    });
    let bookmark;
    client.use({
        onRequest({ request }) {
            if (bookmark !== undefined && !request.headers.has(BOOKMARK))
                request.headers.set(BOOKMARK, bookmark);
            return request;
        },
        onResponse({ response }) {
            // Bookmarks sort in the order of the writes they cover: keep the latest.
            const received = response.headers.get(BOOKMARK);
            if (received && (bookmark === undefined || received > bookmark))
                bookmark = received;
            return response;
        },
    });
    return client;
}
