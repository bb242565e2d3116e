import { env } from "cloudflare:workers";
import { zipSync } from "fflate";
import { expect } from "vitest";
import { bytes, QTI } from "../../interchange/fixtures";
import { call, type Schema } from "../../support/call";

/** POST /v1/imports with the file as the raw body. */
export function upload(
  file: Uint8Array | string,
  mediaType: string,
  query = "",
  options: { auth?: string | false; headers?: Record<string, string> } = {},
) {
  const body = typeof file === "string" ? bytes(file) : file;
  return call(query ? `/v1/imports?${query}` : "/v1/imports", {
    method: "POST",
    raw: body,
    headers: { "content-type": mediaType, ...options.headers },
    auth: options.auth,
  });
}

/** Polls the job until the real jobs queue has finished it. */
export async function finished(jobId: string, timeoutMs = 30_000): Promise<Schema<"ImportJob">> {
  const started = Date.now();
  for (;;) {
    const res = await call(`/v1/jobs/${jobId}`);
    expect(res.status, res.text).toBe(200);
    // An import's job (the only kind these tests start).
    if (res.json.status === "succeeded" || res.json.status === "failed") return res.json as Schema<"ImportJob">;
    if (Date.now() - started > timeoutMs) throw new Error(`job ${jobId} still ${res.json.status}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Uploads the file, checks the 202 and its Location, and waits for the job. */
export async function imported(file: Uint8Array | string, mediaType: string, query = "") {
  const res = await upload(file, mediaType, query);
  expect(res.status, res.text).toBe(202);
  expect(res.headers.get("location")).toBe(`/v1/jobs/${res.json.id}`);
  expect(res.json).toMatchObject({ type: "import", status: "queued", result: null, error: null });
  return finished(res.json.id);
}

/** Every question of a quiz, in order (quizzes:write: keys included). */
export async function questionsOf(quizId: string) {
  const res = await call(`/v1/quizzes/${quizId}/questions?limit=100`);
  expect(res.status, res.text).toBe(200);
  const out = [...res.json.questions];
  let cursor = res.json.next_cursor;
  while (cursor) {
    const page = await call(`/v1/quizzes/${quizId}/questions?limit=100&cursor=${cursor}`);
    out.push(...page.json.questions);
    cursor = page.json.next_cursor;
  }
  return out;
}

/** The events of a type about an object, or, for question.created, about any question of the quiz. */
export async function eventsAbout(
  type: string,
  match: (object: Schema<"Event">["data"]["object"]) => boolean,
): Promise<Schema<"Event">[]> {
  const res = await call(`/v1/events?type=${type}&limit=100`);
  expect(res.status, res.text).toBe(200);
  return res.json.events.filter((e) => match(e.data.object));
}

/** Rows of the tables an import writes, and the files waiting in R2: what a refused import must leave as it was. */
export async function footprint() {
  const count = async (table: string) =>
    (await env.DB.prepare(`SELECT count(*) AS n FROM ${table}`).first<{ n: number }>())?.n ?? 0;
  const listed = await env.UPLOADS.list({ prefix: "imports/" });
  return {
    quizzes: await count("quizzes"),
    questions: await count("questions"),
    versions: await count("question_versions"),
    events: await count("events"),
    uploads: listed.objects.length,
  };
}

/** The fixture package: manifest, test, and the items its test refers to (one of its references is missing). */
export const fixturePackage = () =>
  zipSync({
    "imsmanifest.xml": bytes(QTI.package.manifest),
    "tests/warm-up.xml": bytes(QTI.package.test),
    "items/order-v3.xml": bytes(QTI.orderV3),
    "items/true-false-v3.xml": bytes(QTI.trueFalseV3),
  });
