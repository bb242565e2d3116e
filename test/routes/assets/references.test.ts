import { env } from "cloudflare:workers";
import { eq, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import { describe, expect, it } from "vitest";
import { assetReferenceStatements, unknownAssetFailure } from "../../../src/authoring/asset-references";
import { questions } from "../../../src/db/schema";
import { generateAssetId } from "../../../src/domain/asset-url";
import type { Database } from "../../../src/env";
import { call, callRaw, expectProblem } from "../../support/call";
import { createQuiz, tf, unique } from "../quizzes/fixtures";
import { assetFootprint, keyWith, newAsset, referencesOf } from "./helpers";

const img = (url: string) => `<img src="${url}" alt="a figure">`;

/** A multiple choice whose texts name the assets given: prompt, explanation, an option, its feedback. */
const choice = (prompt: string, options: { explanation?: string; option?: string; feedback?: string } = {}) => ({
  type: "multiple_choice",
  prompt,
  explanation: options.explanation,
  options: [
    { id: "a", text: options.option ?? "Yes", feedback: options.feedback },
    { id: "b", text: "No" },
  ],
  correct_option_ids: ["a"],
});

async function quizWith(questions: unknown[]) {
  const res = await call("/v1/quizzes", { body: { title: unique("Figures"), questions } });
  expect(res.status, res.text).toBe(201);
  return { id: res.json.id, questionIds: res.json.question_ids };
}

async function listed(quizId: string, query = "") {
  const res = await callRaw(`/v1/quizzes/${quizId}/assets${query}`);
  expect(res.status, res.text).toBe(200);
  return res as typeof res & { json: { assets: { id: string }[]; next_cursor: string | null } };
}

describe("references from questions' texts to assets", () => {
  it("a quiz created with questions: every text's asset recorded, in the create's batch", async () => {
    const [a, b, c, d] = [await newAsset(), await newAsset(), await newAsset(), await newAsset()];
    const quiz = await quizWith([
      choice(`Which? ${img(a.url)}`, { explanation: `See ${img(b.url)}`, option: img(c.url) }),
      choice("Plain", { feedback: `https://quiz.test${d.url}` }),
      tf("No figure here"),
    ]);
    const [q1, q2, q3] = quiz.questionIds as [string, string, string];
    expect(await referencesOf([q1, q2, q3])).toEqual([`${a.id} ${q1}`, `${b.id} ${q1}`, `${c.id} ${q1}`, `${d.id} ${q2}`].sort());
    const page = await listed(quiz.id);
    expect(page.json.assets.map((x) => x.id)).toEqual([a.id, b.id, c.id, d.id].sort());
    expect(page.json.assets.find((x) => x.id === a.id)).toEqual(a);
    expect(page.json.next_cursor).toBeNull();
  });

  it("an asset named twice, in two questions, is listed once and recorded per question", async () => {
    const a = await newAsset();
    const quiz = await quizWith([choice(`${img(a.url)} ${img(a.url)}`), choice(img(a.url))]);
    expect(await referencesOf(quiz.questionIds)).toHaveLength(2);
    expect((await listed(quiz.id)).json.assets.map((x) => x.id)).toEqual([a.id]);
  });

  it("adding, changing and deleting a question rewrite its references; deleting the quiz removes them", async () => {
    const [a, b, c] = [await newAsset(), await newAsset(), await newAsset()];
    const quiz = await createQuiz();
    const added = await call(`/v1/quizzes/${quiz.id}/questions`, { body: choice(img(a.url)) });
    expect(added.status, added.text).toBe(201);
    const q = added.json.id;
    expect(await referencesOf([q])).toEqual([`${a.id} ${q}`]);

    const changed = await call(`/v1/quizzes/${quiz.id}/questions/${q}`, {
      method: "PATCH",
      body: { prompt: `Now ${img(b.url)}`, explanation: img(c.url) },
    });
    expect(changed.status, changed.text).toBe(200);
    expect(await referencesOf([q])).toEqual([`${b.id} ${q}`, `${c.id} ${q}`].sort());

    // A change of a field with no asset keeps the references of the texts that still name them.
    const points = await call(`/v1/quizzes/${quiz.id}/questions/${q}`, { method: "PATCH", body: { points: 3 } });
    expect(points.status, points.text).toBe(200);
    expect(await referencesOf([q])).toEqual([`${b.id} ${q}`, `${c.id} ${q}`].sort());

    const second = await call(`/v1/quizzes/${quiz.id}/questions`, { body: choice(img(a.url)) });
    expect((await call(`/v1/quizzes/${quiz.id}/questions/${q}`, { method: "DELETE" })).status).toBe(204);
    expect(await referencesOf([q])).toEqual([]);
    expect((await listed(quiz.id)).json.assets.map((x) => x.id)).toEqual([a.id]);

    expect((await call(`/v1/quizzes/${quiz.id}`, { method: "DELETE" })).status).toBe(204);
    expect(await referencesOf([second.json.id])).toEqual([]);
    // The assets themselves stay (docs/assets.md#retention), and are still served.
    expect((await callRaw(a.url, { auth: false })).status).toBe(200);
  });

  it("racing changes of one question, over 15 trials: its references are always those of the text stored", async () => {
    const quiz = await createQuiz();
    const assets = await Promise.all(Array.from({ length: 4 }, newAsset));
    const added = await call(`/v1/quizzes/${quiz.id}/questions`, { body: choice("Start") });
    const q = added.json.id;
    for (let trial = 0; trial < 15; trial++) {
      const [x, y] = [assets[trial % 4]!, assets[(trial + 1) % 4]!];
      const answers = await Promise.all(
        [x, y].map((asset) =>
          call(`/v1/quizzes/${quiz.id}/questions/${q}`, { method: "PATCH", body: { prompt: `${trial} ${img(asset.url)}` } }),
        ),
      );
      for (const res of answers) expect([200, 409], res.text).toContain(res.status);
      const stored = await call(`/v1/quizzes/${quiz.id}/questions/${q}`);
      const named = [x, y].filter((asset) => stored.json.prompt.includes(asset.url)).map((asset) => `${asset.id} ${q}`);
      expect(named, `trial ${trial}: ${stored.json.prompt}`).toHaveLength(1);
      expect(await referencesOf([q]), `trial ${trial}`).toEqual(named);
    }
  });
});

describe("a text naming an asset that does not exist → 400, nothing written", () => {
  const missing = `/v1/assets/${generateAssetId()}`;

  it("creating a quiz: 400 at questions.<i>, no quiz", async () => {
    const a = await newAsset();
    const before = await assetFootprint();
    const quizzes = await env.DB.prepare("SELECT count(*) AS n FROM quizzes").first<{ n: number }>();
    const res = await call("/v1/quizzes", { body: { title: "Broken", questions: [choice(img(a.url)), choice(img(missing))] } });
    const problem = expectProblem(res, 400, "validation_failed");
    expect(problem.errors).toEqual([{ path: "questions.1", message: expect.stringContaining(missing.slice(11)) }]);
    expect(await assetFootprint()).toEqual(before);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM quizzes").first<{ n: number }>()).toEqual(quizzes);
  });

  it("adding a question: 400, the quiz unchanged", async () => {
    const quiz = await createQuiz();
    const res = await call(`/v1/quizzes/${quiz.id}/questions`, { body: choice(`x ${img(`https://quiz.test${missing}`)}`) });
    expectProblem(res, 400, "validation_failed");
    expect((await call(`/v1/quizzes/${quiz.id}/questions`)).json.questions).toEqual([]);
  });

  it("changing a question: 400, the question and its references as they were", async () => {
    const a = await newAsset();
    const quiz = await quizWith([choice(img(a.url))]);
    const q = quiz.questionIds[0]!;
    const before = await call(`/v1/quizzes/${quiz.id}/questions/${q}`);
    const res = await call(`/v1/quizzes/${quiz.id}/questions/${q}`, {
      method: "PATCH",
      body: {
        options: [
          { id: "a", text: img(missing) },
          { id: "b", text: "No" },
        ],
      },
    });
    expectProblem(res, 400, "validation_failed");
    expect((await call(`/v1/quizzes/${quiz.id}/questions/${q}`)).json).toEqual(before.json);
    expect(await referencesOf([q])).toEqual([`${a.id} ${q}`]);
  });

  it("an id of another shape is no asset id: kept as written, nothing recorded", async () => {
    const quiz = await quizWith([choice("See /v1/assets/ast_notanid and /v1/assets/ast_")]);
    expect(await referencesOf(quiz.questionIds)).toEqual([]);
  });
});

describe("GET /v1/quizzes/{id}/assets", () => {
  it("pages in id order with next_cursor and Link until null", async () => {
    const assets = await Promise.all(Array.from({ length: 5 }, newAsset));
    const quiz = await quizWith(assets.map((a) => choice(img(a.url))));
    const seen: string[] = [];
    let query = "?limit=2";
    for (let page = 0; page < 3; page++) {
      const res = await listed(quiz.id, query);
      seen.push(...res.json.assets.map((a) => a.id));
      if (page < 2) {
        expect(res.json.next_cursor).not.toBeNull();
        expect(res.headers.get("link")).toContain('rel="next"');
        query = `?limit=2&cursor=${res.json.next_cursor}`;
      } else expect(res.json.next_cursor).toBeNull();
    }
    expect(seen).toEqual(assets.map((a) => a.id).sort());
  });

  it("a quiz without assets → an empty list; an unknown quiz → 404; a bad cursor or limit → 400", async () => {
    const quiz = await createQuiz({ questions: [tf()] });
    expect((await listed(quiz.id)).json).toEqual({ assets: [], next_cursor: null });
    expectProblem(await callRaw("/v1/quizzes/quiz_01kamz3f7c9n0p8s6e5vwx2y4r/assets"), 404, "not_found");
    expectProblem(await callRaw(`/v1/quizzes/${quiz.id}/assets?cursor=abc`), 400, "validation_failed");
    expectProblem(await callRaw(`/v1/quizzes/${quiz.id}/assets?limit=0`), 400, "validation_failed");
    expectProblem(await callRaw(`/v1/quizzes/${quiz.id}/assets?other=1`), 400, "validation_failed");
  });

  it("needs quizzes:read: without a credential 401, without the scope 403, with it 200", async () => {
    const quiz = await createQuiz();
    expectProblem(await callRaw(`/v1/quizzes/${quiz.id}/assets`, { auth: false }), 401, "unauthorized");
    expectProblem(
      await callRaw(`/v1/quizzes/${quiz.id}/assets`, { auth: await keyWith("users:read") }),
      403,
      "insufficient_scope",
    );
    expect((await callRaw(`/v1/quizzes/${quiz.id}/assets`, { auth: await keyWith("quizzes:read") })).status).toBe(200);
  });
});

describe("assetReferenceStatements", () => {
  it("under a guard that fails, the references stay; under one that holds, they are replaced", async () => {
    const [a, b] = [await newAsset(), await newAsset()];
    const quiz = await quizWith([choice(img(a.url))]);
    const q = quiz.questionIds[0]!;
    const db = drizzle(env.DB) as Database;
    const [row] = await db.select().from(questions).where(eq(questions.id, q));
    const next = { ...row!, prompt: img(b.url) };
    await env.DB.batch(assetReferenceStatements(db, [next], { replace: true, unknown: "refuse", when: sql`0` }));
    expect(await referencesOf([q])).toEqual([`${a.id} ${q}`]);
    await env.DB.batch(assetReferenceStatements(db, [next], { replace: true, unknown: "refuse", when: sql`1` }));
    expect(await referencesOf([q])).toEqual([`${b.id} ${q}`]);
  });

  it("an unknown id: refused by the batch itself (NOT NULL), or skipped for an import", async () => {
    const quiz = await quizWith([choice("x")]);
    const q = quiz.questionIds[0]!;
    const db = drizzle(env.DB) as Database;
    const [row] = await db.select().from(questions).where(eq(questions.id, q));
    const next = { ...row!, prompt: img(`/v1/assets/${generateAssetId()}`) };
    const failure = await env.DB.batch(assetReferenceStatements(db, [next], { unknown: "refuse" })).catch((e: unknown) => e);
    expect(unknownAssetFailure(failure)).toBeDefined();
    await env.DB.batch(assetReferenceStatements(db, [next], { unknown: "skip" }));
    expect(await referencesOf([q])).toEqual([]);
  });
});
