import { flatten, type Schema, typesOf } from "./schema-arbitrary";

/**
 * Checks a 2xx body against the document's response schema (the same subset as
 * schema-arbitrary.ts). Timestamps (format date-time) must have the documented exact form,
 * ISO 8601 UTC with milliseconds (docs/api.md). Returns the first few mismatches.
 */
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export function validate(doc: any, schema: Schema | undefined, value: unknown, path = "$", out: string[] = []): string[] {
  if (out.length >= 5) return out;
  const s = flatten(doc, schema);
  if (s.const !== undefined && JSON.stringify(value) !== JSON.stringify(s.const))
    out.push(`${path}: expected ${JSON.stringify(s.const)}`);
  if (Array.isArray(s.enum) && !s.enum.some((e: unknown) => JSON.stringify(e) === JSON.stringify(value)))
    out.push(`${path}: ${JSON.stringify(value)} is not one of ${JSON.stringify(s.enum)}`);
  const branches: Schema[] | undefined = s.oneOf ?? s.anyOf;
  if (branches) {
    if (!branches.some((b) => validate(doc, b, value, path).length === 0))
      out.push(`${path}: matches none of the ${branches.length} alternatives`);
    return out;
  }
  const types = typesOf(s);
  if (types.length > 0 && !types.some((t) => hasType(value, t))) {
    out.push(
      `${path}: expected ${types.join(" or ")}, got ${value === null ? "null" : Array.isArray(value) ? "array" : typeof value}`,
    );
    return out;
  }
  if (typeof value === "string") {
    const length = [...value].length;
    if (s.minLength !== undefined && length < s.minLength) out.push(`${path}: shorter than ${s.minLength}`);
    if (s.maxLength !== undefined && length > s.maxLength) out.push(`${path}: longer than ${s.maxLength}`);
    if (s.pattern && !new RegExp(s.pattern, "u").test(value))
      out.push(`${path}: ${JSON.stringify(value)} does not match ${s.pattern}`);
    if (s.format === "date-time" && !ISO_MS.test(value))
      out.push(`${path}: ${JSON.stringify(value)} is not ISO 8601 UTC with milliseconds`);
    if ((s.format === "uri" || s.format === "url") && !isUrl(value)) out.push(`${path}: ${JSON.stringify(value)} is not a URL`);
  }
  if (typeof value === "number") {
    if (s.minimum !== undefined && value < s.minimum) out.push(`${path}: ${value} < minimum ${s.minimum}`);
    if (s.maximum !== undefined && value > s.maximum) out.push(`${path}: ${value} > maximum ${s.maximum}`);
    if (s.exclusiveMinimum !== undefined && value <= s.exclusiveMinimum)
      out.push(`${path}: ${value} ≤ exclusiveMinimum ${s.exclusiveMinimum}`);
    if (s.exclusiveMaximum !== undefined && value >= s.exclusiveMaximum)
      out.push(`${path}: ${value} ≥ exclusiveMaximum ${s.exclusiveMaximum}`);
  }
  if (Array.isArray(value)) {
    if (s.minItems !== undefined && value.length < s.minItems) out.push(`${path}: fewer than ${s.minItems} items`);
    if (s.maxItems !== undefined && value.length > s.maxItems) out.push(`${path}: more than ${s.maxItems} items`);
    if (s.items) value.forEach((v, i) => validate(doc, s.items, v, `${path}[${i}]`, out));
  } else if (value !== null && typeof value === "object") {
    const props: Record<string, Schema> = s.properties ?? {};
    for (const k of s.required ?? []) if (!(k in value)) out.push(`${path}: lacks required ${k}`);
    for (const [k, v] of Object.entries(value)) {
      if (k in props) validate(doc, props[k], v, `${path}.${k}`, out);
      else if (s.additionalProperties === false) out.push(`${path}: unexpected property ${k}`);
      else if (s.additionalProperties && typeof s.additionalProperties === "object")
        validate(doc, s.additionalProperties, v, `${path}.${k}`, out);
    }
  }
  return out;
}

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case "null":
      return value === null;
    case "array":
      return Array.isArray(value);
    case "object":
      return value !== null && typeof value === "object" && !Array.isArray(value);
    case "integer":
      return typeof value === "number" && Number.isInteger(value);
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    default:
      return typeof value === type;
  }
}

function isUrl(value: string): boolean {
  try {
    new URL(value);
    return true;
  } catch {
    return false;
  }
}
