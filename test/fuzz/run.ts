import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import fc from "fast-check";
import worker from "../../src/index";
import { type Answer, BASE, call, callRaw, defaultKey, seedApiKey } from "../support/call";
import { seedClient, workerFetch } from "../support/oauth-helpers";
import { checkAnswer } from "./checks";
import type { FuzzSummary } from "./format";
import { nearMisses } from "./mutations";
import { type Operation, type Plan, PlanFactory, readOperations, requestSchemas } from "./operations";
import { SchemaArbitraries } from "./schema-arbitrary";
import { FuzzState, listIds, type Materialized } from "./state";

export { formatSummary } from "./format";

/**
 * The fuzz run: reads GET /openapi.json through the worker, seeds real resources, then for
 * every operation sends fast-check-generated valid requests and near misses (fixed seed and
 * count), checks each answer (checks.ts) and returns a summary.
 */
export interface FuzzOptions {
  /** Requests to send in all, spread evenly over the operations. */
  runs: number;
  seed: number;
  /** Share of each operation's requests that are valid (the rest are near misses). */
  validShare?: number;
  /** Requests in flight at once (default 4). */
  concurrency?: number;
}

const REQUEST_TIMEOUT_MS = 30_000;
const MAX_FAILURES_KEPT = 40;

/** A stable 32-bit seed per operation and kind, so adding an operation does not move the others. */
function seedFor(seed: number, label: string): number {
  let h = seed ^ 0x9e3779b9;
  for (let i = 0; i < label.length; i++) h = Math.imul(h ^ label.charCodeAt(i), 0x01000193);
  return h | 0;
}

async function ok<Json>(res: Answer<Json, unknown>, what: string): Promise<Json> {
  if (res.status >= 300) throw new Error(`fuzz seeding: ${what} → ${res.status} ${res.text}`);
  return res.json;
}

/** Resources every operation can point at: a quiz with a question of each type, users, submissions, keys, a client, tokens. */
async function seed(state: FuzzState) {
  const quiz = await ok(
    await call("/v1/quizzes", {
      body: {
        title: "Fuzz anchor",
        settings: {
          feedback_bands: [
            { min_score: 0, message: "Try again" },
            { min_score: 50, message: "Passed" },
          ],
        },
        questions: [
          {
            type: "single_choice",
            prompt: "Capital of France?",
            options: [{ text: "Paris" }, { text: "Lyon" }],
            correct_option_id: "a",
          },
          {
            type: "multiple_choice",
            prompt: "Even numbers?",
            options: [{ text: "2" }, { text: "3" }, { text: "4" }],
            correct_option_ids: ["a", "c"],
            scoring: "partial",
          },
          { type: "true_false", prompt: "The sky is blue.", correct: true },
          { type: "short_text", prompt: "Capital of France, in words?", accepted_answers: ["Paris"] },
          { type: "numeric", prompt: "2 + 2?", correct_value: 4, tolerance: 0.5 },
          {
            type: "ordering",
            prompt: "Smallest first.",
            // Items without ids: the order as listed is the key (§6b).
            items: [{ text: "1" }, { text: "2" }, { text: "3" }],
            scoring: "partial",
          },
          {
            type: "matching",
            prompt: "Capitals.",
            prompts: [{ text: "France" }, { text: "Italy" }],
            choices: [
              { id: "a", text: "Paris" },
              { id: "b", text: "Rome" },
            ],
            correct_matches: { a: "a", b: "b" },
          },
          {
            type: "fill_in_blanks",
            prompt: "Complete.",
            text: "{{city}} is the capital of {{country}}.",
            blanks: [
              { id: "city", accepted_answers: ["Paris"] },
              { id: "country", accepted_answers: ["France"] },
            ],
          },
          { type: "essay", prompt: "Why?", points: 2, max_words: 20 },
        ],
      },
    }),
    "quiz",
  );
  const limited = await ok(
    await call("/v1/quizzes", {
      body: {
        title: "Fuzz one attempt",
        settings: { max_attempts: 1 },
        questions: [{ type: "true_false", prompt: "Yes?", correct: true }],
      },
    }),
    "quiz",
  );
  for (const q of [quiz, limited]) {
    state.add("quiz", q.id, true);
    const { questions } = await ok(await call(`/v1/quizzes/${q.id}/questions?limit=100`), "questions");
    for (const question of questions) state.addQuestion(q.id, question.id, { type: question.type, ...listIds(question) }, true);
  }
  for (const [name, email] of [
    ["Ada Fuzz", "ada.fuzz@example.com"],
    ["Grace Fuzz", "grace.fuzz@example.com"],
  ]) {
    state.add("user", (await ok(await call("/v1/users", { body: { name, email } }), "user")).id, true);
  }
  const [user] = state.ids.user!;
  const open = await ok(await call(`/v1/quizzes/${quiz.id}/submissions`, { body: { user_id: user, answers: [] } }), "submission");
  const graded = await ok(await call(`/v1/quizzes/${quiz.id}/submissions`, { body: { user_id: user } }), "submission");
  await ok(await call(`/v1/submissions/${graded.id}/grade`, { method: "POST" }), "grade");
  for (const s of [open, graded]) {
    state.add("submission", s.id, true);
    state.submissionQuiz.set(s.id, quiz.id);
  }
  state.add("apiKey", (await seedApiKey(["analytics:read"], { name: "fuzz target" })).id, true);
  const client = await seedClient(["quizzes:read", "submissions:read", "analytics:read"]);
  state.add("oauthClient", client.client_id, true);
  state.clientSecrets.set(client.client_id, client.client_secret);
  const tokens = await workerFetch(`${BASE}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "client_credentials",
      client_id: client.client_id,
      client_secret: client.client_secret,
    }),
  });
  const issued = (await tokens.json()) as { access_token: string; refresh_token: string };
  state.accessTokens.push(issued.access_token);
  state.refreshTokens.push(issued.refresh_token);
}

async function credentials() {
  const admin = await defaultKey();
  const low = (await seedApiKey(["quizzes:read"], { name: "fuzz low scope" })).key;
  const expired = (await seedApiKey(["admin"], { name: "fuzz expired", expiresAt: "2020-01-01T00:00:00.000Z" })).key;
  const revokedKey = await seedApiKey(["admin"], { name: "fuzz revoked" });
  await ok(await call(`/v1/api-keys/${revokedKey.id}`, { method: "DELETE" }), "revoke");
  return { admin, low, expired, revoked: revokedKey.key };
}

/**
 * The worker's own fetch handler (src/index.ts's default export), with an execution context
 * per request, as the runtime calls it. Not `exports.default.fetch`: through the pool's loopback
 * every call gets slower the more calls a test has made (≈8 ms per GET /health after 200 calls,
 * ≈80 ms after 600), which would cost a run of thousands of requests minutes.
 */
const pendingWork: Promise<void>[] = [];

async function send(req: Materialized): Promise<{ status: number; headers: Headers; text: string } | { unsendable: string }> {
  let request: Request;
  try {
    const headers = new Headers();
    for (const [k, v] of req.headers) headers.append(k, v);
    request = new Request(req.url, { method: req.method, headers, body: req.body });
  } catch (error) {
    return { unsendable: String(error) };
  }
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${REQUEST_TIMEOUT_MS} ms`)), REQUEST_TIMEOUT_MS);
  });
  try {
    const ctx = createExecutionContext();
    const response = await Promise.race([worker.fetch(request, env, ctx), timeout]);
    // Work after the response (KV writes, usage flushes) runs on; the run waits for it at the end.
    pendingWork.push(waitOnExecutionContext(ctx));
    // The bytes decoded as UTF-8 (what response.text() does), without workerd's warning for an
    // export's zip or NDJSON body.
    const text = new TextDecoder().decode(await response.arrayBuffer());
    return { status: response.status, headers: response.headers, text };
  } finally {
    clearTimeout(timer);
  }
}

/** The methods each path serves, for the wrong-method near misses. */
function methodsByPath(ops: Operation[]) {
  const out = new Map<string, string[]>();
  for (const op of ops) out.set(op.path, [...(out.get(op.path) ?? []), op.method]);
  return out;
}

export async function runFuzz(options: FuzzOptions): Promise<FuzzSummary> {
  const started = Date.now();
  const docRes = await callRaw("/openapi.json", { auth: false });
  if (docRes.status !== 200) throw new Error(`GET /openapi.json → ${docRes.status}`);
  const doc = docRes.json;
  const ops = readOperations(doc);
  const gen = new SchemaArbitraries(doc, requestSchemas(ops));
  const factory = new PlanFactory(doc, gen);
  const allowed = methodsByPath(ops);

  const state = new FuzzState(BASE, await credentials());
  await seed(state);

  // The same number of requests for every operation; within one, valid ones and near misses.
  // A little over the budget, so that requests the runtime refuses to build do not leave it short.
  const perOp = Math.max(2, Math.ceil((options.runs * 1.05) / ops.length));
  const validCount = Math.max(1, Math.round(perOp * (options.validShare ?? 0.4)));
  const plans = ops.map((op) => {
    const valid = factory.valid(op);
    const invalid = valid.chain((plan) => nearMisses(plan, op, doc, allowed.get(op.path) ?? []));
    const good = fc.sample(valid, { seed: seedFor(options.seed, `${op.key} valid`), numRuns: validCount });
    const bad = fc.sample(invalid, { seed: seedFor(options.seed, `${op.key} invalid`), numRuns: perOp - validCount });
    // Valid and near miss by turns, then whatever is left of the longer list.
    return Array.from(
      { length: perOp },
      (_, i) => (i % 2 === 0 && good.length > 0 ? good.shift() : bad.shift()) ?? good.shift()!,
    );
  });
  // Operation after operation, so that what one does (a new quiz, a deleted user) meets the others.
  const order: { op: Operation; plan: Plan }[] = [];
  for (let i = 0; i < perOp; i++) ops.forEach((op, j) => order.push({ op, plan: plans[j]![i]! }));

  const summary: FuzzSummary = {
    seed: options.seed,
    runs: options.runs,
    sent: 0,
    unsendable: 0,
    durationMs: 0,
    operations: ops.length,
    statuses: {},
    byMutation: {},
    failureCount: 0,
    failures: [],
    undocumented: {},
    msByKind: {},
    unsendableReasons: [],
    validByOp: {},
  };
  // A few requests in flight at once, as clients would send them (and the run stays fast).
  let next = 0;
  let claimed = 0;
  const client = async () => {
    while (next < order.length && claimed < options.runs) {
      const { op, plan } = order[next++]!;
      claimed++;
      if (!(await exercise(op, plan))) claimed--;
    }
  };
  const exercise = async (op: Operation, plan: Plan) => {
    const { request, resolvedPath } = state.materialize(plan);
    const sendStarted = Date.now();
    const answer = await send(request).catch((error: unknown) => ({ status: 0, headers: new Headers(), text: String(error) }));
    if ("unsendable" in answer) {
      summary.unsendable++;
      if (summary.unsendableReasons.length < 5) summary.unsendableReasons.push(`${plan.mutation}: ${answer.unsendable}`);
      return false;
    }
    summary.sent++;
    const kind = plan.mutation.replace(/-\d+KiB$/, "");
    summary.msByKind[kind] = (summary.msByKind[kind] ?? 0) + (Date.now() - sendStarted);
    summary.statuses[answer.status] = (summary.statuses[answer.status] ?? 0) + 1;
    const byStatus = (summary.byMutation[kind] ??= {});
    byStatus[answer.status] = (byStatus[answer.status] ?? 0) + 1;
    if (kind === "valid") {
      const byOp = (summary.validByOp[op.key] ??= {});
      byOp[answer.status] = (byOp[answer.status] ?? 0) + 1;
    }
    let json: unknown;
    try {
      json = answer.text ? JSON.parse(answer.text) : undefined;
    } catch {
      json = undefined;
    }
    state.learn(plan, resolvedPath, answer.status, json, answer.headers.get("idempotent-replayed") === "true");
    const findings =
      answer.status === 0 ? { failures: [`no answer: ${answer.text}`] } : checkAnswer(doc, op, plan, request, answer);
    if (plan.repeat && answer.status > 0 && answer.status < 500) {
      // The same request again, with the same Idempotency-Key: the stored answer, marked as a replay.
      const again = await send(request).catch((error: unknown) => ({ status: 0, headers: new Headers(), text: String(error) }));
      if ("unsendable" in again) findings.failures.push(`the repeat could not be sent: ${again.unsendable}`);
      else {
        summary.sent++;
        if (again.headers.get("idempotent-replayed") !== "true")
          findings.failures.push(`the repeat (→ ${again.status}) is not marked Idempotent-Replayed`);
        if (again.status !== answer.status || again.text !== answer.text)
          findings.failures.push(`the repeat answered ${again.status} ${again.text.slice(0, 200)}, not the first answer`);
        if (answer.headers.get("idempotent-replayed") !== null)
          findings.failures.push("the first answer is marked Idempotent-Replayed");
      }
    }
    if ("undocumented" in findings && findings.undocumented) {
      const key = `${findings.undocumented} [${kind}]`;
      summary.undocumented[key] = (summary.undocumented[key] ?? 0) + 1;
    }
    if (findings.failures.length > 0) {
      summary.failureCount++;
      if (summary.failures.length < MAX_FAILURES_KEPT)
        summary.failures.push({
          op: op.key,
          mutation: plan.mutation,
          problems: findings.failures,
          request: {
            method: request.method,
            url: request.url,
            headers: request.headers.map(([k, v]) => [k, redact(k, v)]),
            body: request.bodyLabel,
            bodyBytes: request.bodyBytes,
          },
          status: answer.status,
          answer: answer.text.slice(0, 500),
        });
    }
    return true;
  };
  await Promise.all(Array.from({ length: options.concurrency ?? 4 }, client));
  await Promise.allSettled(pendingWork.splice(0));
  summary.durationMs = Date.now() - started;
  return summary;
}

/** Keys in reports are shortened: enough to tell which, not enough to use. */
function redact(name: string, value: string): string {
  if (/authorization|x-api-key/i.test(name))
    return value
      .replace(/(qz_(?:live|at|rt)_)[A-Za-z0-9]{6,}/g, "$1…")
      .replace(/^(Basic )[A-Za-z0-9+/=]{12,}$/i, "$1… (a seeded client's id and secret)")
      .slice(0, 120);
  return value.length > 200 ? `${value.slice(0, 200)}…` : value;
}
