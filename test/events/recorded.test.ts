import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "../../src/lib/crypto";
import { withoutQuestionViews } from "../routes/submissions/fixtures";
import { type AnswerOf, type CallOptions, call, expectProblem, type KnownPath, type Schema } from "../support/call";

/**
 * §7 "Exactly recorded": every change the API makes writes its event in the same D1 batch. The
 * events are read straight from D1 here (the outbox table), so these tests see what was
 * committed, not what an endpoint shows of it.
 */

interface StoredEvent {
  id: string;
  type: string;
  created_at: string;
  object: Schema<"Event">["data"]["object"];
  previous: Schema<"Event">["previous_attributes"] | null;
  user_id: string | null;
  /** The stored data and previous_attributes, as text: what secrets are searched for. */
  raw: string;
}

interface EventRow {
  id: string;
  type: string;
  created_at: string;
  data: string;
  previous_attributes: string | null;
  user_id: string | null;
}

const toEvent = (row: EventRow): StoredEvent => ({
  id: row.id,
  type: row.type,
  created_at: row.created_at,
  object: JSON.parse(row.data).object,
  previous: row.previous_attributes === null ? null : JSON.parse(row.previous_attributes),
  user_id: row.user_id,
  raw: `${row.data}\n${row.previous_attributes ?? ""}`,
});

/** The events whose object is the resource `objectId`, oldest first (optionally of one type). */
async function eventsOf(objectId: string, type?: string): Promise<StoredEvent[]> {
  const { results } = await env.DB.prepare(
    "SELECT * FROM events WHERE json_extract(data, '$.object.id') = ?1 AND (?2 IS NULL OR type = ?2) ORDER BY id",
  )
    .bind(objectId, type ?? null)
    .all<EventRow>();
  return results.map(toEvent);
}

/** The one event of `type` for `objectId`. */
async function theEvent(objectId: string, type: string): Promise<StoredEvent> {
  const found = await eventsOf(objectId, type);
  expect(found, `${type} of ${objectId}`).toHaveLength(1);
  return found[0]!;
}

async function eventCount(): Promise<number> {
  const row = await env.DB.prepare("SELECT count(*) AS n FROM events").first<{ n: number }>();
  return row?.n ?? 0;
}

async function allEventsText(): Promise<string> {
  const { results } = await env.DB.prepare("SELECT * FROM events").all<EventRow>();
  return results.map((r) => toEvent(r).raw).join("\n");
}

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const EVT_ID = /^evt_[0-7][0-9a-hjkmnp-tv-z]{25}$/;
/** Every field a question's answer key lives in (docs/webhooks.md: never in an event). */
const KEY_FIELDS = ["correct_option_id", "correct_option_ids", "correct", "correct_value", "tolerance", "accepted_answers"];

const tf = (prompt: string) => ({ type: "true_false", prompt, correct: true });
const single = { type: "single_choice", prompt: "2 + 2?", options: [{ text: "3" }, { text: "4" }], correct_option_id: "b" };
const numeric = { type: "numeric", prompt: "Pi?", correct_value: 3.14, tolerance: 0.01 };

async function ok<P extends KnownPath, const O extends CallOptions = object>(
  path: P,
  options?: O,
  status = 200,
): Promise<AnswerOf<P, O>["json"]> {
  const res = await call(path, options);
  expect(res.status, `${path}: ${res.text}`).toBe(status);
  return res.json;
}

const createQuiz = (body: Record<string, unknown> = {}) =>
  ok("/v1/quizzes", { body: { title: `Events ${crypto.randomUUID()}`, ...body } }, 201);
const createUser = (name = "Ada Lovelace") =>
  ok("/v1/users", { body: { name, email: `ada-${crypto.randomUUID()}@example.com` } }, 201);

/** The question as GET shows it to a key holder, without its key: what its events must carry. */
async function questionWithoutKey(quizId: string, questionId: string) {
  const shown: Record<string, unknown> = await ok(`/v1/quizzes/${quizId}/questions/${questionId}`);
  for (const field of KEY_FIELDS) delete shown[field];
  return shown;
}

function expectNoAnswerKey(event: StoredEvent) {
  for (const field of KEY_FIELDS) {
    expect(event.object, `${event.type} object`).not.toHaveProperty(field);
    if (event.previous) expect(event.previous, `${event.type} previous_attributes`).not.toHaveProperty(field);
  }
}

describe("quiz events", () => {
  it("POST /v1/quizzes records quiz.created and one question.created per inline question", async () => {
    const quiz = await createQuiz({ questions: [single, numeric, tf("Wet?")] });
    const created = await theEvent(quiz.id, "quiz.created");
    expect(created.id).toMatch(EVT_ID);
    expect(created.created_at).toMatch(ISO_MS);
    // The quiz exactly as POST /v1/quizzes answered it (question_ids included), which GET reads back.
    const { question_ids, ...shown } = quiz;
    expect(created.object).toEqual(quiz);
    expect(shown).toEqual(await ok(`/v1/quizzes/${quiz.id}`));
    expect(created.previous).toBeNull();
    for (const [i, questionId] of (question_ids as string[]).entries()) {
      const event = await theEvent(questionId, "question.created");
      expect(event.object).toEqual(await questionWithoutKey(quiz.id, questionId));
      expect(event.object.position).toBe(i + 1);
      expectNoAnswerKey(event);
      expect(event.id > created.id).toBe(true);
    }
  });

  it("PATCH records quiz.updated with the values it replaced", async () => {
    const quiz = await createQuiz({ title: "Before", settings: { max_attempts: 2 } });
    const patched = await ok(`/v1/quizzes/${quiz.id}`, {
      method: "PATCH",
      body: { title: "After", settings: { max_attempts: 4 } },
    });
    const event = await theEvent(quiz.id, "quiz.updated");
    expect(event.object).toEqual(patched);
    expect(event.object).toEqual(await ok(`/v1/quizzes/${quiz.id}`));
    expect(event.previous).toEqual({ title: "Before", settings: { ...patched.settings, max_attempts: 2 } });
    expect(patched.updated_at > quiz.updated_at).toBe(true);
  });

  it("DELETE records quiz.deleted with the quiz as it was", async () => {
    const quiz = await createQuiz({ questions: [tf("A"), tf("B")] });
    const before = await ok(`/v1/quizzes/${quiz.id}`);
    await ok(`/v1/quizzes/${quiz.id}`, { method: "DELETE" }, 204);
    expect((await theEvent(quiz.id, "quiz.deleted")).object).toEqual(before);
  });

  it("an invalid body → 400 and no event", async () => {
    const before = await eventCount();
    expectProblem(await call("/v1/quizzes", { body: { title: "", questions: [single] } }), 400, "validation_failed");
    expectProblem(await call("/v1/quizzes", { body: { title: "x", questions: [{ ...single, correct_option_id: "z" }] } }), 400);
    expect(await eventCount()).toBe(before);
  });

  it("DELETE of a quiz with submissions → 409 and no event", async () => {
    const quiz = await createQuiz({ questions: [tf("A")] });
    const user = await createUser();
    await ok(`/v1/quizzes/${quiz.id}/submissions`, { body: { user_id: user.id } }, 201);
    const before = await eventCount();
    expectProblem(await call(`/v1/quizzes/${quiz.id}`, { method: "DELETE" }), 409, "quiz_has_submissions");
    expect(await eventCount()).toBe(before);
    expect(await eventsOf(quiz.id, "quiz.deleted")).toEqual([]);
  });
});

describe("question events", () => {
  it("POST records question.created at the position SQL gave it, without the key", async () => {
    const quiz = await createQuiz({ questions: [tf("A"), tf("B")] });
    const first = await ok(`/v1/quizzes/${quiz.id}/questions`, { body: { ...single, position: 1 } }, 201);
    // Adding a question marks the quiz changed, always later than before (a quiz PATCH racing it retries).
    const touched = (await ok(`/v1/quizzes/${quiz.id}`)).updated_at;
    expect(touched).toMatch(ISO_MS);
    expect(touched > quiz.updated_at).toBe(true);
    const last = await ok(`/v1/quizzes/${quiz.id}/questions`, { body: numeric }, 201);
    for (const [question, position] of [
      [first, 1],
      [last, 4],
    ] as const) {
      const event = await theEvent(question.id, "question.created");
      expect(event.object.position).toBe(position);
      expect(event.object).toEqual(await questionWithoutKey(quiz.id, question.id));
      expectNoAnswerKey(event);
    }
  });

  it("PATCH records question.updated with previous_attributes, never the key", async () => {
    const quiz = await createQuiz({ questions: [single, tf("B"), tf("C")] });
    const [id] = quiz.question_ids as string[];
    const path: `/v1/quizzes/${string}/questions/${string}` = `/v1/quizzes/${quiz.id}/questions/${id}`;
    await ok(path, { method: "PATCH", body: { prompt: "Two plus two?", points: 2 } });
    await ok(path, { method: "PATCH", body: { correct_option_id: "a" } });
    const moved = await ok(path, { method: "PATCH", body: { position: 3 } });
    const [text, key, move] = await eventsOf(id!, "question.updated");
    // Points are graded: a new version.
    expect(text!.previous).toEqual({ prompt: "2 + 2?", points: 1, version: 1 });
    expect(text!.object).toMatchObject({ prompt: "Two plus two?", points: 2, position: 1 });
    // A changed key shows only as a new version: the key itself is in no event.
    expect(key!.previous).toEqual({ version: 2 });
    expect(key!.object.version).toBe(3);
    expect(move!.previous).toEqual({ position: 1 });
    expect(move!.object.position).toBe(3);
    expect(move!.object).toEqual(await questionWithoutKey(quiz.id, moved.id));
    for (const event of [text!, key!, move!]) expectNoAnswerKey(event);
  });

  it("DELETE records question.deleted with the question as it was", async () => {
    const quiz = await createQuiz({ questions: [tf("A"), numeric] });
    const id = quiz.question_ids[1] as string;
    const before = await questionWithoutKey(quiz.id, id);
    await ok(`/v1/quizzes/${quiz.id}/questions/${id}`, { method: "DELETE" }, 204);
    const event = await theEvent(id, "question.deleted");
    expect(event.object).toEqual(before);
    expectNoAnswerKey(event);
  });

  it("concurrent moves and deletes each record one event with the positions they replaced", async () => {
    const quiz = await createQuiz({ questions: Array.from({ length: 6 }, (_, i) => tf(`Q${i}`)) });
    const ids = quiz.question_ids as string[];
    const at = (i: number): `/v1/quizzes/${string}/questions/${string}` => `/v1/quizzes/${quiz.id}/questions/${ids[i]}`;
    const results = await Promise.all([
      call(at(0), { method: "PATCH", body: { position: 6 } }),
      call(at(5), { method: "PATCH", body: { position: 1 } }),
      call(at(2), { method: "DELETE" }),
    ]);
    expect(results.map((r) => r.status)).toEqual([200, 200, 204]);
    for (const i of [0, 5]) {
      const event = await theEvent(ids[i]!, "question.updated");
      expect(event.object.position).toBe(results[i === 0 ? 0 : 1]!.json.position);
    }
    expect((await theEvent(ids[2]!, "question.deleted")).object.prompt).toBe("Q2");
  });
});

describe("user events", () => {
  it("create, update and delete record user.* events with user_id", async () => {
    const user = await createUser("Ada Lovelace");
    const patched = await ok(`/v1/users/${user.id}`, { method: "PATCH", body: { name: "Ada King", role: "instructor" } });
    await ok(`/v1/users/${user.id}`, { method: "DELETE" }, 204);
    const [created, updated, deleted] = await eventsOf(user.id);
    expect(created).toMatchObject({ type: "user.created", user_id: user.id, previous: null });
    expect(updated).toMatchObject({ type: "user.updated", user_id: user.id, previous: { role: "student" } });
    expect(deleted).toMatchObject({ type: "user.deleted", user_id: user.id });
    expect(deleted!.object).toMatchObject({ id: user.id, name: "", email: "", role: "instructor" });
    expect(updated!.object).toMatchObject({ id: user.id, role: "instructor", updated_at: patched.updated_at });
  });

  it("deleting a user redacts name and e-mail from every event of theirs, in the same batch", async () => {
    const user = await createUser("Grace Hopper");
    await ok(`/v1/users/${user.id}`, { method: "PATCH", body: { name: "Grace B. Hopper", email: `g-${user.email}` } });
    const before = await eventsOf(user.id);
    expect(before[1]!.previous).toEqual({ name: "Grace Hopper", email: user.email });
    await ok(`/v1/users/${user.id}`, { method: "DELETE" }, 204);
    const after = await eventsOf(user.id);
    expect(after.map((e) => e.type)).toEqual(["user.created", "user.updated", "user.deleted"]);
    for (const event of after) {
      expect(event.object).toMatchObject({ name: "", email: "" });
      expect(event.raw).not.toMatch(/Grace|@example\.com/);
    }
    expect(after[1]!.previous).toEqual({});
  });

  it("a taken e-mail → 409 and no event", async () => {
    const user = await createUser();
    const before = await eventCount();
    const res = await call("/v1/users", { body: { name: "Twin", email: user.email!.toUpperCase() } });
    expectProblem(res, 409, "email_taken");
    const other = await createUser();
    const patch = await call(`/v1/users/${other.id}`, { method: "PATCH", body: { email: user.email } });
    expectProblem(patch, 409, "email_taken");
    expect(await eventCount()).toBe(before + 1); // other's user.created only
  });

  it("20 concurrent creates → exactly 20 user.created events", async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        call("/v1/users", { body: { name: `C${i}`, email: `c${i}-${crypto.randomUUID()}@x.io` } }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(201));
    for (const r of results) expect((await theEvent(r.json.id, "user.created")).object).toEqual(r.json);
  });

  it("10 concurrent PATCHes → 10 user.updated events whose previous names chain", async () => {
    const user = await createUser("Original");
    const names = Array.from({ length: 10 }, (_, i) => `Name ${i}`);
    const results = await Promise.all(names.map((name) => call(`/v1/users/${user.id}`, { method: "PATCH", body: { name } })));
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
    const events = await eventsOf(user.id, "user.updated");
    expect(events).toHaveLength(10);
    // Each change replaced the name the one before it wrote: following previous → new from the
    // original name visits every event once and ends at the stored name.
    const next = new Map(events.map((e) => [e.previous!.name as string, e.object.name as string]));
    expect(next.size).toBe(10);
    const seen: string[] = [];
    for (let name = "Original"; next.has(name); name = next.get(name)!) seen.push(next.get(name)!);
    expect(seen.sort()).toEqual([...names].sort());
    const stored = await ok(`/v1/users/${user.id}`);
    expect(events.find((e) => e.object.updated_at === stored.updated_at)?.object).toEqual(stored);
    expect(new Set(events.map((e) => e.object.updated_at)).size).toBe(10);
  });
});

describe("submission events", () => {
  async function quizAndUser(settings: Record<string, unknown> = {}) {
    const quiz = await createQuiz({ settings, questions: [single, tf("Wet?")] });
    const user = await createUser();
    return { quiz, user };
  }

  it("POST records submission.created: the submission as GET shows it", async () => {
    const { quiz, user } = await quizAndUser();
    const answers = [{ question_id: quiz.question_ids[0], response: "b" }];
    await ok(`/v1/quizzes/${quiz.id}/submissions`, { body: { user_id: user.id } }, 201);
    const second = await ok(`/v1/quizzes/${quiz.id}/submissions`, { body: { user_id: user.id, answers } }, 201);
    const event = await theEvent(second.id, "submission.created");
    expect(event.object).toEqual(withoutQuestionViews(await ok(`/v1/submissions/${second.id}`)));
    expect(event.object.attempt).toBe(2);
  });

  it("attempts over max_attempts → 409 and no event", async () => {
    const { quiz, user } = await quizAndUser({ max_attempts: 1 });
    await ok(`/v1/quizzes/${quiz.id}/submissions`, { body: { user_id: user.id } }, 201);
    const before = await eventCount();
    expectProblem(await call(`/v1/quizzes/${quiz.id}/submissions`, { body: { user_id: user.id } }), 409, "attempt_limit_reached");
    expect(await eventCount()).toBe(before);
  });

  it("grading records submission.graded with the grade", async () => {
    const { quiz, user } = await quizAndUser();
    const answers = [
      { question_id: quiz.question_ids[0], response: "b" },
      { question_id: quiz.question_ids[1], response: false },
    ];
    const sub = await ok(`/v1/quizzes/${quiz.id}/submissions`, { body: { user_id: user.id, answers } }, 201);
    const grade = await ok(`/v1/submissions/${sub.id}/grade`, { method: "POST" });
    const event = await theEvent(sub.id, "submission.graded");
    const shown = withoutQuestionViews(await ok(`/v1/submissions/${sub.id}`));
    expect(event.object).toEqual({
      ...shown,
      points_earned: grade.points_earned,
      points_possible: grade.points_possible,
      feedback: grade.feedback,
    });
    expect(event.object).toMatchObject({ status: "graded", score: 50, graded_at: grade.graded_at });
    await ok(`/v1/submissions/${sub.id}/grade`, { method: "POST" });
    await theEvent(sub.id, "submission.graded"); // grading again records nothing
  });

  it("10 concurrent grade calls → exactly one submission.graded", async () => {
    const { quiz, user } = await quizAndUser();
    const sub = await ok(`/v1/quizzes/${quiz.id}/submissions`, { body: { user_id: user.id } }, 201);
    const results = await Promise.all(
      Array.from({ length: 10 }, () => call(`/v1/submissions/${sub.id}/grade`, { method: "POST" })),
    );
    expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
    expect((await theEvent(sub.id, "submission.graded")).object.graded_at).toBe(results[0]!.json.graded_at);
  });
});

describe("credential events carry no secret", () => {
  it("api_key.created, api_key.rotated and api_key.revoked carry the keys' metadata only", async () => {
    const created = await ok("/v1/api-keys", { body: { name: "events", scopes: ["quizzes:read"] } }, 201);
    const rotated = await ok(`/v1/api-keys/${created.id}/rotate`, { body: { grace_seconds: 60 } }, 201);
    await ok(`/v1/api-keys/${rotated.id}`, { method: "DELETE" }, 204);
    const { key, ...metadata } = created;
    expect((await theEvent(created.id, "api_key.created")).object).toEqual(metadata);
    const rotation = await theEvent(rotated.id, "api_key.rotated");
    const { key: newKey, ...newMetadata } = rotated;
    expect(rotation.object).toEqual({ ...newMetadata, rotated_from: created.id });
    const revoked = await theEvent(rotated.id, "api_key.revoked");
    expect(revoked.object).toEqual(await ok(`/v1/api-keys/${rotated.id}`));
    expect(revoked.object.revoked_at).toMatch(ISO_MS);

    for (const event of [...(await eventsOf(created.id)), ...(await eventsOf(rotated.id))]) {
      for (const secret of [key, newKey, await sha256Hex(key), await sha256Hex(newKey)]) expect(event.raw).not.toContain(secret);
      // qz_live_ appears only as the display prefix, which GET shows too.
      expect(event.raw.replaceAll(event.object.prefix as string, "")).not.toContain("qz_live_");
      expect(event.raw).not.toMatch(/"key(_hash)?"|"hash"/);
    }
  });

  it("oauth_client.created, secret_rotated and deleted never carry the secret or its hash", async () => {
    const client = await ok("/v1/oauth-clients", { body: { name: "events", scopes: ["quizzes:read"] } }, 201);
    const rotated = await ok(`/v1/oauth-clients/${client.id}/rotate-secret`, { method: "POST" });
    await ok(`/v1/oauth-clients/${client.id}`, { method: "DELETE" }, 204);
    const { client_secret: first, ...metadata } = client;
    const { client_secret: second, ...rotatedMetadata } = rotated;
    const [created, rotation, deleted] = await eventsOf(client.id);
    expect(created).toMatchObject({ type: "oauth_client.created", object: metadata });
    expect(rotation).toMatchObject({
      type: "oauth_client.secret_rotated",
      object: rotatedMetadata,
      previous: { secret_rotated_at: null },
    });
    expect(deleted).toMatchObject({ type: "oauth_client.deleted", object: rotatedMetadata });
    for (const event of [created!, rotation!, deleted!]) {
      for (const secret of [first, second, await sha256Hex(first), await sha256Hex(second)])
        expect(event.raw).not.toContain(secret);
      expect(event.raw).not.toMatch(/qz_cs_|"client_secret"|"secret_hash"|"secret"/);
    }
  });

  it("no stored event holds a plaintext credential prefix but an API key's display prefix", async () => {
    const text = await allEventsText();
    expect(text).not.toMatch(/qz_(cs|at|rt)_/);
    expect(text.replaceAll(/"prefix":"qz_live_[0-9A-Za-z]{4}"/g, "")).not.toContain("qz_live_");
  });
});
