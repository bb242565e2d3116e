import fc from "fast-check";
import { Ref } from "./refs";
import { deref, flatten, ref, type Schema, type SchemaArbitraries } from "./schema-arbitrary";

/** One operation of the OpenAPI document. */
/** A question bank an upload operation accepts (Aiken: one single-choice question). */
const AIKEN_FILE = "Which planet is largest?\nA. Mars\nB. Jupiter\nANSWER: B\n";

export interface Operation {
  /** `POST /v1/quizzes/{id}/questions` */
  key: string;
  method: string;
  path: string;
  params: { name: string; in: "path" | "query" | "header"; required: boolean; schema: Schema }[];
  body?: { schema: Schema; contentTypes: string[]; required: boolean };
  /** Status → the media types its body may have (empty: no body). */
  responses: Record<string, { contentTypes: string[]; schemas: Record<string, Schema> }>;
  /** Client-authenticated OAuth endpoint (HTTP Basic or client_secret_post). */
  oauthClientAuth: boolean;
  /** Served under /v1: needs a credential, carries rate-limit headers, answers problem details. */
  v1: boolean;
  /** A /v1 operation open to anyone (its security is `[]`: an asset's bytes): no credential needed, none looked at. */
  open: boolean;
}

/** How a body is put on the wire. */
type Encoding = { kind: "json"; post?: JsonPost } | { kind: "form" } | { kind: "raw"; text: string; label: string };

type JsonPost =
  | { type: "truncate"; fraction: number }
  | { type: "prefix" | "suffix"; text: string }
  | { type: "duplicate-key" }
  | { type: "invalid-utf8" };

/** A request before the ids of real resources are filled in (see refs.ts). */
export interface Plan {
  op: string;
  /** "valid", or the name of the mutation that made it a near miss. */
  mutation: string;
  method: string;
  /** The path template (`/v1/quizzes/{id}`); `{name}` is filled from pathParams. */
  path: string;
  pathParams: Record<string, unknown>;
  /** Raw (already encoded) path segments: the value goes into the URL as is. */
  rawPathParams?: boolean;
  query: [string, unknown][];
  headers: [string, unknown][];
  /** admin: the run's admin key as Authorization: Bearer (not on /oauth/*); none: only `headers`. */
  auth: "admin" | "none";
  body?: { value: unknown; encoding: Encoding; contentType?: string | null };
  /** Statuses this near miss must get, when the contract says exactly which. */
  expect?: number[];
  /** Sent a second time, unchanged: the second answer must replay the first (Idempotency-Key). */
  repeat?: boolean;
}

const METHODS = ["get", "put", "post", "patch", "delete"] as const;

export function readOperations(doc: any): Operation[] {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries<any>(doc.paths ?? {})) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const params = [...(item.parameters ?? []), ...(op.parameters ?? [])].map((p: Schema) => deref(doc, p));
      const content = op.requestBody ? (deref(doc, op.requestBody).content ?? {}) : undefined;
      const bodyTypes = content ? Object.keys(content) : [];
      const responses: Operation["responses"] = {};
      for (const [status, r] of Object.entries<any>(op.responses ?? {})) {
        const resolved = deref(doc, r);
        const types = Object.keys(resolved.content ?? {});
        responses[status] = {
          contentTypes: types,
          schemas: Object.fromEntries(types.map((t) => [t, resolved.content[t].schema ?? {}])),
        };
      }
      const security: Record<string, unknown>[] = op.security ?? doc.security ?? [];
      out.push({
        key: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        path,
        params: params.map((p) => ({ name: p.name, in: p.in, required: !!p.required, schema: p.schema ?? {} })),
        body:
          content && bodyTypes.length > 0
            ? {
                schema: content[bodyTypes.includes("application/json") ? "application/json" : bodyTypes[0]!].schema ?? {},
                contentTypes: bodyTypes,
                required: !!deref(doc, op.requestBody).required,
              }
            : undefined,
        responses,
        oauthClientAuth: path.startsWith("/oauth/") && security.some((s) => Object.keys(s).some((k) => /basic/i.test(k))),
        v1: path.startsWith("/v1/"),
        open: path.startsWith("/v1/") && Array.isArray(op.security) && op.security.length === 0,
      });
    }
  }
  return out;
}

/** Every request body schema of the document (for the property index of schema-arbitrary). */
export const requestSchemas = (ops: Operation[]) => ops.flatMap((o) => (o.body ? [o.body.schema] : []));

/** A valid idempotency key: visible ASCII, unique per request (a repeat would be a replay or a 409). */
const idempotencyKey = fc.uuid().map((u) => `fz-${u}`);

export class PlanFactory {
  constructor(
    readonly doc: any,
    readonly gen: SchemaArbitraries,
  ) {}

  /** Requests the document says are valid, with ids of real resources. */
  valid(op: Operation): fc.Arbitrary<Plan> {
    const pathParams: Record<string, fc.Arbitrary<unknown>> = {};
    for (const p of op.params.filter((p) => p.in === "path")) {
      const s = flatten(this.doc, p.schema);
      const prefixed = this.gen.of(s, p.name);
      // DELETE takes resources the run made itself, so the seeded ones stay for other operations.
      pathParams[p.name] =
        op.method === "DELETE" ? prefixed.map((v) => (v instanceof Ref ? new Ref(v.kind, v.pick, true) : v)) : prefixed;
    }
    const query = op.params
      .filter((p) => p.in === "query")
      .map((p) => {
        const value = p.name === "cursor" ? ref("cursor") : this.gen.of(p.schema, p.name);
        return (p.required ? value : fc.option(value, { freq: 2 })).map((v) => [p.name, v] as [string, unknown]);
      });
    const needsIdempotencyKey = op.v1 && op.method === "POST";
    return fc
      .record({
        pathParams: fc.record(pathParams),
        query: fc.tuple(...query),
        idem: needsIdempotencyKey ? fc.option(idempotencyKey, { freq: 3 }) : fc.constant(null),
        body: op.body ? this.gen.of(op.body.schema) : fc.constant(undefined),
        clientAuth: fc.constantFrom("basic", "post"),
        basic: ref("basicAuth"),
        clientId: ref("oauthClient"),
        secret: ref("clientSecret"),
      })
      .map(({ pathParams, query, idem, body, clientAuth, basic, clientId, secret }): Plan => {
        const headers: [string, unknown][] = [];
        if (idem !== null) headers.push(["Idempotency-Key", idem]);
        let value = body;
        if (op.oauthClientAuth) {
          // Client authentication one way or the other (RFC 6749 §2.3.1), never both.
          const params = { ...(body as Record<string, unknown>) };
          delete params.client_id;
          delete params.client_secret;
          if (params.grant_type === "client_credentials") delete params.refresh_token;
          if (clientAuth === "basic") headers.push(["Authorization", basic]);
          else Object.assign(params, { client_id: clientId, client_secret: secret });
          value = params;
        }
        const form = op.body?.contentTypes.includes("application/x-www-form-urlencoded") ?? false;
        const formPreferred = form && clientAuth === "basic";
        // A file upload (POST /v1/imports): the body is a file of a type the operation takes, not JSON.
        const upload = op.body && !form && !op.body.contentTypes.includes("application/json");
        return {
          op: op.key,
          mutation: "valid",
          method: op.method,
          path: op.path,
          pathParams,
          query: query.filter(([, v]) => v !== null && v !== undefined),
          headers,
          auth: op.v1 ? "admin" : "none",
          body: upload
            ? { value: undefined, encoding: { kind: "raw", text: AIKEN_FILE, label: "an Aiken file" }, contentType: "text/plain" }
            : op.body && value !== undefined
              ? { value, encoding: form || formPreferred ? { kind: "form" } : { kind: "json" } }
              : undefined,
        };
      });
  }
}
