import { describe, expect, it } from "vitest";
import { call, callRaw, expectProblem } from "../support/call";
import { CONTROLS, INVISIBLES, LONE_SURROGATES, ORDINARY } from "../support/text-samples";

// ---------------------------------------------------------------------------------------------
// Over HTTP: every text field refuses bad text with a 400 that names it, and keeps good text as sent.

const BAD_SINGLE_LINE: Record<string, string> = {
  ...LONE_SURROGATES,
  ...CONTROLS,
  "a line feed inside": "two\nlines",
  "a tab inside": "a\tb",
  "ZERO WIDTH SPACE": "\u200b",
  "ZWSP + ZWJ": "\u200b\u200d",
  "HANGUL FILLER": "\u3164",
  "WORD JOINER, space, WORD JOINER": "\u2060 \u2060",
};
const BAD_MULTI_LINE: Record<string, string> = { ...LONE_SURROGATES, ...CONTROLS, "only a ZERO WIDTH SPACE": "\u200b" };
const MULTI_LINE_OK = "First line\n\tindented 😀\r\nthird: مرحبا 中文 e\u0301";

async function expectRefused(path: string, body: unknown, field: string, method = "POST") {
  const res = await callRaw(path, { method, body });
  const problem = expectProblem(res, 400, "validation_failed");
  const paths = (problem.errors ?? []).map((e) => e.path);
  expect(paths, `${method} ${path} ${JSON.stringify(body)}: ${res.text}`).toContain(field);
  const message = problem.errors!.find((e) => e.path === field)!.message;
  expect(message).toMatch(/^must (be well-formed Unicode|not contain control characters|contain a visible character)/);
  return message;
}

async function createQuiz(body: Record<string, unknown> = {}) {
  const res = await call("/v1/quizzes", { body: { title: "Text rules", ...body } });
  expect(res.status, res.text).toBe(201);
  return res.json;
}

const choice = (overrides: Record<string, unknown> = {}) => ({
  type: "single_choice",
  prompt: "Pick one",
  options: [{ text: "one" }, { text: "two" }],
  correct_option_id: "a",
  ...overrides,
});
const shortText = (overrides: Record<string, unknown> = {}) => ({
  type: "short_text",
  prompt: "Name it",
  accepted_answers: ["Paris", "paris"],
  ...overrides,
});

describe("how a lone surrogate arrives", () => {
  it("as a \\u escape in the JSON text → 400 (JSON.parse makes a lone UTF-16 unit of it)", async () => {
    expect(JSON.stringify({ title: "\ud800" })).toBe('{"title":"\\ud800"}');
    for (const raw of ['{"title":"\\ud800"}', '{"title":"x\\udfffy"}', '{"title":"\\udc00\\ud83d"}']) {
      const res = await call("/v1/quizzes", { raw, headers: { "content-type": "application/json" } });
      const problem = expectProblem(res, 400, "validation_failed");
      expect(problem.errors).toEqual([{ path: "title", message: "must be well-formed Unicode (a lone surrogate was found)." }]);
    }
  });

  it("as raw bytes that are not UTF-8 (a CESU-8 surrogate) → decoded to U+FFFD, which is well-formed text", async () => {
    const prefix = new TextEncoder().encode('{"title":"A');
    const suffix = new TextEncoder().encode('"}');
    const raw = new Uint8Array([...prefix, 0xed, 0xa0, 0x80, ...suffix]);
    const res = await call("/v1/quizzes", { raw, headers: { "content-type": "application/json" } });
    expect(res.status, res.text).toBe(201);
    expect(res.json.title).toMatch(/^A\ufffd+$/);
  });
});

describe("POST and PATCH /v1/quizzes", () => {
  it("refuses bad titles, naming the field", async () => {
    const quiz = await createQuiz();
    for (const [name, title] of Object.entries(BAD_SINGLE_LINE)) {
      const message = await expectRefused("/v1/quizzes", { title }, "title");
      if (name in INVISIBLES) expect(message).toMatch(/^must contain a visible character/);
      await expectRefused(`/v1/quizzes/${quiz.id}`, { title }, "title", "PATCH");
    }
    // Nothing was changed by the refused patches.
    expect((await call(`/v1/quizzes/${quiz.id}`)).json.title).toBe("Text rules");
  });

  it("refuses control characters and invisible-only text in a description; keeps tab, LF and CR", async () => {
    const quiz = await createQuiz();
    for (const description of Object.values(BAD_MULTI_LINE)) {
      await expectRefused("/v1/quizzes", { title: "Quiz", description }, "description");
      await expectRefused(`/v1/quizzes/${quiz.id}`, { description }, "description", "PATCH");
    }
    const created = await createQuiz({ description: MULTI_LINE_OK });
    expect(created.description).toBe(MULTI_LINE_OK);
    const patched = await call(`/v1/quizzes/${quiz.id}`, {
      method: "PATCH",
      body: { description: `${MULTI_LINE_OK}\r\n\tmore` },
    });
    expect(patched.status, patched.text).toBe(200);
    expect((await call(`/v1/quizzes/${quiz.id}`)).json.description).toBe(`${MULTI_LINE_OK}\r\n\tmore`);
  });

  it("refuses bad feedback band messages", async () => {
    const quiz = await createQuiz();
    for (const message of Object.values(BAD_MULTI_LINE)) {
      const settings = {
        feedback_bands: [
          { min_score: 0, message: "fine" },
          { min_score: 50, message },
        ],
      };
      await expectRefused("/v1/quizzes", { title: "Quiz", settings }, "settings.feedback_bands[1].message");
      await expectRefused(`/v1/quizzes/${quiz.id}`, { settings }, "settings.feedback_bands[1].message", "PATCH");
    }
    const settings = { feedback_bands: [{ min_score: 0, message: "Well done!\nSee you 😀" }] };
    expect((await createQuiz({ settings })).settings.feedback_bands).toEqual(settings.feedback_bands);
  });

  it("refuses bad text in questions created with the quiz", async () => {
    await expectRefused(
      "/v1/quizzes",
      { title: "Quiz", questions: [choice(), choice({ prompt: "\u0007" })] },
      "questions[1].prompt",
    );
    await expectRefused(
      "/v1/quizzes",
      { title: "Quiz", questions: [choice({ options: [{ text: "ok" }, { text: "\u3164" }] })] },
      "questions[0].options[1].text",
    );
  });

  it("keeps ordinary text, emoji, combining marks, RTL and CJK as sent", async () => {
    for (const [name, text] of Object.entries(ORDINARY)) {
      const quiz = await createQuiz({ title: text, description: `${text}\n${text}` });
      expect(quiz.title, name).toBe(text);
      const got = await call(`/v1/quizzes/${quiz.id}`);
      expect(got.json.title, name).toBe(text);
      expect(got.json.description, name).toBe(`${text}\n${text}`);
      const patched = await call(`/v1/quizzes/${quiz.id}`, { method: "PATCH", body: { title: `${text}!` } });
      expect(patched.json.title, name).toBe(`${text}!`);
    }
  });
});

describe("questions", () => {
  it("refuses bad text in every text field of a question, naming the field", async () => {
    const quiz = await createQuiz();
    const path = `/v1/quizzes/${quiz.id}/questions` as const;
    for (const bad of Object.values(BAD_MULTI_LINE)) {
      await expectRefused(path, choice({ prompt: bad }), "prompt");
      await expectRefused(path, choice({ explanation: bad }), "explanation");
      await expectRefused(path, choice({ feedback: { correct: bad } }), "feedback.correct");
      await expectRefused(path, choice({ feedback: { correct: "Yes", incorrect: bad } }), "feedback.incorrect");
    }
    for (const bad of Object.values(BAD_SINGLE_LINE)) {
      await expectRefused(path, choice({ options: [{ text: "one" }, { text: bad }] }), "options[1].text");
      await expectRefused(path, shortText({ accepted_answers: ["Paris", bad] }), "accepted_answers[1]");
    }
    // Nothing was created.
    expect((await call(path)).json.questions).toEqual([]);
  });

  it("refuses bad text in a patch of a question", async () => {
    const quiz = await createQuiz();
    const created = await call(`/v1/quizzes/${quiz.id}/questions`, { body: shortText() });
    expect(created.status, created.text).toBe(201);
    const path = `/v1/quizzes/${quiz.id}/questions/${created.json.id}` as const;
    await expectRefused(path, { prompt: "\ud800" }, "prompt", "PATCH");
    await expectRefused(path, { prompt: "\u200b" }, "prompt", "PATCH");
    await expectRefused(path, { accepted_answers: ["a\nb"] }, "accepted_answers[0]", "PATCH");
    await expectRefused(path, { explanation: "\u001b[2J" }, "explanation", "PATCH");
    expect((await call(path)).json.prompt).toBe("Name it");
  });

  it("keeps multi-line prompts and Unicode options and answers as sent", async () => {
    const quiz = await createQuiz();
    const input = {
      type: "single_choice",
      prompt: MULTI_LINE_OK,
      explanation: "Line one\r\nLine two\twith a tab",
      feedback: { correct: "正解！🎉", incorrect: "خطأ\nحاول مرة أخرى" },
      options: [{ text: "日本語" }, { text: "Cafe\u0301 ☕" }, { text: "עברית" }],
      correct_option_id: "a",
    };
    const created = await call(`/v1/quizzes/${quiz.id}/questions`, { body: input });
    expect(created.status, created.text).toBe(201);
    const got = (await call(`/v1/quizzes/${quiz.id}/questions/${created.json.id}`)).json;
    expect(got.prompt).toBe(input.prompt);
    expect(got.explanation).toBe(input.explanation);
    expect(got.feedback).toEqual(input.feedback);
    expect(got.options!.map((o) => o.text)).toEqual(["日本語", "Cafe\u0301 ☕", "עברית"]);

    const answers = ["東京", "Ｔｏｋｙｏ", "👩‍👩‍👧‍👦"];
    const text = await call(`/v1/quizzes/${quiz.id}/questions`, { body: shortText({ accepted_answers: answers }) });
    expect(text.status, text.text).toBe(201);
    expect((await call(`/v1/quizzes/${quiz.id}/questions/${text.json.id}`)).json.accepted_answers).toEqual(answers);
  });
});

describe("users", () => {
  const email = () => `text-${crypto.randomUUID()}@example.com`;

  it("refuses bad names, naming the field, on create and patch", async () => {
    const user = await call("/v1/users", { body: { name: "Ada", email: email() } });
    expect(user.status, user.text).toBe(201);
    for (const name of Object.values(BAD_SINGLE_LINE)) {
      await expectRefused("/v1/users", { name, email: email() }, "name");
      await expectRefused(`/v1/users/${user.json.id}`, { name }, "name", "PATCH");
    }
  });

  it("refuses an e-mail with a lone surrogate or a control character", async () => {
    for (const bad of ["ada\ud800@example.com", "ada@example.com\udfff", "ada\u0000@example.com", "ada@exa\u200bmple.com"]) {
      const res = await call("/v1/users", { body: { name: "Ada", email: bad } });
      const problem = expectProblem(res, 400, "validation_failed");
      expect(problem.errors?.map((e) => e.path)).toContain("email");
    }
  });

  it("keeps names in any script as sent", async () => {
    for (const name of ["Zoë Ångström", "محمد", "李小龍", "Ana 👩‍💻", "Jose\u0301"]) {
      const res = await call("/v1/users", { body: { name, email: email() } });
      expect(res.status, res.text).toBe(201);
      expect((await call(`/v1/users/${res.json.id}`)).json.name).toBe(name);
    }
  });

  it("?email= with a control character → 400; bytes that are not UTF-8 → no match; never a 500", async () => {
    for (const query of ["%00", "a%07b%40example.com", "%E2%80%8B"]) {
      const res = await call(`/v1/users?email=${query}`);
      const problem = expectProblem(res, 400, "validation_failed");
      expect(problem.errors?.map((e) => e.path)).toEqual(["query.email"]);
    }
    // Percent-decoding cannot make a lone surrogate: what does not decode stays as its %XX text.
    for (const query of ["%ED%A0%80", "%ED%A0%80%40example.com", "%FF", "%C0%80"]) {
      const res = await call(`/v1/users?email=${query}`);
      expect(res.status, res.text).toBe(200);
      expect(res.json.users).toEqual([]);
    }
  });
});

describe("API keys and OAuth clients", () => {
  it("refuse bad names, naming the field", async () => {
    for (const name of Object.values(BAD_SINGLE_LINE)) {
      await expectRefused("/v1/api-keys", { name, scopes: ["quizzes:read"] }, "name");
      await expectRefused("/v1/oauth-clients", { name, scopes: ["quizzes:read"] }, "name");
    }
  });

  it("keep ordinary names as sent", async () => {
    const name = "Exporter 輸出 📊 e\u0301";
    const key = await call("/v1/api-keys", { body: { name, scopes: ["quizzes:read"] } });
    expect(key.status, key.text).toBe(201);
    expect((await call(`/v1/api-keys/${key.json.id}`)).json.name).toBe(name);
    const client = await call("/v1/oauth-clients", { body: { name, scopes: ["quizzes:read"] } });
    expect(client.status, client.text).toBe(201);
    expect((await call(`/v1/oauth-clients/${client.json.id}`)).json.name).toBe(name);
  });
});
