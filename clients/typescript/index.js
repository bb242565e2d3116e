import createClient from "openapi-fetch";
/** A client that sends `Authorization: Bearer <apiKey | accessToken>` with every request. */
export function createQuizClient(options) {
    const credential = options.apiKey ?? options.accessToken;
    if (typeof credential !== "string" || credential === "")
        throw new TypeError("createQuizClient: apiKey or accessToken is required");
    return createClient({
        baseUrl: options.baseUrl.replace(/\/+$/, ""),
        ...(options.fetch ? { fetch: options.fetch } : {}),
        headers: { ...options.headers, Authorization: `Bearer ${credential}` },
    });
}
