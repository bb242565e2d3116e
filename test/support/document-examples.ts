import { ID_PREFIX } from "../../src/lib/ids";
import { deref, flatten, type Schema, typesOf } from "../fuzz/schema-arbitrary";
import { validate } from "../fuzz/schema-validate";

/**
 * The response examples of /openapi.json, audited (docs/api.md: every response has an example,
 * and a true one). Used by the document's tests and by scripts/openapi-examples.ts, which prints
 * the counts.
 *
 * A *response body* is one media type of one documented response (an operation's status). Its
 * *example* is the media type's `example` (or its first `examples` value), else the `example` of
 * its schema itself (after `$ref`). A body without either shows the reader only what a viewer
 * (Swagger UI, Redoc) generates from the schema: property examples where there are some, and for
 * every other value a default of its type ("string", 0, true).
 *
 * An example holds a *generated placeholder* when one of its values is:
 *   - a value nobody wrote: a type's default in a generated sample (above);
 *   - a string that names a type or a format instead of being one ("string", "integer",
 *     "date-time", "uri", …, compared ignoring case), or a filler word (PLACEHOLDER_WORDS);
 *   - a generator's default for a format: Swagger UI's and Redoc's date-time, date, e-mail, URI and
 *     UUID, or the Unix epoch as a timestamp (GENERATOR_DEFAULTS);
 *   - an id whose 26 characters after the prefix repeat one character (`quiz_000…0`);
 *   - zero-filled: an object with three or more numbers of its own, every one of them 0 (a job's
 *     `progress` of two, 0 of 0 while it is queued, is what the API answers).
 * Besides placeholders, an example must validate against its schema (test/fuzz/schema-validate.ts,
 * timestamps ISO 8601 UTC with milliseconds), name no property its schema does not declare, write
 * every id as its prefix and a 26-character lower-case Crockford ULID, and every timestamp with
 * milliseconds.
 */

const METHODS = ["get", "put", "post", "patch", "delete"] as const;

const PLACEHOLDER_WORDS = new Set([
  // JSON Schema's types and formats
  "string",
  "number",
  "integer",
  "boolean",
  "object",
  "array",
  "null",
  "undefined",
  "date-time",
  "date",
  "email",
  "uri",
  "url",
  "uuid",
  "binary",
  "byte",
  // fillers
  "foo",
  "bar",
  "baz",
  "lorem ipsum",
  "xxx",
  "todo",
  "tbd",
  "changeme",
  "placeholder",
]);
const GENERATOR_DEFAULTS = new Set([
  "2019-08-24T14:15:22Z",
  "2019-08-24T14:15:22.123Z",
  "2019-08-24",
  "1970-01-01T00:00:00Z",
  "1970-01-01T00:00:00.000Z",
  "user@example.com",
  "http://example.com",
  "https://example.com",
  "3fa85f64-5717-4562-b3fc-2c963f66afa6",
  "497f6eca-6276-4993-bfeb-53cbbbba6f08",
]);

/** A value of this shape under another prefix is no id. */
const ID_PREFIXES = Object.values(ID_PREFIX);
const ID_LIKE = new RegExp(`^(${ID_PREFIXES.join("|")})_[0-9A-Za-z]+$`);
const ID = new RegExp(`^(${ID_PREFIXES.join("|")})_[0-7][0-9a-hjkmnp-tv-z]{25}$`);
const TIMESTAMP_LIKE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

interface ResponseBody {
  /** "GET /v1/quizzes 200 application/json" */
  where: string;
  method: string;
  path: string;
  status: string;
  mediaType: string;
  schema: Schema | undefined;
  /** The example written for it (media type or schema), or undefined. */
  example: unknown;
  /** What a reader is shown: the example, else a sample generated from the schema. */
  shown: unknown;
  /** Paths of the values in `shown` that are a type's default (a generated sample's). */
  defaults: string[];
}

export interface Operation {
  method: string;
  path: string;
  operation: any;
}

export function operations(doc: any): Operation[] {
  return Object.entries<any>(doc.paths ?? {}).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((method) => ({ method, path, operation: item[method] })),
  );
}

/** The example a media type (request or response) carries, or its schema's own. */
function mediaExample(doc: any, media: any): unknown {
  if (media.example !== undefined) return media.example;
  const named = Object.values<any>(media.examples ?? {})[0];
  if (named?.value !== undefined) return named.value;
  // The schema's own example: an allOf (an extension) carries it beside its parts, whose own it overrides.
  const schema = media.schema ? deref(doc, media.schema) : undefined;
  if (schema?.example !== undefined) return schema.example;
  if (Array.isArray(schema?.examples) && schema.examples.length > 0) return schema.examples[0];
  return undefined;
}

/** Every response body of the document, with its example. */
function responseBodies(doc: any): ResponseBody[] {
  const out: ResponseBody[] = [];
  for (const { method, path, operation } of operations(doc)) {
    for (const [status, response] of Object.entries<any>(operation.responses ?? {})) {
      const resolved = response.$ref ? flatten(doc, response) : response;
      for (const [mediaType, media] of Object.entries<any>(resolved.content ?? {})) {
        const example = mediaExample(doc, media);
        const defaults: string[] = [];
        const shown = example !== undefined ? example : sample(doc, media.schema, "$", defaults, 0);
        out.push({
          where: `${method.toUpperCase()} ${path} ${status} ${mediaType}`,
          method,
          path,
          status,
          mediaType,
          schema: media.schema,
          example,
          shown,
          defaults,
        });
      }
    }
  }
  return out;
}

/**
 * What a viewer shows for a schema without an example: the examples of its parts, else a default
 * of each type (whose paths are recorded in `defaults`).
 */
function sample(doc: any, schema: Schema | undefined, path: string, defaults: string[], depth: number): unknown {
  const own = deref(doc, schema);
  if (own.example !== undefined) return own.example;
  if (Array.isArray(own.examples) && own.examples.length > 0) return own.examples[0];
  const s = flatten(doc, schema);
  if (s.const !== undefined) return s.const;
  if (s.default !== undefined) return s.default;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  const branches: Schema[] | undefined = s.oneOf ?? s.anyOf;
  if (branches?.[0]) return sample(doc, branches[0], path, defaults, depth);
  if (depth > 8) return null;
  const types = typesOf(s).filter((t) => t !== "null");
  const type = types[0] ?? (s.properties ? "object" : s.items ? "array" : undefined);
  switch (type) {
    case "object":
      return Object.fromEntries(
        Object.entries<Schema>(s.properties ?? {}).map(([k, p]) => [k, sample(doc, p, `${path}.${k}`, defaults, depth + 1)]),
      );
    case "array":
      return [sample(doc, s.items, `${path}[0]`, defaults, depth + 1)];
    case "string":
      defaults.push(path);
      return s.format === "date-time" ? "2019-08-24T14:15:22Z" : "string";
    case "integer":
    case "number":
      defaults.push(path);
      return 0;
    case "boolean":
      defaults.push(path);
      return true;
    default:
      if (types.length === 0 && typesOf(s).includes("null")) return null;
      defaults.push(path);
      return {};
  }
}

/** The placeholders of an example (see the rule above), as "path: why". */
function placeholders(value: unknown, path = "$", out: string[] = []): string[] {
  if (typeof value === "string") {
    const word = value.trim().toLowerCase();
    if (PLACEHOLDER_WORDS.has(word)) out.push(`${path}: ${JSON.stringify(value)} names a type or is a filler`);
    else if (GENERATOR_DEFAULTS.has(value)) out.push(`${path}: ${JSON.stringify(value)} is a generator's default`);
    else if (ID_LIKE.test(value) && /^[a-z]+_(.)\1{25}$/.test(value))
      out.push(`${path}: ${value} is an id of one repeated character`);
  } else if (Array.isArray(value)) {
    value.forEach((v, i) => placeholders(v, `${path}[${i}]`, out));
  } else if (value !== null && typeof value === "object") {
    const numbers = Object.values(value).filter((v) => typeof v === "number");
    if (numbers.length >= 3 && numbers.every((n) => n === 0)) out.push(`${path}: every number is 0`);
    for (const [k, v] of Object.entries(value)) placeholders(v, `${path}.${k}`, out);
  }
  return out;
}

/** Ids and timestamps that do not have the documented shape (docs/api.md), as "path: why". */
function shapeProblems(value: unknown, path = "$", out: string[] = []): string[] {
  if (typeof value === "string") {
    if (ID_LIKE.test(value) && !ID.test(value)) out.push(`${path}: ${value} is not a prefix and a lower-case ULID`);
    if (TIMESTAMP_LIKE.test(value) && !ISO_MS.test(value))
      out.push(`${path}: ${JSON.stringify(value)} is not ISO 8601 UTC with milliseconds`);
  } else if (Array.isArray(value)) {
    value.forEach((v, i) => shapeProblems(v, `${path}[${i}]`, out));
  } else if (value !== null && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) shapeProblems(v, `${path}.${k}`, out);
  }
  return out;
}

/** Where the example disagrees with its schema: validation, and properties the schema does not declare. */
function schemaProblems(doc: any, schema: Schema | undefined, value: unknown): string[] {
  return [...validate(doc, schema, value), ...undeclared(doc, schema, value, "$")];
}

function undeclared(doc: any, schema: Schema | undefined, value: unknown, path: string, out: string[] = []): string[] {
  if (schema === undefined) return out;
  const s = flatten(doc, schema);
  const branches: Schema[] | undefined = s.oneOf ?? s.anyOf;
  if (branches) {
    const match = branches.find((b) => validate(doc, b, value).length === 0 && undeclared(doc, b, value, path).length === 0);
    if (!match) {
      // Report the problems of the branch that validates (the discriminated one), if any does.
      const valid = branches.find((b) => validate(doc, b, value).length === 0);
      if (valid) undeclared(doc, valid, value, path, out);
    }
    return out;
  }
  if (Array.isArray(value)) {
    value.forEach((v, i) => undeclared(doc, s.items, v, `${path}[${i}]`, out));
  } else if (value !== null && typeof value === "object" && s.properties) {
    for (const [k, v] of Object.entries(value)) {
      if (k in s.properties) undeclared(doc, s.properties[k], v, `${path}.${k}`, out);
      else if (s.additionalProperties && typeof s.additionalProperties === "object")
        undeclared(doc, s.additionalProperties, v, `${path}.${k}`, out);
      else if (s.additionalProperties !== true) out.push(`${path}: ${k} is not a property of the schema`);
    }
  }
  return out;
}

/**
 * Properties a request and its answer both name that mean different things: a review's feedback
 * is the reviewer's on one answer; the answer's is the submission's grade's.
 */
const HOMONYMS: Record<string, string[]> = { "put /v1/submissions/{id}/reviews/{question_id}": ["feedback"] };

const kind = (value: unknown) => (value === null ? "null" : Array.isArray(value) ? "array" : typeof value);

/**
 * Where an operation's 2xx JSON example disagrees with its request example: a property both name
 * at the top level, with values of the same kind, that differ (the request's value must be found
 * in the answer's: objects compared by the request's properties, so a PATCH of one setting agrees
 * with the settings it answers). A create's `questions` (an array sent, a count answered) are
 * values of different kinds.
 */
function disagreements(doc: any, op: Operation): string[] {
  const request = op.operation.requestBody?.content?.["application/json"];
  const sent = request ? mediaExample(doc, request) : undefined;
  if (!sent || typeof sent !== "object" || Array.isArray(sent)) return [];
  const out: string[] = [];
  for (const [status, response] of Object.entries<any>(op.operation.responses ?? {})) {
    if (!status.startsWith("2")) continue;
    const media = response.content?.["application/json"];
    // What the reader is shown: the example, else a generated one.
    const answered = media ? (mediaExample(doc, media) ?? sample(doc, media.schema, "$", [], 0)) : undefined;
    if (!answered || typeof answered !== "object") continue;
    for (const [k, v] of Object.entries(sent)) {
      if (!(k in answered) || HOMONYMS[`${op.method} ${op.path}`]?.includes(k)) continue;
      const got = (answered as Record<string, unknown>)[k];
      if (v !== null && got !== null && kind(v) !== kind(got)) continue;
      if (!contains(got, v)) out.push(`${status} .${k}: sent ${JSON.stringify(v)}, answered ${JSON.stringify(got)}`);
    }
  }
  return out;
}

function contains(answered: unknown, sent: unknown): boolean {
  if (Array.isArray(sent))
    return Array.isArray(answered) && answered.length === sent.length && sent.every((v, i) => contains(answered[i], v));
  if (sent !== null && typeof sent === "object")
    return (
      answered !== null &&
      typeof answered === "object" &&
      Object.entries(sent).every(([k, v]) => contains((answered as Record<string, unknown>)[k], v))
    );
  return answered === sent;
}

export interface Audit {
  bodies: ResponseBody[];
  /** Bodies with no example of their own (a viewer generates one). */
  withoutExample: ResponseBody[];
  /** Bodies whose shown example holds a generated placeholder, with the placeholders. */
  placeholder: { body: ResponseBody; why: string[] }[];
  /** Bodies whose example the schema does not validate, or with an id or a timestamp of the wrong shape. */
  invalid: { body: ResponseBody; why: string[] }[];
  /** Operations whose answer (as shown) disagrees with their request example. */
  disagreeing: { where: string; why: string[] }[];
}

/** Streams and files: their examples are text (CSV, NDJSON, Markdown, XML, GIFT) or described bytes. */
const isJson = (mediaType: string) => /json/.test(mediaType);

export function audit(doc: any): Audit {
  const bodies = responseBodies(doc);
  const withoutExample = bodies.filter((b) => b.example === undefined);
  const placeholder = bodies
    .map((body) => ({ body, why: [...body.defaults.map((p) => `${p}: a type's default`), ...placeholders(body.shown)] }))
    .filter((p) => p.why.length > 0);
  const invalid = bodies
    .filter((b) => b.example !== undefined)
    .map((body) => ({
      body,
      why: [
        ...new Set([
          ...(isJson(body.mediaType) ? schemaProblems(doc, body.schema, body.example) : textProblems(body.example)),
          ...shapeProblems(body.example),
        ]),
      ],
    }))
    .filter((p) => p.why.length > 0);
  const disagreeing = operations(doc)
    .map((op) => ({ where: `${op.method.toUpperCase()} ${op.path}`, why: disagreements(doc, op) }))
    .filter((d) => d.why.length > 0);
  return { bodies, withoutExample, placeholder, invalid, disagreeing };
}

/** A stream's or a file's example is text: a sample of the bytes, or a description of them. */
function textProblems(example: unknown): string[] {
  return typeof example === "string" && example.trim().length > 0 ? [] : ["$: not a text sample of the body"];
}
