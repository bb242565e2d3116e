// The program `npm run client:smoke` (scripts/client-smoke.ts) runs in two projects of its own
// outside the repository, one an ES module and one CommonJS, each with nothing but the packed
// @quiz-api/client and its dependencies installed. Against a local worker it proves each helper on
// real answers: paginate() over several pages, a real 429 waited out and retried, a POST whose
// answer was lost (a dropped connection, a 503) sent again with the same Idempotency-Key and
// answered by the replay, the client-credentials provider (one token for concurrent calls, renewed
// after a revocation), and the bookmark echo. Any failed check exits non-zero.
//
//   node out/main.js <base URL> <admin API key> <label>
import { clientCredentials, type components, createQuizClient, type FetchLike, type ListItem, paginate } from "@quiz-api/client";

declare const process: { argv: string[]; exitCode?: number };
const [baseUrl = "", apiKey = "", label = "smoke"] = process.argv.slice(2);
const run = `${label}-${Date.now().toString(36)}`;

function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message);
}
const say = (line: string) => console.log(`  [${label}] ${line}`);

interface Attempt {
  /** The X-Smoke-Call header: which call of the program this attempt belongs to. */
  call: string | null;
  method: string;
  url: string;
  authorization: string | null;
  idempotencyKey: string | null;
  bookmark: string | null;
  sentAt: number;
  answeredAt: number;
  /** The worker's status, or 0 when the connection failed. */
  status: number;
  retryAfter: string | null;
  replayed: string | null;
  wwwAuthenticate: string | null;
  /** What the program made of the answer: passed on, or replaced by a dropped connection or a 503. */
  delivered: "as answered" | "dropped" | "503";
}

/**
 * A fetch that records every attempt the client sends (retries included) and may replace the
 * worker's answer, after the worker handled the request, by a dropped connection or a 503.
 */
function observed(replace?: (request: Request, response: Response) => "dropped" | "503" | undefined) {
  const attempts: Attempt[] = [];
  const send: FetchLike = async (request) => {
    const sentAt = Date.now();
    const headers = request.headers;
    const response = await fetch(request);
    const delivered = replace?.(request, response) ?? "as answered";
    attempts.push({
      call: headers.get("X-Smoke-Call"),
      method: request.method,
      url: request.url,
      authorization: headers.get("Authorization"),
      idempotencyKey: headers.get("Idempotency-Key"),
      bookmark: headers.get("X-D1-Bookmark"),
      sentAt,
      answeredAt: Date.now(),
      status: response.status,
      retryAfter: response.headers.get("Retry-After"),
      replayed: response.headers.get("Idempotent-Replayed"),
      wwwAuthenticate: response.headers.get("WWW-Authenticate"),
      delivered,
    });
    if (delivered === "dropped") {
      await response.body?.cancel();
      throw new TypeError("fetch failed: the connection dropped after the worker answered");
    }
    if (delivered === "503") {
      await response.body?.cancel();
      return new Response(JSON.stringify({ code: "unavailable" }), { status: 503 });
    }
    return response;
  };
  return { attempts, fetch: send };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const admin = createQuizClient({ baseUrl, apiKey });

async function paginates() {
  const questions = Array.from({ length: 7 }, (_, i) => ({
    type: "true_false" as const,
    prompt: `Statement ${i + 1} of ${run}`,
    correct: i % 2 === 0,
  }));
  const created = await admin.POST("/v1/quizzes", { body: { title: `Pages ${run}`, questions } });
  check(created.data, `POST /v1/quizzes → ${created.response.status}: ${JSON.stringify(created.error)}`);
  const quiz: components["schemas"]["CreatedQuiz"] = created.data;
  // @ts-expect-error the types are the document's, not any: a quiz has no such field
  void quiz.no_such_field;

  const watch = observed();
  const client = createQuizClient({ baseUrl, apiKey, fetch: watch.fetch });
  const seen: ListItem<"/v1/quizzes/{id}/questions">[] = [];
  for await (const question of paginate(client, "/v1/quizzes/{id}/questions", {
    params: { path: { id: quiz.id }, query: { limit: 3 } },
  }))
    seen.push(question);
  const pages = watch.attempts.filter((a) => a.status === 200).map((a) => new URL(a.url).searchParams);
  check(
    JSON.stringify(seen.map((q) => q.id)) === JSON.stringify(quiz.question_ids),
    `paginate gave ${JSON.stringify(seen.map((q) => q.id))}, the quiz has ${JSON.stringify(quiz.question_ids)}`,
  );
  check(
    pages.length === 3 && pages.every((p) => p.get("limit") === "3") && !pages[0]?.has("cursor") && pages[2]?.has("cursor"),
    `expected 3 pages of 3 with cursors, got ${pages.map((p) => p.toString()).join(" | ")}`,
  );
  say(`paginate: ${seen.length} questions of ${quiz.id} over ${pages.length} pages of limit 3, in order`);
}

async function retriesARealRateLimit() {
  const created = await admin.POST("/v1/api-keys", { body: { name: `burst ${run}`, scopes: ["quizzes:read"] } });
  check(created.data, `POST /v1/api-keys → ${created.response.status}`);
  const watch = observed();
  // Attempts to spare: 25 calls at 10 a second need three windows, and a slow machine may miss one.
  const client = createQuizClient({ baseUrl, apiKey: created.data.key, fetch: watch.fetch, retry: { maxAttempts: 6 } });
  // More calls at once than the worker's limit per window: some are refused with a 429.
  const calls = 25;
  const answers = await Promise.all(
    Array.from({ length: calls }, (_, i) => client.GET("/v1/auth/verify", { headers: { "X-Smoke-Call": String(i) } })),
  );
  const statuses = answers.map((a) => a.response.status);
  check(
    statuses.every((s) => s === 200),
    `after retries every call should answer 200, got ${JSON.stringify(statuses)}`,
  );
  const refused = watch.attempts.filter((a) => a.status === 429);
  check(refused.length > 0, "no 429 was provoked: is RATE_LIMIT_REQUESTS small enough?");
  for (const attempt of refused) {
    check(attempt.retryAfter !== null && /^\d+$/.test(attempt.retryAfter), `a 429 without Retry-After: ${attempt.retryAfter}`);
    const next = watch.attempts.find((a) => a.call === attempt.call && a.sentAt >= attempt.answeredAt);
    check(next, `call ${attempt.call} was not retried after its 429`);
    const waited = next.sentAt - attempt.answeredAt;
    check(waited >= Number(attempt.retryAfter) * 1000 - 5, `retried after ${waited} ms, Retry-After was ${attempt.retryAfter} s`);
  }
  const retriedCalls = new Set(refused.map((a) => a.call));
  say(
    `429: ${refused.length} refusals (Retry-After ${[...new Set(refused.map((a) => a.retryAfter))].join("/")} s) ` +
      `over ${retriedCalls.size} of ${calls} calls, each retried after its Retry-After; all ${calls} answered 200`,
  );
}

async function replaysALostAnswer(failure: "dropped" | "503") {
  let failed = false;
  const watch = observed((request, response) => {
    if (failed || request.method !== "POST" || response.status !== 201) return undefined;
    failed = true;
    return failure;
  });
  const client = createQuizClient({ baseUrl, apiKey, fetch: watch.fetch, retry: { baseDelayMs: 100 } });
  const title = `Once ${failure} ${run}`;
  const { data, response } = await client.POST("/v1/quizzes", { body: { title } });
  check(data, `POST /v1/quizzes → ${response.status}`);
  const posts = watch.attempts.filter((a) => a.method === "POST");
  const keys = new Set(posts.map((a) => a.idempotencyKey));
  const handled = posts.find((a) => a.delivered === failure);
  check(handled?.status === 201, `the first attempt should have been handled (201) and then lost: ${JSON.stringify(posts)}`);
  check(keys.size === 1 && UUID.test([...keys][0] ?? ""), `the retries carried other keys: ${JSON.stringify([...keys])}`);
  check(
    response.status === 201 && response.headers.get("Idempotent-Replayed") === "true",
    `the retry was not answered by the replay: ${response.status}, Idempotent-Replayed ${response.headers.get("Idempotent-Replayed")}`,
  );
  let copies = 0;
  for await (const quiz of paginate(admin, "/v1/quizzes", { params: { query: { limit: 100 } } }))
    if (quiz.title === title) copies += 1;
  check(copies === 1, `${copies} quizzes titled "${title}": the POST ran more than once`);
  say(
    `Idempotency-Key: answer ${failure === "dropped" ? "lost to a dropped connection" : "replaced by a 503"} after the worker created ${data.id}; ` +
      `${posts.length} attempts with one key, the retry answered by the replay (Idempotent-Replayed: true), one quiz`,
  );
}

async function clientCredentialsRenew() {
  const created = await admin.POST("/v1/oauth-clients", { body: { name: `smoke ${run}`, scopes: ["quizzes:read"] } });
  check(created.data, `POST /v1/oauth-clients → ${created.response.status}`);
  const { client_id: clientId, client_secret: clientSecret } = created.data;
  const tokenWatch = observed();
  const tokenRequests = () => tokenWatch.attempts.length;
  const tokenProvider = clientCredentials({ baseUrl, clientId, clientSecret, fetch: tokenWatch.fetch });
  const apiWatch = observed();
  const client = createQuizClient({ baseUrl, tokenProvider, fetch: apiWatch.fetch });

  const answers = await Promise.all(Array.from({ length: 5 }, () => client.GET("/v1/auth/verify")));
  check(
    answers.every((a) => a.data?.credential.type === "access_token"),
    `verify with an access token: ${JSON.stringify(answers.map((a) => a.response.status))}`,
  );
  check(tokenRequests() === 1, `5 calls at once made ${tokenRequests()} token requests, not 1`);

  // Revoked behind the client's back: the next call gets 401 invalid_token, renews, and succeeds.
  const first = await tokenProvider.getToken();
  const revoked = await fetch(`${baseUrl}/oauth/revoke`, {
    method: "POST",
    headers: {
      Authorization: `Basic ${btoa(`${clientId}:${clientSecret}`)}`,
      "Content-Type": "application/x-www-form-urlencoded",
    },
    body: new URLSearchParams({ token: first }).toString(),
  });
  check(revoked.status === 200, `POST /oauth/revoke → ${revoked.status}`);
  const after = await client.GET("/v1/auth/verify");
  check(after.response.status === 200, `after the revocation → ${after.response.status}`);
  const refused = apiWatch.attempts.find((a) => a.status === 401);
  check(refused?.wwwAuthenticate?.includes('error="invalid_token"'), "the revoked token was not refused with invalid_token");
  const last = apiWatch.attempts.at(-1);
  check(tokenRequests() === 2 && last?.authorization !== `Bearer ${first}`, "the token was not renewed");
  say("client credentials: 5 calls at once, 1 token request; revoked token → 401 invalid_token → renewed once → 200");
}

async function echoesBookmarks() {
  const watch = observed();
  const client = createQuizClient({ baseUrl, apiKey, fetch: watch.fetch });
  const created = await client.POST("/v1/quizzes", { body: { title: `Bookmark ${run}` } });
  check(created.data, `POST /v1/quizzes → ${created.response.status}`);
  await client.GET("/v1/quizzes/{id}", { params: { path: { id: created.data.id } } });
  const written = created.response.headers.get("X-D1-Bookmark");
  const sentWith = (method: string) => watch.attempts.filter((a) => a.method === method).map((a) => a.bookmark);
  const [posted, read] = [sentWith("POST"), sentWith("GET")];
  check(
    written && posted.every((b) => b === null) && read.length > 0 && read.every((b) => b === written),
    `bookmark not echoed: ${JSON.stringify({ written, posted, read })}`,
  );
  const refused = await createQuizClient({ baseUrl, apiKey: "qz_live_wrong" }).GET("/v1/quizzes");
  check(refused.response.status === 401, `a wrong key → ${refused.response.status}`);
  say("bookmark: the write's X-D1-Bookmark went with the next read; a wrong key → 401");
}

async function main() {
  await paginates();
  await retriesARealRateLimit();
  await replaysALostAnswer("dropped");
  await replaysALostAnswer("503");
  await clientCredentialsRenew();
  await echoesBookmarks();
}

main().then(
  () => say("all checks passed"),
  (error: unknown) => {
    console.error(`  [${label}] FAILED: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  },
);
