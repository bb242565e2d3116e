/**
 * QTI response processing, run: the standard templates (match_correct, map_response,
 * map_response_point) and the custom processing made of the common expressions. An importer
 * scores probe responses with it and with the service's grading, so "imported" means the two
 * agree on every probe, not that a pattern looked familiar. An element it does not know throws
 * Unsupported: the item is then graded right-or-wrong against its correct response, and says so.
 * Every expression evaluated, rule run and value compared is a step charged to the read's budget
 * (budget.ts), and comparisons are linear in the values' sizes, so no processing can make the
 * probes costly.
 */
import type { WorkBudget } from "../../budget";
import { child, elements, textOf, type XmlElement } from "../../xml";

type Scalar = string | number | boolean;
export type QtiValue = null | Scalar | { card: "multiple" | "ordered"; items: Scalar[] };

export interface Declaration {
  identifier: string;
  cardinality: string;
  baseType: string;
  correct: QtiValue;
  mapping?: {
    entries: { key: string; value: number; caseSensitive: boolean }[];
    defaultValue: number;
    lower?: number;
    upper?: number;
  };
  defaultValue: QtiValue;
}

export class Unsupported extends Error {}

const num = (s: string | undefined) => (s === undefined || s === "" ? undefined : Number(s));

function scalar(text: string, baseType: string): Scalar {
  const t = text.trim();
  if (baseType === "float" || baseType === "integer" || baseType === "duration") return Number(t);
  if (baseType === "boolean") return t === "true" || t === "1";
  return baseType === "string" ? text : t.replace(/\s+/g, " ");
}

function qtiValue(values: string[], cardinality: string, baseType: string): QtiValue {
  if (values.length === 0) return null;
  const items = values.map((v) => scalar(v, baseType));
  return cardinality === "multiple" || cardinality === "ordered" ? { card: cardinality, items } : (items[0] ?? null);
}

export function declaration(e: XmlElement): Declaration {
  const cardinality = e.attrs.cardinality ?? "single";
  const baseType = e.attrs.baseType ?? "identifier";
  const values = (el: XmlElement | undefined) => (el ? elements(el, "value").map(textOf) : []);
  const mapping = child(e, "mapping");
  return {
    identifier: e.attrs.identifier ?? "",
    cardinality,
    baseType,
    correct: qtiValue(values(child(e, "correctResponse")), cardinality, baseType),
    defaultValue: qtiValue(values(child(e, "defaultValue")), cardinality, baseType),
    ...(mapping
      ? {
          mapping: {
            entries: elements(mapping, "mapEntry").map((m) => ({
              key: m.attrs.mapKey ?? "",
              value: Number(m.attrs.mappedValue ?? 0),
              caseSensitive: m.attrs.caseSensitive !== "false",
            })),
            defaultValue: Number(mapping.attrs.defaultValue ?? 0),
            lower: num(mapping.attrs.lowerBound),
            upper: num(mapping.attrs.upperBound),
          },
        }
      : {}),
  };
}

const itemsOf = (v: QtiValue): Scalar[] => (v === null ? [] : typeof v === "object" ? v.items : [v]);
const isNull = (v: QtiValue) => v === null || v === "" || (typeof v === "object" && v.items.length === 0);
/** What two values of `baseType` are compared by: a pair's two members in order, any other value itself. */
const keyOf = (x: Scalar, baseType: string): Scalar => (baseType === "pair" ? String(x).split(" ").sort().join(" ") : x);
/** Whether `x` can equal anything: NaN equals nothing (as with ===), though a Map would find it. */
const comparable = (x: Scalar) => !(typeof x === "number" && Number.isNaN(x));
const samePair = (a: Scalar, b: Scalar, baseType: string) => keyOf(a, baseType) === keyOf(b, baseType);

type Spend = (steps: number) => void;

function equalValues(a: QtiValue, b: QtiValue, baseType: string, spend: Spend): boolean {
  if (isNull(a) || isNull(b)) return false;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null)
    return typeof a !== "object" && typeof b !== "object" && samePair(a as Scalar, b as Scalar, baseType);
  if (a.items.length !== b.items.length) return false;
  spend(a.items.length);
  if (a.card === "ordered") return a.items.every((x, i) => samePair(x, b.items[i] as Scalar, baseType));
  // The same multiset: each member of `a` takes one equal member of `b`.
  const left = new Map<Scalar, number>();
  for (const y of b.items) if (comparable(y)) left.set(keyOf(y, baseType), (left.get(keyOf(y, baseType)) ?? 0) + 1);
  return a.items.every((x) => {
    const key = keyOf(x, baseType);
    const n = comparable(x) ? (left.get(key) ?? 0) : 0;
    left.set(key, n - 1);
    return n > 0;
  });
}

type Mapping = NonNullable<Declaration["mapping"]>;
type MapEntry = Mapping["entries"][number];

/** A mapping's first entry for each key, found in one lookup (case-insensitive string entries by their lower case). */
const lookups = new WeakMap<Mapping, (r: Scalar) => MapEntry | undefined>();

function lookup(d: Declaration & { mapping: Mapping }, spend: Spend) {
  const cached = lookups.get(d.mapping);
  if (cached) return cached;
  spend(d.mapping.entries.length);
  const exact = new Map<Scalar, number>();
  const folded = new Map<string, number>();
  d.mapping.entries.forEach((m, i) => {
    if (d.baseType === "string" && !m.caseSensitive) {
      if (!folded.has(m.key.toLowerCase())) folded.set(m.key.toLowerCase(), i);
      return;
    }
    const key = scalar(m.key, d.baseType);
    if (comparable(key) && !exact.has(keyOf(key, d.baseType))) exact.set(keyOf(key, d.baseType), i);
  });
  const find = (r: Scalar) => {
    const a = comparable(r) ? exact.get(keyOf(r, d.baseType)) : undefined;
    const b = d.baseType === "string" ? folded.get(String(r).toLowerCase()) : undefined;
    const at = a === undefined ? b : b === undefined ? a : Math.min(a, b);
    return at === undefined ? undefined : d.mapping.entries[at];
  };
  lookups.set(d.mapping, find);
  return find;
}

/** The mapped value of a response: each distinct key once, unmapped ones at the default, clamped to the bounds. */
function mapResponse(d: Declaration, response: QtiValue, spend: Spend): number {
  if (!d.mapping) throw new Unsupported("mapResponse without a mapping");
  const { defaultValue, lower, upper } = d.mapping;
  const find = lookup(d as Declaration & { mapping: Mapping }, spend);
  const items = itemsOf(response);
  spend(items.length);
  const seen = new Set<Scalar>();
  let total = 0;
  for (const r of items) {
    if (comparable(r)) {
      if (seen.has(keyOf(r, d.baseType))) continue;
      seen.add(keyOf(r, d.baseType));
    }
    const entry = find(r);
    total += entry ? entry.value : defaultValue;
  }
  if (lower !== undefined) total = Math.max(lower, total);
  if (upper !== undefined) total = Math.min(upper, total);
  return total;
}

export interface Run {
  declarations: Map<string, Declaration>;
  responses: Map<string, QtiValue>;
  outcomes: Map<string, QtiValue>;
  /** Charged a step per expression, rule and compared value. */
  budget?: WorkBudget;
}

const spender =
  (run: Run): Spend =>
  (steps) =>
    run.budget?.spend("evaluationSteps", steps);

class Exit {}

// Helpers of evaluate at the top level, not closures made on every call: it is the importer's hottest code.
const argsOf = (e: XmlElement, run: Run) => elements(e).map((c) => evaluate(c, run));
const numsOf = (e: XmlElement, run: Run) => argsOf(e, run).map((v) => Number(itemsOf(v)[0] ?? Number.NaN));
const declOf = (e: XmlElement, run: Run) => run.declarations.get(e.attrs.identifier ?? "");

function evaluate(e: XmlElement, run: Run): QtiValue {
  run.budget?.spend("evaluationSteps");
  switch (e.name) {
    case "variable":
      return run.responses.get(e.attrs.identifier ?? "") ?? run.outcomes.get(e.attrs.identifier ?? "") ?? null;
    case "correct":
      return declOf(e, run)?.correct ?? null;
    case "baseValue":
      return scalar(textOf(e), e.attrs.baseType ?? "string");
    case "null":
      return null;
    case "isNull":
      return isNull(argsOf(e, run)[0] ?? null);
    case "match": {
      const [a = null, b = null] = argsOf(e, run);
      const first = elements(e)[0];
      const baseType = run.declarations.get(first?.attrs.identifier ?? "")?.baseType ?? "identifier";
      return equalValues(a, b, baseType, spender(run));
    }
    case "mapResponse": {
      const d = declOf(e, run);
      if (!d) throw new Unsupported("mapResponse of an unknown response");
      return mapResponse(d, run.responses.get(d.identifier) ?? null, spender(run));
    }
    case "and":
      return argsOf(e, run).every((v) => v === true);
    case "or":
      return argsOf(e, run).some((v) => v === true);
    case "not":
      return argsOf(e, run)[0] !== true;
    case "sum":
      return numsOf(e, run).reduce((a, b) => a + b, 0);
    case "product":
      return numsOf(e, run).reduce((a, b) => a * b, 1);
    case "subtract": {
      const [a = 0, b = 0] = numsOf(e, run);
      return a - b;
    }
    case "divide": {
      const [a = 0, b = 1] = numsOf(e, run);
      return a / b;
    }
    case "gt":
    case "gte":
    case "lt":
    case "lte": {
      const [a = Number.NaN, b = Number.NaN] = numsOf(e, run);
      return e.name === "gt" ? a > b : e.name === "gte" ? a >= b : e.name === "lt" ? a < b : a <= b;
    }
    case "equal": {
      const [a = Number.NaN, b = Number.NaN] = numsOf(e, run);
      const mode = e.attrs.toleranceMode ?? "exact";
      if (mode === "exact") return a === b;
      const [t0 = 0, t1 = t0] = (e.attrs.tolerance ?? "0").trim().split(/\s+/).map(Number);
      const [low, high] = mode === "absolute" ? [b - t0, b + t1] : [b * (1 - t0 / 100), b * (1 + t1 / 100)];
      const lowOk = e.attrs.includeLowerBound === "false" ? a > low : a >= low;
      const highOk = e.attrs.includeUpperBound === "false" ? a < high : a <= high;
      return lowOk && highOk;
    }
    case "member": {
      const [x = null, container = null] = argsOf(e, run);
      run.budget?.spend("evaluationSteps", itemsOf(container).length);
      return itemsOf(container).some((y) => itemsOf(x)[0] === y);
    }
    case "index": {
      const n = Number(e.attrs.n ?? 1);
      return itemsOf(argsOf(e, run)[0] ?? null)[n - 1] ?? null;
    }
    case "multiple":
    case "ordered": {
      const parts = argsOf(e, run).map(itemsOf);
      run.budget?.spend(
        "evaluationSteps",
        parts.reduce((n, p) => n + p.length, 0),
      );
      return { card: e.name, items: parts.flat() };
    }
    case "containerSize":
      return itemsOf(argsOf(e, run)[0] ?? null).length;
    case "stringMatch": {
      const [a = null, b = null] = argsOf(e, run);
      if (isNull(a) || isNull(b)) return false;
      const sensitive = e.attrs.caseSensitive !== "false";
      return sensitive ? String(a) === String(b) : String(a).toLowerCase() === String(b).toLowerCase();
    }
    default:
      throw new Unsupported(e.name);
  }
}

function execute(rules: XmlElement[], run: Run): void {
  for (const rule of rules) {
    run.budget?.spend("evaluationSteps");
    switch (rule.name) {
      case "responseCondition": {
        for (const branch of elements(rule)) {
          const [test, ...body] = elements(branch);
          if (branch.name === "responseElse") {
            execute(elements(branch), run);
            break;
          }
          if (test && evaluate(test, run) === true) {
            execute(body, run);
            break;
          }
        }
        break;
      }
      case "setOutcomeValue": {
        const [expr] = elements(rule);
        run.outcomes.set(rule.attrs.identifier ?? "", expr ? evaluate(expr, run) : null);
        break;
      }
      case "exitResponse":
        throw new Exit();
      case "responseProcessingFragment":
        execute(elements(rule), run);
        break;
      default:
        throw new Unsupported(rule.name);
    }
  }
}

type Template = "match_correct" | "map_response" | "map_response_point";

function templateOf(rp: XmlElement | undefined): Template | undefined {
  const url = rp?.attrs.template ?? rp?.attrs.templateLocation ?? "";
  if (/map_response_point/i.test(url)) return "map_response_point";
  if (/map_response/i.test(url)) return "map_response";
  if (/match_correct|CC2_match/i.test(url)) return "match_correct";
  return undefined;
}

/** SCORE after processing `responses`: the template's, else the custom rules'; Unsupported when neither applies. */
export function score(rp: XmlElement | undefined, run: Run): number {
  const template = templateOf(rp);
  const response = run.responses.get("RESPONSE") ?? null;
  const d = run.declarations.get("RESPONSE");
  if (template === "match_correct" || (!template && (!rp || elements(rp).length === 0))) {
    if (!d) throw new Unsupported("no RESPONSE declaration");
    return equalValues(response, d.correct, d.baseType, spender(run)) ? 1 : 0;
  }
  if (template === "map_response") return d && !isNull(response) ? mapResponse(d, response, spender(run)) : 0;
  if (template === "map_response_point") throw new Unsupported("map_response_point (an area mapping)");
  try {
    execute(elements(rp as XmlElement), run);
  } catch (error) {
    if (!(error instanceof Exit)) throw error;
  }
  return Number(itemsOf(run.outcomes.get("SCORE") ?? 0)[0] ?? 0);
}
