import fc from "fast-check";
import { SCOPES } from "../../src/lib/scopes";
import { idKindOfPattern, Ref } from "./refs";

/**
 * JSON Schema → fast-check arbitrary of *valid* values, for the subset the service's OpenAPI 3.1
 * document uses: objects (properties, required, additionalProperties), strings (min/maxLength,
 * pattern, enum, format date-time/email/uri), numbers and integers with bounds, booleans, arrays
 * (min/maxItems, uniqueItems), oneOf/anyOf (with or without a discriminator), allOf, type lists
 * such as ["integer", "null"], OpenAPI 3.0's nullable, const, and $ref into components.
 *
 * "Valid" means valid for the schema; the service also checks what a schema cannot say (the
 * correct option must be one of the options, a question must belong to the quiz). A few hints
 * help generated requests get past those checks often enough to reach the code behind them:
 * ids become references to real resources, option ids are mostly a, b, c, and a schema-less
 * property borrows the schema of a property of the same name elsewhere in the request bodies.
 */
export type Schema = Record<string, any>;

export interface GenOptions {
  /** Longest string generated for an unbounded (or very long) string; boundary cases aside. */
  maxStringLength?: number;
  /** Most items generated for an array, whatever its maxItems. */
  maxArrayItems?: number;
}

const MAX_DEPTH = 8;
const INT32 = { min: -(2 ** 31), max: 2 ** 31 - 1 };

const pick = fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true });
export const ref = (kind: Ref["kind"], disposable = false) => pick.map((p) => new Ref(kind, p, disposable));

/** Resolves `$ref`s (local pointers only) against the document. */
export function deref(doc: any, schema: Schema | undefined): Schema {
  let s = schema ?? {};
  for (let hops = 0; typeof s.$ref === "string" && hops < 20; hops++) {
    let target: any = doc;
    for (const part of s.$ref.replace(/^#\//, "").split("/")) target = target?.[part.replace(/~1/g, "/").replace(/~0/g, "~")];
    if (target === undefined) throw new Error(`unresolved $ref ${s.$ref}`);
    s = target;
  }
  return s;
}

/** allOf merged into one object schema (what the document's allOf are: extensions of objects). */
function mergeAllOf(doc: any, schema: Schema): Schema {
  const parts = (schema.allOf as Schema[]).map((p) => flatten(doc, p));
  const { allOf: _, ...rest } = schema;
  return parts.reduce<Schema>(
    (acc, p) => ({
      ...acc,
      ...p,
      properties: { ...acc.properties, ...p.properties },
      required: [...new Set([...(acc.required ?? []), ...(p.required ?? [])])],
    }),
    { ...rest, properties: { ...rest.properties }, required: [...(rest.required ?? [])] },
  );
}

export function flatten(doc: any, schema: Schema | undefined): Schema {
  const s = deref(doc, schema);
  return Array.isArray(s.allOf) ? mergeAllOf(doc, s) : s;
}

/** The JSON types a schema allows (empty: any). */
export function typesOf(s: Schema): string[] {
  const types = Array.isArray(s.type) ? [...s.type] : s.type ? [s.type] : [];
  if (s.nullable === true && !types.includes("null")) types.push("null");
  return types;
}

export class SchemaArbitraries {
  /** Property name → schemas that request bodies give it, for properties documented as {}. */
  private readonly byProperty = new Map<string, Schema[]>();
  private readonly maxString: number;
  private readonly maxItems: number;

  constructor(
    private readonly doc: any,
    requestSchemas: Schema[],
    options: GenOptions = {},
  ) {
    this.maxString = options.maxStringLength ?? 40;
    this.maxItems = options.maxArrayItems ?? 4;
    const seen = new Set<Schema>();
    const index = (schema: Schema | undefined, depth: number) => {
      if (!schema || depth > MAX_DEPTH) return;
      const s = flatten(doc, schema);
      if (seen.has(s)) return;
      seen.add(s);
      for (const branch of [...(s.oneOf ?? []), ...(s.anyOf ?? [])]) index(branch, depth + 1);
      if (s.items) index(s.items, depth + 1);
      for (const [name, prop] of Object.entries<Schema>(s.properties ?? {})) {
        const p = flatten(doc, prop);
        if (Object.keys(p).some((k) => k !== "description" && k !== "example")) {
          this.byProperty.set(name, [...(this.byProperty.get(name) ?? []), prop]);
        }
        index(prop, depth + 1);
      }
    };
    for (const s of requestSchemas) index(s, 0);
  }

  /** Valid values of `schema`; `name` is the property it is the value of, when it is one. */
  of(schema: Schema | undefined, name?: string, depth = 0): fc.Arbitrary<unknown> {
    const s = flatten(this.doc, schema);
    if (depth > MAX_DEPTH) return fc.constant(null);
    if (s.const !== undefined) return fc.constant(s.const);
    if (Array.isArray(s.enum)) return fc.constantFrom(...s.enum);
    const branches = s.oneOf ?? s.anyOf;
    if (Array.isArray(branches)) return fc.oneof(...branches.map((b: Schema) => this.of(b, name, depth + 1)));

    const types = typesOf(s);
    if (types.length === 0) return this.untyped(name, depth);
    const nonNull = types.filter((t) => t !== "null");
    const arbs = nonNull.map((t) => this.ofType(t, s, name, depth));
    if (types.includes("null")) arbs.push(fc.constant(null));
    if (arbs.length === 1) return arbs[0]!;
    // null is one choice in five, whatever the number of other types.
    return fc.oneof(
      ...arbs.map((arbitrary, i) => ({ arbitrary, weight: types.includes("null") && i === arbs.length - 1 ? 1 : 4 })),
    );
  }

  private ofType(type: string, s: Schema, name: string | undefined, depth: number): fc.Arbitrary<unknown> {
    switch (type) {
      case "object":
        return this.object(s, depth);
      case "array":
        return this.array(s, name, depth);
      case "string":
        return this.string(s, name);
      case "integer":
        return this.integer(s);
      case "number":
        return this.number(s);
      case "boolean":
        return fc.boolean();
      default:
        return fc.constant(null);
    }
  }

  /** A schema without a type: a property of the same name elsewhere, or any JSON. */
  private untyped(name: string | undefined, depth: number): fc.Arbitrary<unknown> {
    if (name === "response") return fc.oneof({ arbitrary: ref("response"), weight: 3 }, { arbitrary: anyJson(2), weight: 1 });
    const known = name ? this.byProperty.get(name) : undefined;
    if (known?.length)
      return fc.oneof(
        { arbitrary: fc.oneof(...known.map((k) => this.of(k, name, depth + 1))), weight: 4 },
        { arbitrary: anyJson(2), weight: 1 },
      );
    return anyJson(2);
  }

  private object(s: Schema, depth: number): fc.Arbitrary<unknown> {
    const properties = Object.entries<Schema>(s.properties ?? {});
    const model = Object.fromEntries(properties.map(([k, p]) => [k, this.of(p, k, depth + 1)]));
    const requiredKeys = (s.required ?? []).filter((k: string) => k in model);
    // A partial update (no required field, many optional ones): mostly a few fields at a time, as
    // clients send them, and as a change of a few fields is likely to leave a valid whole.
    if (requiredKeys.length === 0 && properties.length > 4) {
      const few = fc
        .subarray(Object.keys(model), { minLength: 1, maxLength: 3 })
        .chain((keys) => fc.record(Object.fromEntries(keys.map((k) => [k, model[k]!]))));
      return fc.oneof({ arbitrary: few, weight: 3 }, { arbitrary: fc.record(model, { requiredKeys }), weight: 1 });
    }
    const record = fc.record(model, { requiredKeys });
    // An optional id is the client's choice of id (an option's): mostly left to the service,
    // whose a, b, c, … a client-chosen one would otherwise often collide with.
    if ("id" in model && !requiredKeys.includes("id"))
      return fc.tuple(record, fc.nat(3)).map(([r, n]) => {
        if (n > 0) delete (r as Record<string, unknown>).id;
        return r;
      });
    return record;
  }

  private array(s: Schema, name: string | undefined, depth: number): fc.Arbitrary<unknown> {
    const minLength = s.minItems ?? 0;
    const maxLength = Math.max(minLength, Math.min(s.maxItems ?? this.maxItems, minLength + this.maxItems));
    const item = this.of(s.items, name, depth + 1);
    return s.uniqueItems
      ? fc.uniqueArray(item, { minLength, maxLength, selector: (v) => JSON.stringify(v) })
      : fc.array(item, { minLength, maxLength });
  }

  private string(s: Schema, name: string | undefined): fc.Arbitrary<unknown> {
    const kind = idKindOfPattern(s.pattern);
    // Mostly a real resource; sometimes a well-formed id of nothing (→ 404 or 400).
    if (kind)
      return fc.oneof({ arbitrary: ref(kind), weight: 6 }, { arbitrary: fc.stringMatching(new RegExp(s.pattern)), weight: 1 });
    if (name === "client_secret") return ref("clientSecret");
    if (name === "refresh_token")
      return fc.oneof({ arbitrary: ref("refreshToken"), weight: 4 }, { arbitrary: ref("token"), weight: 1 });
    if (name === "token") return ref("token");
    if (name === "scope") return scopeList;
    if (s.format === "date-time") return dateTime;
    if (s.format === "email" || name === "email") return email.filter((e) => e.length <= (s.maxLength ?? 254));
    if (s.format === "uri" || s.format === "url") return fc.webUrl();
    const min = s.minLength ?? 0;
    const max = s.maxLength ?? Number.POSITIVE_INFINITY;
    const fits = (v: string) => v.length >= min && v.length <= max && (!s.pattern || new RegExp(s.pattern, "u").test(v));
    if (s.pattern) {
      // Option ids: mostly the ones the service assigns (a, b, c, …), so keys match options.
      const common = /A-Za-z0-9_-/.test(s.pattern) ? [fc.constantFrom("a", "b", "c", "d")] : [];
      return fc.oneof(...common, fc.stringMatching(new RegExp(s.pattern)).filter(fits));
    }
    const cap = Math.max(min, Math.min(max, this.maxString));
    // Strings are trimmed by the service: a blank one would fall below minLength.
    const ascii = fc
      .string({ unit: "grapheme-ascii", minLength: Math.max(min, 1), maxLength: Math.max(cap, 1) })
      .map((v) => (v.trim() ? v : `x${v}`.slice(0, Math.max(cap, 1))));
    const unicode = fc
      .string({ unit: "grapheme", minLength: Math.max(min, 1), maxLength: Math.max(cap, 1) })
      .filter((v) => v.trim() !== "" && fits(v));
    const boundary = Number.isFinite(max) ? [fc.constant("x".repeat(max)), fc.constant("é".repeat(Math.max(min, 1)))] : [];
    return fc
      .oneof(
        { arbitrary: ascii, weight: 6 },
        { arbitrary: unicode, weight: 3 },
        ...boundary.map((arbitrary) => ({ arbitrary, weight: 1 })),
      )
      .filter((v) => fits(v as string));
  }

  private integer(s: Schema): fc.Arbitrary<unknown> {
    const min = Math.max(INT32.min, s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : INT32.min));
    const max = Math.min(INT32.max, s.maximum ?? (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - 1 : INT32.max));
    return fc.oneof({ arbitrary: fc.integer({ min, max }), weight: 4 }, { arbitrary: fc.constantFrom(min, max), weight: 1 });
  }

  private number(s: Schema): fc.Arbitrary<unknown> {
    const min = s.minimum ?? s.exclusiveMinimum ?? -1e9;
    const max = s.maximum ?? s.exclusiveMaximum ?? 1e9;
    const inRange = (v: number) =>
      v >= min &&
      v <= max &&
      (s.exclusiveMinimum === undefined || v > s.exclusiveMinimum) &&
      (s.exclusiveMaximum === undefined || v < s.exclusiveMaximum);
    const intMin = Math.ceil(Math.max(min, INT32.min));
    const intMax = Math.floor(Math.min(max, INT32.max));
    return fc
      .oneof(
        {
          arbitrary:
            intMax >= intMin ? fc.integer({ min: intMin, max: Math.min(intMax, Math.max(intMin, 0) + 100) }) : fc.constant(min),
          weight: 4,
        },
        { arbitrary: intMax >= intMin ? fc.integer({ min: intMin, max: intMax }) : fc.constant(min), weight: 2 },
        { arbitrary: fc.integer({ min: -100_000, max: 100_000 }).map((n) => n / 100), weight: 2 },
        // Any double: most have more decimals than points may (6) — refused, as they should be.
        { arbitrary: fc.double({ min, max, noNaN: true, noDefaultInfinity: true }), weight: 1 },
        { arbitrary: fc.constantFrom(min, max), weight: 1 },
      )
      .filter(inRange);
  }
}

/** Any JSON value, small. */
const anyJson = (maxDepth: number) =>
  fc.oneof(
    fc.constantFrom("a", "b", "c", true, false, 0, 1, 42, -1, 3.14, "", "Paris", null),
    fc.array(fc.constantFrom("a", "b", "c", "d"), { maxLength: 4 }),
    fc.jsonValue({ maxDepth }),
  );

const scopeList = fc.subarray([...SCOPES], { minLength: 1 }).map((s) => s.join(" "));

const DAY_MS = 86_400_000;
// Mostly in the future (expiries must be); some in the past, which the service refuses.
const dateTime = fc.oneof(
  { arbitrary: fc.integer({ min: 1, max: 3650 }).map((d) => new Date(Date.now() + d * DAY_MS).toISOString()), weight: 5 },
  { arbitrary: fc.integer({ min: 1, max: 3650 }).map((d) => new Date(Date.now() - d * DAY_MS).toISOString()), weight: 1 },
  {
    arbitrary: fc
      .integer({ min: 1, max: 3650 })
      .map((d) => new Date(Date.now() + d * DAY_MS).toISOString().replace(".000Z", "+02:00")),
    weight: 1,
  },
);

const label = fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,10}[a-z0-9])?$/);
const email = fc.oneof(
  {
    arbitrary: fc
      .tuple(fc.stringMatching(/^[a-z0-9]([a-z0-9._+-]{0,20}[a-z0-9])?$/), label, fc.constantFrom("com", "org", "io", "example"))
      .map(([l, d, t]) => `${l}@${d}.${t}`),
    weight: 4,
  },
  { arbitrary: fc.emailAddress(), weight: 1 },
  {
    arbitrary: fc
      .tuple(fc.constantFrom("Ada", "ADA", " ada "), fc.constantFrom("@Example.com", "@example.COM"))
      .map(([a, b]) => `${a}${b}`),
    weight: 1,
  },
);
