import fc from "fast-check";
import type { Operation, Plan } from "./operations";
import { absentId, Literal, Ref } from "./refs";
import { flatten } from "./schema-arbitrary";

/**
 * Near misses: a valid request (see operations.ts) with one thing wrong. Each mutation names
 * itself in the plan, and says which statuses the contract requires where it is that precise
 * (a body over 1 MiB → 413, another media type → 415, a path id of the wrong shape → 404, …).
 */
type Path = (string | number)[];
type Mutation = (plan: Plan, op: Operation, doc: any) => fc.Arbitrary<Plan> | undefined;

const MAX_BODY_BYTES = 1024 * 1024;
const MAX_OAUTH_BODY_BYTES = 16 * 1024;

/** Strings that break naive text handling: lone surrogates (sent as \uXXXX escapes), NUL, bidi controls, emoji, NFKC variants, … */
const UNICODE_EDGES = [
  "\ud800",
  "\udfff",
  "a\ud83dz",
  "\udc00\ud800",
  "\u0000",
  "a\u0000b",
  "\u200f",
  "\u202eevil",
  "\u2066x\u2069",
  "\ufeff",
  "\u200b",
  "\u200d",
  "👩‍👩‍👧‍👦",
  "🏳️‍🌈",
  "😀",
  "𝕏",
  "ﬁ",
  "Ａｄａ",
  "①",
  "㎏",
  "e\u0301",
  "\u212b",
  "ｶ",
  "z\u0337\u0322\u031b\u032d\u031e\u0353\u034d\u0333\u0319\u032e\u0324a\u0338l\u0336g\u0337o",
  "\uffff",
  "\ufffe",
  "\ufffd",
  "\u00a0",
  "\u2028",
  "\u2029",
  "\u3000",
  " \t\n ",
  "\u0007\u001b[31m",
  "<script>alert(1)</script>",
  "' OR '1'='1' --",
  "${7*7}{{7*7}}",
  "%00",
  "../../etc/passwd",
  "\\u0000",
];

const WRONG_TYPE_VALUES: unknown[] = [0, -1, 1.5, 1e21, true, false, null, "", "1", "true", [], {}, ["a"], { a: 1 }, [[]]];
const jsonType = (v: unknown) => (v === null ? "null" : Array.isArray(v) ? "array" : v instanceof Ref ? "ref" : typeof v);

// ---------------------------------------------------------------------------------------------
// Walking and editing bodies (Refs and Literals are leaves).

function nodes(value: unknown, path: Path = [], out: { path: Path; value: unknown }[] = []) {
  out.push({ path, value });
  if (value instanceof Ref || value instanceof Literal) return out;
  if (Array.isArray(value)) value.forEach((v, i) => nodes(v, [...path, i], out));
  else if (value && typeof value === "object") for (const [k, v] of Object.entries(value)) nodes(v, [...path, k], out);
  return out;
}

function clone(value: unknown): unknown {
  if (value instanceof Ref || value instanceof Literal) return value;
  if (Array.isArray(value)) return value.map(clone);
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value))
      Object.defineProperty(out, k, { value: clone(v), enumerable: true, writable: true, configurable: true });
    return out;
  }
  return value;
}

function setAt(root: unknown, path: Path, replacement: unknown): unknown {
  if (path.length === 0) return replacement;
  const copy = clone(root) as any;
  let node = copy;
  for (const part of path.slice(0, -1)) node = node[part];
  // defineProperty, so that a key such as __proto__ becomes a real property that JSON.stringify writes.
  Object.defineProperty(node, path.at(-1)!, { value: replacement, enumerable: true, writable: true, configurable: true });
  return copy;
}

function deleteAt(root: unknown, path: Path): unknown {
  const copy = clone(root) as any;
  let node = copy;
  for (const part of path.slice(0, -1)) node = node[part];
  if (Array.isArray(node)) node.splice(path.at(-1) as number, 1);
  else delete node[path.at(-1)!];
  return copy;
}

const withoutIdempotency = (plan: Plan): Plan => ({
  ...plan,
  headers: plan.headers.filter(([h]) => h.toLowerCase() !== "idempotency-key"),
});
const isJsonBody = (plan: Plan) => plan.body?.encoding.kind === "json";
/** A /v1 route reached with the admin key: the body guard (413/415) and validation (400/404) decide. */
const guarded = (plan: Plan, op: Operation) => op.v1 && plan.auth === "admin";

function mutateBodyNode(
  name: string,
  filter: (n: { path: Path; value: unknown }) => boolean,
  replacement: (value: unknown) => fc.Arbitrary<unknown>,
  expect?: (plan: Plan, op: Operation, path: Path) => number[] | undefined,
): Mutation {
  return (plan, op) => {
    if (!plan.body || plan.body.encoding.kind === "raw") return undefined;
    const candidates = nodes(plan.body.value).filter(filter);
    if (candidates.length === 0) return undefined;
    return fc
      .constantFrom(...candidates)
      .chain((n) => replacement(n.value).map((r) => ({ n, r })))
      .map(({ n, r }) => {
        const base = withoutIdempotency(plan);
        return {
          ...base,
          mutation: name,
          body: { ...plan.body!, value: setAt(plan.body!.value, n.path, r) },
          expect: expect?.(base, op, n.path),
        };
      });
  };
}

// ---------------------------------------------------------------------------------------------
// Body mutations.

const wrongType = mutateBodyNode(
  "body:wrong-type",
  (n) => n.path.length > 0,
  (v) => fc.constantFrom(...WRONG_TYPE_VALUES.filter((w) => jsonType(w) !== jsonType(v))),
);

const nullify = mutateBodyNode(
  "body:null",
  () => true,
  () => fc.constant(null),
);

const unicode = mutateBodyNode(
  "body:unicode",
  (n) => typeof n.value === "string" || n.value instanceof Ref,
  (v) =>
    fc.oneof(
      fc.constantFrom(...UNICODE_EDGES),
      fc.array(fc.constantFrom(...UNICODE_EDGES), { minLength: 2, maxLength: 6 }).map((a) => a.join("")),
      fc.constantFrom(...UNICODE_EDGES).map((u) => (typeof v === "string" ? `${v}${u}` : u)),
      fc.constantFrom(...UNICODE_EDGES).map((u) => (typeof v === "string" ? `${u}${v}` : u)),
    ),
);

const numberLiterals = mutateBodyNode(
  "body:number-edge",
  (n) => typeof n.value === "number" || typeof n.value === "boolean" || n.value === null,
  () =>
    fc.constantFrom(
      new Literal("1e999"),
      new Literal("-1e999"),
      new Literal("-0"),
      new Literal("1e-400"),
      new Literal("123456789012345678901234567890"),
      new Literal("9007199254740993"),
      new Literal("0.30000000000000004"),
      new Literal("1E2"),
      new Literal("NaN"),
      new Literal("Infinity"),
      new Literal("0x10"),
      new Literal("01"),
      new Literal("+1"),
      new Literal(".5"),
    ),
);

/** Strings of 100 kB to 1.2 MB: either side of the 1 MiB limit, counted in bytes (é is two). */
const HUGE = [
  { char: "x", length: 100_000 },
  { char: "x", length: 1_000_000 },
  { char: "x", length: MAX_BODY_BYTES + 1 },
  { char: "x", length: 1_153_434 },
  { char: "é", length: 400_000 },
  { char: "é", length: 600_000 },
];

const hugeString: Mutation = (plan, op) => {
  if (!plan.body || plan.body.encoding.kind === "raw") return undefined;
  const strings = nodes(plan.body.value).filter(
    (n) => typeof n.value === "string" || (n.path.length > 0 && n.value instanceof Ref),
  );
  const targets = strings.length > 0 ? strings : nodes(plan.body.value).slice(0, 1);
  const limit = op.v1 ? MAX_BODY_BYTES : MAX_OAUTH_BODY_BYTES;
  return fc.record({ n: fc.constantFrom(...targets), huge: fc.constantFrom(...HUGE) }).map(({ n, huge }) => {
    const base = withoutIdempotency(plan);
    const bytes = huge.length * new TextEncoder().encode(huge.char).length;
    const over = bytes > limit;
    const reachesGuard = guarded(base, op) || (!op.v1 && op.path.startsWith("/oauth/"));
    return {
      ...base,
      mutation: `body:huge-${huge.char === "x" ? "ascii" : "2byte"}-${Math.round(bytes / 1024)}KiB`,
      body: { ...plan.body!, value: setAt(plan.body!.value, n.path, huge.char.repeat(huge.length)) },
      expect: over && reachesGuard ? [413] : undefined,
    };
  });
};

const deepNesting = mutateBodyNode(
  "body:deep-nesting",
  () => true,
  () =>
    fc
      .record({ depth: fc.constantFrom(64, 1000, 10_000, 100_000), shape: fc.constantFrom("array", "object") })
      .map(({ depth, shape }) =>
        shape === "array"
          ? new Literal(`${"[".repeat(depth)}1${"]".repeat(depth)}`, `[…×${depth}]`)
          : new Literal(`${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`, `{"a":…×${depth}}`),
      ),
);

const dropField: Mutation = (plan, op, doc) => {
  if (!plan.body || !isJsonBody(plan)) return undefined;
  const fields = nodes(plan.body.value).filter((n) => n.path.length > 0);
  if (fields.length === 0) return undefined;
  const rootRequired: string[] = op.body ? (flatten(doc, op.body.schema).required ?? []) : [];
  return fc.constantFrom(...fields).map((n) => {
    const base = withoutIdempotency(plan);
    const requiredAtRoot = n.path.length === 1 && rootRequired.includes(String(n.path[0]));
    return {
      ...base,
      mutation: requiredAtRoot ? "body:missing-required" : "body:missing-field",
      body: { ...plan.body!, value: deleteAt(plan.body!.value, n.path) },
      expect: requiredAtRoot && guarded(base, op) ? [400] : undefined,
    };
  });
};

const EXTRA_KEYS = [
  "extra",
  "__proto__",
  "constructor",
  "prototype",
  "Title",
  "title ",
  "id",
  "created_at",
  "",
  "a".repeat(300),
  "\u0000",
  "é",
];

const extraField: Mutation = (plan, op, doc) => {
  if (!plan.body || !isJsonBody(plan)) return undefined;
  const objects = nodes(plan.body.value).filter(
    (n) =>
      n.value !== null &&
      typeof n.value === "object" &&
      !Array.isArray(n.value) &&
      !(n.value instanceof Ref) &&
      !(n.value instanceof Literal),
  );
  if (objects.length === 0) return undefined;
  const strictRoot = op.body ? flatten(doc, op.body.schema).additionalProperties === false : false;
  return fc
    .record({
      n: fc.constantFrom(...objects),
      key: fc.constantFrom(...EXTRA_KEYS),
      value: fc.constantFrom<unknown>(1, "x", null, {}, [], true),
    })
    .map(({ n, key, value }) => {
      const base = withoutIdempotency(plan);
      const current = n.value as Record<string, unknown>;
      const unknownAtRoot =
        n.path.length === 0 &&
        strictRoot &&
        !Object.hasOwn(current, key) &&
        !(key in (flatten(doc, op.body!.schema).properties ?? {}));
      return {
        ...base,
        mutation: "body:extra-field",
        body: { ...plan.body!, value: setAt(plan.body!.value, [...n.path, key], value) },
        expect: unknownAtRoot && guarded(base, op) ? [400] : undefined,
      };
    });
};

/** Bodies that are not JSON, or JSON of the wrong shape. */
const RAW_BODIES = [
  "",
  " ",
  "null",
  "[]",
  "0",
  '"text"',
  "true",
  "{",
  "}",
  "{'a':1}",
  '{"a":NaN}',
  '{"a":1,}',
  "[1,2",
  "\u0000",
  "{}",
  "{}{}",
  '{"a":1}\u0000',
  "<xml/>",
  "a=1&b=2",
];

const rawBody: Mutation = (plan, op) => {
  if (!op.body) return undefined;
  return fc.constantFrom(...RAW_BODIES).map((text) => ({
    ...withoutIdempotency(plan),
    mutation: "body:not-json",
    body: {
      value: undefined,
      encoding: { kind: "raw" as const, text, label: JSON.stringify(text) },
      contentType: op.v1
        ? "application/json"
        : plan.body?.encoding.kind === "form"
          ? "application/x-www-form-urlencoded"
          : "application/json",
    },
  }));
};

const malformedJson: Mutation = (plan) => {
  if (!plan.body || !isJsonBody(plan)) return undefined;
  return fc
    .oneof(
      fc.double({ min: 0.05, max: 0.95, noNaN: true }).map((fraction) => ({ type: "truncate" as const, fraction })),
      fc.constantFrom("\ufeff", " \n\t", "\u0000", "//c\n").map((text) => ({ type: "prefix" as const, text })),
      fc.constantFrom("}", ",", " \n", "\u0000", "//c", "garbage", "{}").map((text) => ({ type: "suffix" as const, text })),
      fc.constant({ type: "duplicate-key" as const }),
      fc.constant({ type: "invalid-utf8" as const }),
    )
    .map((post) => ({
      ...withoutIdempotency(plan),
      mutation: `body:json-${post.type}`,
      body: { ...plan.body!, encoding: { kind: "json" as const, post } },
    }));
};

const missingBody: Mutation = (plan, op) => {
  if (!op.body) return undefined;
  return fc.constantFrom<string | null>("application/json", null).map((contentType) => ({
    ...withoutIdempotency(plan),
    mutation: "body:absent",
    body: undefined,
    headers: contentType
      ? [...withoutIdempotency(plan).headers, ["Content-Type", contentType] as [string, unknown]]
      : withoutIdempotency(plan).headers,
  }));
};

// ---------------------------------------------------------------------------------------------
// Media types.

const NOT_JSON_TYPES = [
  "text/plain",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=x",
  "application/xml",
  "application/jsonx",
  "application/json-patch+json",
  "application/vnd.api+json",
  "application/json; charset=latin1",
  "application/json; charset=utf-16",
  "application/json, text/plain",
  "*/*",
  "json",
  null,
];
const ODD_JSON_TYPES = [
  "application/json;charset=UTF-8",
  "APPLICATION/JSON",
  'application/json ; charset="utf-8"',
  "application/json; charset=utf-8; foo=bar",
  "application/json;",
  "Application/Json; Charset=Utf-8",
  "application/json;charset=utf-8 ",
];

const wrongContentType: Mutation = (plan, op) => {
  if (!plan.body || !op.v1) return undefined;
  return fc.constantFrom(...NOT_JSON_TYPES).map((contentType) => {
    const base = withoutIdempotency(plan);
    return {
      ...base,
      mutation: "content-type:not-json",
      body: { ...plan.body!, contentType },
      // An upload operation takes some of these types (text/plain for a GIFT or Aiken file); a
      // string body sent without the header goes as text/plain (the Fetch standard's default).
      expect:
        guarded(base, op) && !op.body?.contentTypes.includes((contentType ?? "text/plain").split(";")[0] ?? "")
          ? [415]
          : undefined,
    };
  });
};

const oddContentType: Mutation = (plan) => {
  if (!plan.body) return undefined;
  return fc
    .constantFrom(
      ...ODD_JSON_TYPES,
      "text/plain",
      "application/x-www-form-urlencoded; charset=utf-8",
      "application/x-www-form-urlencoded; charset=iso-8859-1",
    )
    .map((contentType) => ({
      ...withoutIdempotency(plan),
      mutation: "content-type:odd",
      body: { ...plan.body!, contentType },
    }));
};

const duplicateContentType: Mutation = (plan, op) => {
  if (!plan.body || !isJsonBody(plan)) return undefined;
  const base = withoutIdempotency(plan);
  return fc.constant({
    ...base,
    mutation: "content-type:twice",
    headers: [...base.headers, ["Content-Type", "application/json"], ["Content-Type", "application/json"]] as [string, unknown][],
    body: { ...plan.body, contentType: null },
    expect: op.v1 && guarded(base, op) ? [415] : undefined,
  });
};

// ---------------------------------------------------------------------------------------------
// Path and query.

const BAD_IDS = [
  "0",
  "-1",
  "x",
  "null",
  "undefined",
  "%5Bobject%20Object%5D",
  "'%20OR%201%3D1%20--",
  "%00",
  "%2F",
  "a%2Fb",
  "%F0%9F%98%80",
  "%E2%80%AE",
  "%ED%A0%80",
  "%E0%A4%A",
  "%",
  "a".repeat(5000),
];

const badPathId: Mutation = (plan, op) => {
  // Only parameters of a documented shape (the API's ids, an enum): a free-form one such as an
  // LMS's resource link id has no near miss, and any string in it is a valid name.
  const shaped = new Set(
    op.params
      .filter((p) => p.in === "path" && (p.schema.pattern !== undefined || p.schema.enum !== undefined))
      .map((p) => p.name),
  );
  const names = Object.keys(plan.pathParams).filter((name) => shaped.has(name));
  if (names.length === 0) return undefined;
  const shapes = fc.oneof(
    fc.constantFrom(...BAD_IDS),
    // Right shape, wrong kind; upper case; one character short or long; a first character past 7 (overflow); letters Crockford leaves out.
    fc
      .record({
        prefix: fc.constantFrom("quiz", "qst", "user", "sub", "key", "cli", "QUIZ", "quiz-", ""),
        p: fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        edit: fc.constantFrom("none", "upper", "short", "long", "overflow", "letters"),
      })
      .map(({ prefix, p, edit }) => {
        const id = absentId(prefix || "quiz", p);
        const body = id.slice(id.indexOf("_") + 1);
        switch (edit) {
          case "upper":
            return id.toUpperCase();
          case "short":
            return id.slice(0, -1);
          case "long":
            return `${id}0`;
          case "overflow":
            return `${prefix}_8${body.slice(1)}`;
          case "letters":
            return `${prefix}_${body.slice(0, 20)}iloux0`;
          default:
            return prefix ? id : body;
        }
      }),
  );
  return fc.record({ name: fc.constantFrom(...names), id: shapes }).map(({ name, id }) => {
    const base = withoutIdempotency(plan);
    const own = String(plan.pathParams[name] instanceof Ref ? "" : plan.pathParams[name]);
    // A well-formed id of the right kind is not a near miss of the shape: it may exist.
    const sameShape = own !== "" && id === own;
    return {
      ...base,
      mutation: "path:bad-id",
      rawPathParams: true,
      pathParams: Object.fromEntries(Object.entries(plan.pathParams).map(([k, v]) => [k, k === name ? id : v])),
      expect: sameShape || !guarded(base, op) ? undefined : [404, 405],
    };
  });
};

const pathVariant: Mutation = (plan) =>
  fc
    .constantFrom("trailing-slash", "double-slash", "upper-case", "matrix", "encoded-slash", "dot-segment")
    .map((variant) => ({ ...withoutIdempotency(plan), mutation: `path:${variant}`, path: variantPath(plan.path, variant) }));

function variantPath(path: string, variant: string): string {
  switch (variant) {
    case "trailing-slash":
      return `${path}/`;
    case "double-slash":
      return path.replace("/", "//");
    case "upper-case":
      return path.toUpperCase().replace(/\{[A-Z_]+\}/g, (m) => m.toLowerCase());
    case "matrix":
      return `${path};jsessionid=1`;
    case "encoded-slash":
      return path.replace(/(.)\/([a-z-]+)$/, "$1%2F$2");
    default:
      return `${path}/../${path.split("/").filter(Boolean).at(-1)}`;
  }
}

const BAD_LIMITS = ["0", "101", "-1", "1.5", "abc", "", "１０", "100000000000000000000", "NaN", "Infinity", "5;", "%00"];
/** Within 1–100 once read as a JavaScript number, which is how the service reads them: no verdict. */
const ODD_LIMITS = ["1e2", " 5", "+5", "0x10", "0b11", "05", "5.0"];
const BAD_CURSORS = [
  "!!!",
  "abc",
  "eyJ2IjoyfQ",
  "eyJ2IjoxLCJhZnRlciI6InVzZXJfMDAwIn0",
  "eyJ2IjoxLCJhZnRlciI6LTF9",
  "e30",
  "bnVsbA",
  "a".repeat(1000),
  "%00",
  "e30=",
];
/** A well-formed cursor of the quiz list: valid there, refused by the others (no verdict here). */
const FOREIGN_CURSOR = "eyJ2IjoxLCJhZnRlciI6InF1aXpfMDFrYW16M2Y3YzluMHA4czZlNXZ3eDJ5NHIifQ";

const badQuery: Mutation = (plan, op) => {
  const declared = op.params.filter((p) => p.in === "query").map((p) => p.name);
  const options: fc.Arbitrary<{ name: string; query: [string, unknown][]; strict: boolean }>[] = [
    fc.constantFrom("unknown", "LIMIT", "limit[]", "__proto__").map((k) => ({
      name: "query:unknown-param",
      query: [...plan.query, [k, "1"] as [string, unknown]],
      strict: declared.length > 0,
    })),
  ];
  if (declared.includes("limit"))
    options.push(
      fc.constantFrom(...BAD_LIMITS).map((v) => ({
        name: "query:bad-limit",
        query: [...plan.query.filter(([k]) => k !== "limit"), ["limit", v] as [string, unknown]],
        strict: true,
      })),
    );
  if (declared.includes("limit"))
    options.push(
      fc.constantFrom(...ODD_LIMITS).map((v) => ({
        name: "query:odd-limit",
        query: [...plan.query.filter(([k]) => k !== "limit"), ["limit", v] as [string, unknown]],
        strict: false,
      })),
    );
  if (declared.includes("limit"))
    options.push(
      fc.constant({
        name: "query:limit-twice",
        query: [...plan.query.filter(([k]) => k !== "limit"), ["limit", "5"], ["limit", "6"]] as [string, unknown][],
        strict: false,
      }),
    );
  if (declared.includes("cursor"))
    options.push(
      fc.constantFrom(...BAD_CURSORS).map((v) => ({
        name: "query:bad-cursor",
        query: [...plan.query.filter(([k]) => k !== "cursor"), ["cursor", v] as [string, unknown]],
        strict: true,
      })),
    );
  if (declared.includes("cursor"))
    options.push(
      fc.constant({
        name: "query:foreign-cursor",
        query: [...plan.query.filter(([k]) => k !== "cursor"), ["cursor", FOREIGN_CURSOR]] as [string, unknown][],
        strict: false,
      }),
    );
  for (const p of op.params.filter((p) => p.in === "query" && p.name !== "limit" && p.name !== "cursor"))
    options.push(
      fc.constantFrom("ADMIN", "", "x".repeat(300), "%FF", "student,admin").map((v) => ({
        name: `query:bad-${p.name}`,
        query: [...plan.query.filter(([k]) => k !== p.name), [p.name, v] as [string, unknown]],
        strict: false,
      })),
    );
  return fc.oneof(...options).map(({ name, query, strict }) => {
    const base = withoutIdempotency(plan);
    return { ...base, mutation: name, query, expect: strict && guarded(base, op) && !hasPathRef(plan) ? [400] : undefined };
  });
};

/** Path ids that are references may name deleted resources (404 before or after the query is read). */
const hasPathRef = (plan: Plan) => Object.values(plan.pathParams).some((v) => v instanceof Ref);

// ---------------------------------------------------------------------------------------------
// Credentials and other headers.

/** A credential mutation: only where a credential is looked at (not an open operation's). */
const credentialed =
  (m: Mutation): Mutation =>
  (plan, op, doc) =>
    op.v1 && !op.open ? m(plan, op, doc) : undefined;

const noCredential = credentialed((plan) =>
  fc.constant({ ...withoutIdempotency(plan), mutation: "auth:none", auth: "none" as const, expect: [401] }),
);

/** `Authorization` twice: the values arrive joined by a comma, which is no Bearer token. */
const twoAuthorizations = credentialed((plan) =>
  fc.constantFrom("same", "other").map((which) => ({
    ...withoutIdempotency(plan),
    mutation: `auth:authorization-twice-${which}`,
    auth: "none" as const,
    headers: [
      ...withoutIdempotency(plan).headers,
      ["Authorization", "@bearer:admin"],
      ["Authorization", which === "same" ? "@bearer:admin" : "@bearer:low"],
    ] as [string, unknown][],
    expect: [401],
  })),
);

const conflictingCredentials = credentialed((plan) =>
  fc.constantFrom("other", "same").map((which) => ({
    ...withoutIdempotency(plan),
    mutation: `auth:x-api-key-${which}`,
    headers: [...withoutIdempotency(plan).headers, ["X-API-Key", which === "same" ? "@key:admin" : "@key:low"]] as [
      string,
      unknown,
    ][],
    expect: which === "other" ? [400] : undefined,
  })),
);

const GARBAGE_AUTH = [
  "Basic Zm9vOmJhcg==",
  "Bearer",
  "Bearer ",
  "Bearer qz_live_00000000000000000000000000000000000000",
  "Bearer qz_at_0000000000000000000000000000000000000000000",
  "Bearer qz_rt_0000000000000000000000000000000000000000000",
  "Token abc",
  `Bearer ${"a".repeat(8000)}`,
  "Bearer \u00e9\u00ff",
  "Bearer a b",
  "Bearer =abc",
  "@bearer:expired",
  "@bearer:revoked",
];

const garbageCredential = credentialed((plan) =>
  fc.constantFrom(...GARBAGE_AUTH, "@bearer-lower:admin", "@bearer:low", "@bearer:access-token").map((value) => ({
    ...withoutIdempotency(plan),
    mutation: value.startsWith("@bearer:low")
      ? "auth:low-scope"
      : value.startsWith("@bearer:access")
        ? "auth:access-token"
        : value.startsWith("@bearer-lower")
          ? "auth:lower-case-scheme"
          : "auth:garbage",
    auth: "none" as const,
    headers: [...withoutIdempotency(plan).headers, ["Authorization", value]] as [string, unknown][],
    expect: GARBAGE_AUTH.includes(value) ? [401] : undefined,
  })),
);

const BAD_IDEMPOTENCY_KEYS = ["", " ", "a".repeat(256), "key with space", "\u00e9t\u00e9", "\t", "a\u007f"];

const badIdempotencyKey: Mutation = (plan, op) => {
  if (!op.v1 || op.method !== "POST") return undefined;
  return fc.constantFrom(...BAD_IDEMPOTENCY_KEYS).map((key) => {
    const base = withoutIdempotency(plan);
    // An empty or blank value may be dropped on the way; the others must be refused.
    return {
      ...base,
      mutation: "idempotency:bad-key",
      headers: [...base.headers, ["Idempotency-Key", key] as [string, unknown]],
      expect: key.trim() === "" ? undefined : [400],
    };
  });
};

/** One key for every request of the run: replays, or 409 idempotency_key_reused. */
const reusedIdempotencyKey: Mutation = (plan, op) => {
  if (!op.v1 || op.method !== "POST") return undefined;
  return fc.constant({
    ...withoutIdempotency(plan),
    mutation: "idempotency:reused-key",
    headers: [...withoutIdempotency(plan).headers, ["Idempotency-Key", "fuzz-reused-key"] as [string, unknown]],
  });
};

/** The same request twice with one fresh key: the second answer replays the first. */
const replayedRequest: Mutation = (plan, op) => {
  if (!op.v1 || op.method !== "POST") return undefined;
  return fc.uuid().map((u) => ({
    ...withoutIdempotency(plan),
    mutation: "idempotency:replay",
    repeat: true,
    headers: [...withoutIdempotency(plan).headers, ["Idempotency-Key", `fz-replay-${u}`] as [string, unknown]],
  }));
};

const REQUEST_IDS = ["sane-id_1=", "a b", "x".repeat(300), "\u00e9", "<script>", "a,b", "abc\t"];

const requestId: Mutation = (plan) =>
  fc.constantFrom(...REQUEST_IDS).map((id) => ({
    ...plan,
    mutation: "header:x-request-id",
    headers: [...plan.headers, ["X-Request-Id", id] as [string, unknown]],
  }));

const otherHeaders: Mutation = (plan) =>
  fc
    .constantFrom<[string, string]>(
      ["Accept", "application/xml"],
      ["Accept-Encoding", "br;q=2, *;q=-1"],
      ["Content-Encoding", "gzip"],
      ["Transfer-Encoding", "chunked"],
      ["Origin", "https://evil.example"],
      ["CF-Connecting-IP", "not-an-ip"],
      ["X-Forwarded-For", "1.1.1.1, 2.2.2.2"],
      ["Expect", "100-continue"],
      ["Range", "bytes=0-1"],
      ["Cookie", "a=b"],
    )
    .map((h) => ({
      ...withoutIdempotency(plan),
      mutation: `header:${h[0].toLowerCase()}`,
      headers: [...withoutIdempotency(plan).headers, h],
    }));

// ---------------------------------------------------------------------------------------------
// Methods.

// workerd refuses to build a Request with a method outside its list (FOO), so no made-up ones.
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD", "PROPFIND"];

function wrongMethodFor(allowed: string[]): Mutation {
  return (plan, op) => {
    const wrong = METHODS.filter((m) => !allowed.includes(m) && !(m === "HEAD" && allowed.includes("GET")));
    if (wrong.length === 0) return undefined;
    return fc.constantFrom(...wrong).map((method) => {
      const base = withoutIdempotency(plan);
      const bodyless = method === "GET" || method === "HEAD";
      return {
        ...base,
        method,
        mutation: `method:${method}`,
        body: bodyless ? undefined : base.body,
        expect: op.v1 ? (base.auth === "admin" ? [405] : undefined) : [405],
      };
    });
  };
}

const MUTATIONS: Record<string, { mutation: Mutation; weight: number }> = {
  wrongType: { mutation: wrongType, weight: 4 },
  nullify: { mutation: nullify, weight: 1 },
  unicode: { mutation: unicode, weight: 4 },
  numberLiterals: { mutation: numberLiterals, weight: 2 },
  hugeString: { mutation: hugeString, weight: 1 },
  deepNesting: { mutation: deepNesting, weight: 1 },
  dropField: { mutation: dropField, weight: 3 },
  extraField: { mutation: extraField, weight: 3 },
  rawBody: { mutation: rawBody, weight: 2 },
  malformedJson: { mutation: malformedJson, weight: 2 },
  missingBody: { mutation: missingBody, weight: 1 },
  wrongContentType: { mutation: wrongContentType, weight: 2 },
  oddContentType: { mutation: oddContentType, weight: 1 },
  duplicateContentType: { mutation: duplicateContentType, weight: 1 },
  badPathId: { mutation: badPathId, weight: 3 },
  pathVariant: { mutation: pathVariant, weight: 1 },
  badQuery: { mutation: badQuery, weight: 2 },
  noCredential: { mutation: noCredential, weight: 1 },
  twoAuthorizations: { mutation: twoAuthorizations, weight: 1 },
  conflictingCredentials: { mutation: conflictingCredentials, weight: 1 },
  garbageCredential: { mutation: garbageCredential, weight: 2 },
  badIdempotencyKey: { mutation: badIdempotencyKey, weight: 1 },
  reusedIdempotencyKey: { mutation: reusedIdempotencyKey, weight: 1 },
  replayedRequest: { mutation: replayedRequest, weight: 1 },
  requestId: { mutation: requestId, weight: 1 },
  otherHeaders: { mutation: otherHeaders, weight: 1 },
};

/** Every near miss that applies to this valid plan, weighted. */
export function nearMisses(plan: Plan, op: Operation, doc: any, allowedMethods: string[]): fc.Arbitrary<Plan> {
  const applicable: { arbitrary: fc.Arbitrary<Plan>; weight: number }[] = [];
  for (const { mutation, weight } of Object.values(MUTATIONS)) {
    const arbitrary = mutation(plan, op, doc);
    if (arbitrary) applicable.push({ arbitrary, weight });
  }
  const wrongMethod = wrongMethodFor(allowedMethods)(plan, op, doc);
  if (wrongMethod) applicable.push({ arbitrary: wrongMethod, weight: 2 });
  return fc.oneof(...applicable);
}
