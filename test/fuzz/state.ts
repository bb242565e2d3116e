import type { Plan } from "./operations";
import { absentId, Literal, Ref, type RefKind } from "./refs";

/**
 * What the run knows about the service's data: ids of real resources (seeded before the run,
 * then learnt from the answers to the run's own requests), OAuth client secrets, tokens and
 * cursors. Requests are generated with placeholders (refs.ts) that this fills in when they are
 * sent, so the same seed generates the same requests whatever ids the run happens to make.
 */
export interface Credentials {
  admin: string;
  /** Valid, with one scope (quizzes:read): 403 on most operations. */
  low: string;
  expired: string;
  revoked: string;
}

interface QuestionInfo {
  type: string;
  /** Option ids; an ordering's item ids; a matching's prompt ids; a fill-in-the-blanks' blank ids. */
  optionIds: string[];
  /** A matching's choice ids. */
  choiceIds?: string[];
}

type Listed = { id: string }[] | undefined;

/** The ids a question's responses name, from its representation. */
export function listIds(q: { options?: Listed; items?: Listed; prompts?: Listed; choices?: Listed; blanks?: Listed }) {
  const ids = (list: Listed) => (list ?? []).map((o) => o.id);
  return { optionIds: ids(q.options ?? q.items ?? q.prompts ?? q.blanks), choiceIds: ids(q.choices) };
}

const ID_PREFIX: Partial<Record<RefKind, string>> = {
  quiz: "quiz",
  question: "qst",
  user: "user",
  submission: "sub",
  apiKey: "key",
  oauthClient: "cli",
};
/** Pools keep their first (seeded) ids and the most recent others. */
const POOL_CAP = 300;

export interface Materialized {
  method: string;
  url: string;
  headers: [string, string][];
  body?: string | Uint8Array;
  /** The body as sent, shortened for reports. */
  bodyLabel?: string;
  bodyBytes: number;
}

export class FuzzState {
  readonly ids: Record<string, string[]> = { quiz: [], question: [], user: [], submission: [], apiKey: [], oauthClient: [] };
  readonly anchors = new Set<string>();
  readonly questionsByQuiz = new Map<string, string[]>();
  readonly questionInfo = new Map<string, QuestionInfo>();
  readonly questionQuiz = new Map<string, string>();
  readonly submissionQuiz = new Map<string, string>();
  readonly clientSecrets = new Map<string, string>();
  readonly accessTokens: string[] = [];
  readonly refreshTokens: string[] = [];
  readonly cursors = new Map<string, string[]>();

  constructor(
    readonly base: string,
    readonly credentials: Credentials,
  ) {}

  add(kind: string, id: string, anchor = false) {
    const pool = (this.ids[kind] ??= []);
    if (pool.includes(id)) return;
    pool.push(id);
    if (anchor) this.anchors.add(id);
    if (pool.length > POOL_CAP) {
      const i = pool.findIndex((x) => !this.anchors.has(x));
      if (i >= 0) pool.splice(i, 1);
    }
  }

  remove(id: string) {
    for (const pool of Object.values(this.ids)) {
      const i = pool.indexOf(id);
      if (i >= 0) pool.splice(i, 1);
    }
    for (const qs of this.questionsByQuiz.values()) {
      const i = qs.indexOf(id);
      if (i >= 0) qs.splice(i, 1);
    }
    this.clientSecrets.delete(id);
  }

  addQuestion(quizId: string, questionId: string, info: QuestionInfo, anchor = false) {
    this.add("question", questionId, anchor);
    const list = this.questionsByQuiz.get(quizId) ?? [];
    if (!list.includes(questionId)) list.push(questionId);
    this.questionsByQuiz.set(quizId, list);
    this.questionInfo.set(questionId, info);
    this.questionQuiz.set(questionId, quizId);
  }

  private static pushCapped(list: string[], value: string) {
    list.push(value);
    if (list.length > POOL_CAP) list.splice(0, list.length - POOL_CAP);
  }

  /**
   * Learns from a 2xx answer: new resources, deletions, secrets, tokens, cursors. Not from a
   * replay (Idempotent-Replayed): it repeats an older answer, whose secret may be stale by now.
   */
  learn(plan: Plan, resolvedPath: Record<string, string>, status: number, json: any, replayed = false) {
    if (status < 200 || status >= 300 || replayed) return;
    const op = `${plan.method} ${plan.path}`;
    if (status === 204 && plan.method === "DELETE") {
      const id = resolvedPath.question_id ?? resolvedPath.id;
      if (id) this.remove(id);
      return;
    }
    if (!json || typeof json !== "object") return;
    // Questions listed or read: known from then on (quizzes made with inline questions answer only a count).
    const quizId = resolvedPath.id;
    if (quizId?.startsWith("quiz_") && plan.path.startsWith("/v1/quizzes/{id}/questions") && plan.method === "GET") {
      for (const q of Array.isArray(json.questions) ? json.questions : [json])
        if (typeof q?.id === "string" && q.id.startsWith("qst_")) this.addQuestion(quizId, q.id, { type: q.type, ...listIds(q) });
    }
    if (typeof json.next_cursor === "string") {
      const list = this.cursors.get(plan.path) ?? [];
      FuzzState.pushCapped(list, json.next_cursor);
      this.cursors.set(plan.path, list);
    }
    if (status === 201 && typeof json.id === "string") {
      const kind = Object.entries(ID_PREFIX).find(([, p]) => json.id.startsWith(`${p}_`))?.[0];
      if (kind === "question" && resolvedPath.id)
        this.addQuestion(resolvedPath.id, json.id, { type: json.type, ...listIds(json) });
      else if (kind) this.add(kind, json.id);
      if (kind === "submission" && typeof json.quiz_id === "string") this.submissionQuiz.set(json.id, json.quiz_id);
      if (kind === "oauthClient" && typeof json.client_secret === "string") this.clientSecrets.set(json.id, json.client_secret);
    }
    if (op === "POST /v1/oauth-clients/{id}/rotate-secret" && typeof json.client_secret === "string")
      this.clientSecrets.set(json.id, json.client_secret);
    if (op === "POST /oauth/token") {
      if (typeof json.access_token === "string") FuzzState.pushCapped(this.accessTokens, json.access_token);
      if (typeof json.refresh_token === "string") FuzzState.pushCapped(this.refreshTokens, json.refresh_token);
    }
  }

  // -------------------------------------------------------------------------------------------
  // Filling in placeholders.

  private choose<T>(list: T[], pick: number): T | undefined {
    return list.length === 0 ? undefined : list[Math.floor(pick * list.length) % list.length];
  }

  private resolveRef(r: Ref, ctx: Context): unknown {
    const prefix = ID_PREFIX[r.kind];
    switch (r.kind) {
      case "question": {
        const ofQuiz = ctx.quizId ? (this.questionsByQuiz.get(ctx.quizId) ?? []) : [];
        // Mostly a question of the quiz in the path; sometimes another quiz's (→ 400 or 404).
        const pool = ofQuiz.length > 0 && r.pick < 0.85 ? ofQuiz : this.ids.question!;
        // One answer per question: a question already answered in this request is taken last.
        const fresh = pool.filter((q) => !ctx.used?.has(q));
        const id = this.pickId("question", fresh.length > 0 ? fresh : pool, r);
        ctx.used?.add(id);
        return id;
      }
      case "clientSecret": {
        const id = ctx.clientId ?? this.choose([...this.clientSecrets.keys()], r.pick);
        return (id && this.clientSecrets.get(id)) ?? "qz_cs_unknown";
      }
      case "basicAuth": {
        const id = this.choose([...this.clientSecrets.keys()], r.pick) ?? absentId("cli", r.pick);
        const enc = (v: string) => new URLSearchParams({ v }).toString().slice(2);
        return `Basic ${btoa(`${enc(id)}:${enc(this.clientSecrets.get(id) ?? "x")}`)}`;
      }
      case "accessToken":
        return this.choose(this.accessTokens, r.pick) ?? "qz_at_none";
      case "refreshToken":
        return this.choose(this.refreshTokens, r.pick) ?? "qz_rt_none";
      case "token":
        return this.choose([...this.accessTokens, ...this.refreshTokens], r.pick) ?? "qz_at_none";
      case "cursor":
        return ctx.path ? this.choose(this.cursors.get(ctx.path) ?? [], r.pick) : undefined;
      case "response":
        return this.responseFor(ctx.questionId, r.pick);
      default:
        return this.pickId(r.kind, this.ids[r.kind] ?? [], r, prefix);
    }
  }

  private pickId(kind: string, pool: string[], r: Ref, prefix = ID_PREFIX[kind as RefKind] ?? kind): string {
    const candidates = r.disposable ? pool.filter((id) => !this.anchors.has(id)) : pool;
    return this.choose(candidates, r.pick) ?? absentId(prefix, r.pick);
  }

  /** A response of the question's type: right or wrong, but of the type grading expects. */
  private responseFor(questionId: string | undefined, p: number): unknown {
    const info = questionId ? this.questionInfo.get(questionId) : undefined;
    const options = info?.optionIds.length ? info.optionIds : ["a", "b", "c"];
    switch (info?.type) {
      case "single_choice":
        return options[Math.floor(p * options.length)];
      case "multiple_choice":
        return options.filter((_, i) => Math.floor(p * 2 ** (i + 1)) % 2 === 1);
      case "true_false":
        return p < 0.5;
      case "short_text":
        return ["Paris", " paris ", "ＰＡＲＩＳ", "Lyon", "ﬁne"][Math.floor(p * 5)];
      case "numeric":
        return Math.round(p * 10000) / 100;
      case "ordering": {
        // A rotation of the items: a permutation, in place or not.
        const shift = Math.floor(p * options.length);
        return options.map((_, i) => options[(i + shift) % options.length]);
      }
      case "essay":
        return ["Because it is.", "", "  ", "A longer answer of several words."][Math.floor(p * 4)];
      case "fill_in_blanks":
        return Object.fromEntries(options.map((blank, i) => [blank, ["Paris", " paris ", "Lyon"][Math.floor(p * (i + 3)) % 3]]));
      case "matching": {
        const choices = info?.choiceIds?.length ? info.choiceIds : ["a"];
        return Object.fromEntries(
          options.map((prompt, i) => [prompt, choices[Math.floor(p * (i + 1) * choices.length) % choices.length]]),
        );
      }
      default:
        return "a";
    }
  }

  /** A deep copy of `value` with every Ref filled in (Literals stay for the serialiser). */
  resolve(value: unknown, ctx: Context): unknown {
    if (value instanceof Ref) return this.resolveRef(value, ctx);
    if (value instanceof Literal) return value;
    if (Array.isArray(value)) return value.map((v) => this.resolve(v, ctx));
    if (value && typeof value === "object") {
      const entries = Object.entries(value);
      const out: Record<string, unknown> = {};
      // Ids first, so that a response can fit its question and a secret its client.
      const local = { ...ctx };
      for (const [k, v] of entries) {
        if (k !== "question_id" && k !== "client_id") continue;
        const resolved = this.resolve(v, ctx);
        if (k === "question_id" && typeof resolved === "string") local.questionId = resolved;
        if (k === "client_id" && typeof resolved === "string") local.clientId = resolved;
        Object.defineProperty(out, k, { value: resolved, enumerable: true, writable: true, configurable: true });
      }
      for (const [k, v] of entries) {
        if (k === "question_id" || k === "client_id") continue;
        Object.defineProperty(out, k, { value: this.resolve(v, local), enumerable: true, writable: true, configurable: true });
      }
      // The original key order, on the wire too; a ref that resolves to nothing leaves its key out.
      return reorder(
        entries.map(([k]) => k),
        out,
      );
    }
    return value;
  }

  /** Special header values: `@bearer:admin`, `@bearer:low`, `@key:admin`, … */
  private headerValue(value: unknown, ctx: Context): string {
    const v = String(this.resolve(value, ctx));
    const special = /^@(bearer|bearer-lower|key):([a-z-]+)$/.exec(v);
    if (!special) return v;
    const [, scheme, which] = special;
    const credential =
      which === "access-token"
        ? (this.choose(this.accessTokens, 0.5) ?? "qz_at_none")
        : (this.credentials[which as keyof Credentials] ?? "qz_live_none");
    return scheme === "key" ? credential : `${scheme === "bearer-lower" ? "bearer" : "Bearer"} ${credential}`;
  }

  materialize(plan: Plan): { request: Materialized; resolvedPath: Record<string, string> } {
    const resolvedPath: Record<string, string> = {};
    const ctx: Context = { path: plan.path, used: new Set() };
    // A question's path names its quiz: the question is chosen first, then its own quiz (a
    // submission's path, a submission of that quiz when one is known).
    const { question_id: questionRef, ...others } = plan.pathParams;
    if (questionRef !== undefined) {
      resolvedPath.question_id = String(this.resolve(questionRef, ctx));
      const owner = this.questionQuiz.get(resolvedPath.question_id);
      if (others.id instanceof Ref && owner) {
        const ofQuiz = [...this.submissionQuiz].find(([, quiz]) => quiz === owner)?.[0];
        if (!plan.path.startsWith("/v1/submissions/")) resolvedPath.id = owner;
        else if (ofQuiz) resolvedPath.id = ofQuiz;
      }
    }
    for (const [name, value] of Object.entries(others)) {
      const v = resolvedPath[name] ?? String(this.resolve(value, ctx));
      resolvedPath[name] = v;
      if (name === "id" && v.startsWith("quiz_")) ctx.quizId = v;
      if (name === "id" && v.startsWith("sub_")) ctx.quizId = this.submissionQuiz.get(v);
    }
    const path = plan.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
      const v = resolvedPath[name] ?? "";
      return plan.rawPathParams ? v : encodeURIComponent(v);
    });
    const search = new URLSearchParams();
    for (const [k, v] of plan.query) {
      const resolved = this.resolve(v, ctx);
      if (resolved !== undefined && resolved !== null) search.append(k, String(resolved));
    }
    const qs = search.toString();
    const headers: [string, string][] = [];
    if (plan.auth === "admin") headers.push(["Authorization", `Bearer ${this.credentials.admin}`]);
    for (const [k, v] of plan.headers) headers.push([k, this.headerValue(v, ctx)]);

    let body: string | Uint8Array | undefined;
    let bodyLabel: string | undefined;
    if (plan.body) {
      const value = this.resolve(plan.body.value, ctx);
      const encoded = encodeBody(value, plan.body.encoding);
      body = encoded.body;
      bodyLabel = encoded.label;
      const contentType = plan.body.contentType === undefined ? encoded.contentType : plan.body.contentType;
      if (contentType !== null && !headers.some(([h]) => h.toLowerCase() === "content-type"))
        headers.push(["Content-Type", contentType]);
    }
    const bodyBytes = body === undefined ? 0 : typeof body === "string" ? new TextEncoder().encode(body).length : body.length;
    return {
      request: { method: plan.method, url: `${this.base}${path}${qs ? `?${qs}` : ""}`, headers, body, bodyLabel, bodyBytes },
      resolvedPath,
    };
  }
}

interface Context {
  /** Question ids this request has used already. */
  used?: Set<string>;
  path?: string;
  quizId?: string;
  questionId?: string;
  clientId?: string;
}

function reorder(keys: string[], values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of keys)
    if (values[k] !== undefined)
      Object.defineProperty(out, k, { value: values[k], enumerable: true, writable: true, configurable: true });
  return out;
}

// ---------------------------------------------------------------------------------------------
// Serialising bodies.

const MARK = "\u0001lit";

/** JSON text, with Literals spliced in where JSON.stringify cannot write them. */
function toJsonText(value: unknown): string {
  const literals: Literal[] = [];
  const text = JSON.stringify(value, (_, v) => {
    if (v instanceof Literal) {
      literals.push(v);
      return `${MARK}${literals.length - 1}`;
    }
    return v;
  });
  if (text === undefined) return "";
  return literals.length === 0 ? text : text.replace(/"\\u0001lit(\d+)"/g, (_, i: string) => literals[Number(i)]!.text);
}

function shorten(text: string): string {
  return text.length <= 600 ? text : `${text.slice(0, 300)}…[${text.length} chars]…${text.slice(-100)}`;
}

function encodeBody(
  value: unknown,
  encoding: Plan["body"] extends infer B ? (B extends { encoding: infer E } ? E : never) : never,
) {
  if (encoding.kind === "raw") return { body: encoding.text, label: `raw ${encoding.label}`, contentType: "application/json" };
  if (encoding.kind === "form") {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries((value ?? {}) as Record<string, unknown>)) {
      if (v === undefined) continue;
      params.append(k, typeof v === "string" ? v : v instanceof Literal ? v.text : JSON.stringify(v));
    }
    const text = params.toString();
    return { body: text, label: `form ${shorten(text)}`, contentType: "application/x-www-form-urlencoded" };
  }
  let text = toJsonText(value);
  const post = encoding.post;
  if (!post) return { body: text, label: shorten(text), contentType: "application/json" };
  switch (post.type) {
    case "truncate":
      text = text.slice(0, Math.max(1, Math.floor(text.length * post.fraction)));
      break;
    case "prefix":
      text = post.text + text;
      break;
    case "suffix":
      text += post.text;
      break;
    case "duplicate-key": {
      const first = /^\{"((?:[^"\\]|\\.)*)":/.exec(text)?.[1];
      if (first !== undefined) text = `${text.slice(0, -1)},"${first}":{"dup":[1,2]}}`;
      break;
    }
    case "invalid-utf8": {
      const bytes = new TextEncoder().encode(text);
      const at = text.indexOf('"') + 1;
      const out = new Uint8Array(bytes.length + 3);
      out.set(bytes.slice(0, at));
      out.set([0xff, 0xc0, 0x80], at);
      out.set(bytes.slice(at), at + 3);
      return { body: out, label: `${shorten(text)} with bytes ff c0 80 after the first quote`, contentType: "application/json" };
    }
  }
  return { body: text, label: `${post.type}: ${shorten(text)}`, contentType: "application/json" };
}
