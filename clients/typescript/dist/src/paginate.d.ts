import type { Client } from "openapi-fetch";
import type { paths } from "../../schema.js";
type JsonBody<R> = R extends {
    content: {
        "application/json": infer B;
    };
} ? B : never;
type OkBody<Op> = Op extends {
    responses: {
        200: infer R;
    };
} ? JsonBody<R> : never;
type GetOf<P extends keyof paths> = paths[P] extends {
    get: infer Op;
} ? Op : never;
/**
 * The paths whose GET answers a page: `/v1/quizzes`, `/v1/quizzes/{id}/submissions`, … — not
 * those without a JSON body (a results export is a stream: read it with `parseAs: "stream"`).
 */
export type ListPath = {
    [P in keyof paths]: [OkBody<GetOf<P>>] extends [never] ? never : OkBody<GetOf<P>> extends {
        next_cursor: string | null;
    } ? P : never;
}[keyof paths];
/** A page of the list at P, as the API sends it. */
export type ListPage<P extends ListPath> = OkBody<GetOf<P>>;
type ItemsKey<B> = {
    [K in keyof B]: K extends "next_cursor" ? never : B[K] extends readonly unknown[] ? K : never;
}[keyof B];
/** One item of the list at P: `ListItem<"/v1/quizzes">` is `components["schemas"]["Quiz"]`. */
export type ListItem<P extends ListPath> = ListPage<P>[ItemsKey<ListPage<P>>] extends readonly (infer I)[] ? I : never;
type GetParams<P extends ListPath> = GetOf<P> extends {
    parameters: infer X;
} ? X : never;
type PathParams<P extends ListPath> = GetParams<P> extends {
    path: infer X;
} ? {
    path: X;
} : {
    path?: undefined;
};
type QueryParams<P extends ListPath> = GetParams<P> extends {
    query?: infer Q;
} ? Omit<NonNullable<Q>, "cursor"> : never;
export interface PaginateOptions<P extends ListPath> {
    /** The path's parameters (required where the path has some) and the query's, but the cursor. */
    params: PathParams<P> & {
        query?: QueryParams<P>;
    };
    /** Ends the iteration (the request under way rejects). */
    signal?: AbortSignal;
    /** Extra headers for every page's request. */
    headers?: Record<string, string>;
}
/** The options may be left out where the path has no parameters. */
export type PaginateArgs<P extends ListPath> = GetParams<P> extends {
    path: object;
} ? [options: PaginateOptions<P>] : [options?: Partial<PaginateOptions<P>>];
/**
 * Every item of the list at `path`, in the API's order, fetching page after page as the loop asks
 * for them (`limit` sets the page size). A page that fails throws a QuizApiError; the client's
 * retries (429, 503) happen before that.
 *
 *     for await (const quiz of paginate(api, "/v1/quizzes", { params: { query: { limit: 100 } } })) …
 */
export declare function paginate<P extends ListPath>(client: Client<paths>, path: P, ...[options]: PaginateArgs<P>): AsyncGenerator<ListItem<P>, void, undefined>;
export {};
