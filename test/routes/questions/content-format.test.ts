import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { BASE, call, expectProblem } from "../../support/call";
import { newAsset } from "../assets/helpers";
import { addQuestion, createQuiz, single, tf } from "./fixtures";

/**
 * CONTRACT §19's formatted text through the API (docs/content.md): content_format, the HTML
 * sanitized when written on every path (add, patch, a quiz with questions), TeX made MathML in
 * workerd, the limits, and what the text format keeps.
 */

const html = (extra: Record<string, unknown>) => ({ content_format: "html", ...extra });
type Errors = { errors: { path: string; message: string }[] };

describe("content_format on POST /v1/quizzes/{id}/questions", () => {
  it('is "text" by default, and text keeps markup as written', async () => {
    const quizId = await createQuiz();
    const q = await addQuestion(quizId, tf("Is <b>this</b> bold? <script>x</script>"));
    expect(q.content_format).toBe("text");
    expect(q.prompt).toBe("Is <b>this</b> bold? <script>x</script>");
  });

  it('"html" stores the fragment sanitized, answers 201 with what was stored, and reads it back the same', async () => {
    const quizId = await createQuiz();
    const res = await call(`/v1/quizzes/${quizId}/questions`, {
      body: html(
        single({
          prompt: '<p onclick="x()">Which is <b>right</b>?<script>alert(1)</script></p><img src=x onerror=alert(1)>',
          explanation: '<a href="javascript:alert(1)">no</a> <a href="https://example.com">yes</a>',
          feedback: { correct: "<em>Good</em><style>*{}</style>" },
          options: [{ text: "<i>Paris</i>", feedback: "<u>The capital</u>" }, { text: "Lyon &amp; Nice" }, { text: "Nice" }],
        }),
      ),
    });
    expect(res.status, res.text).toBe(201);
    expect(res.json.content_format).toBe("html");
    expect(res.json.prompt).toBe("<p>Which is <b>right</b>?</p>");
    expect(res.json.explanation).toBe('no <a href="https://example.com/" rel="noopener noreferrer" target="_blank">yes</a>');
    expect(res.json.feedback).toEqual({ correct: "<em>Good</em>" });
    expect(res.json.options).toEqual([
      { id: "a", text: "<i>Paris</i>", feedback: "<u>The capital</u>" },
      { id: "b", text: "Lyon &amp; Nice" },
      { id: "c", text: "Nice" },
    ]);
    const read = await call(`/v1/quizzes/${quizId}/questions/${res.json.id}`);
    expect(read.json).toEqual(res.json);
    // What the database holds is the sanitized form, not the request's.
    const row = await env.DB.prepare("SELECT prompt, content_format FROM questions WHERE id = ?").bind(res.json.id).first();
    expect(row).toEqual({ prompt: "<p>Which is <b>right</b>?</p>", content_format: "html" });
  });

  it("an html question added at a position is stored there, the others moving down (the position is no field of the stored question)", async () => {
    const quizId = await createQuiz([tf("First"), tf("Second")]);
    const res = await call(`/v1/quizzes/${quizId}/questions`, {
      body: html({ ...tf("<p>H<sub>2</sub>O is <b>water</b>.</p><script>x</script>"), position: 1 }),
    });
    expect(res.status, res.text).toBe(201);
    expect(res.json).toMatchObject({ position: 1, content_format: "html", prompt: "<p>H<sub>2</sub>O is <b>water</b>.</p>" });
    const list = await call(`/v1/quizzes/${quizId}/questions`);
    expect(list.json.questions.map((q: { prompt: string; position: number }) => [q.position, q.prompt])).toEqual([
      [1, "<p>H<sub>2</sub>O is <b>water</b>.</p>"],
      [2, "First"],
      [3, "Second"],
    ]);
  });

  it("turns TeX into MathML with its source as an annotation (KaTeX, in workerd)", async () => {
    const quizId = await createQuiz();
    const q = await addQuestion(quizId, html(tf("Is \\(x^2 \\geq 0\\) for every real \\(x\\)?")));
    expect(q.prompt).toBe(
      'Is <math><semantics><mrow><msup><mi>x</mi><mn>2</mn></msup><mo>≥</mo><mn>0</mn></mrow><annotation encoding="application/x-tex">x^2 \\geq 0</annotation></semantics></math> for every real <math><semantics><mrow><mi>x</mi></mrow><annotation encoding="application/x-tex">x</annotation></semantics></math>?',
    );
  });

  it("keeps an img naming an asset by its path or by its absolute URL on this origin (stored as the path), and removes any other", async () => {
    const quizId = await createQuiz();
    // An uploaded asset: an img may name only one that exists (the references of docs/api.md's assets).
    const ASSET = (await newAsset()).url;
    const q = await addQuestion(
      quizId,
      html(
        tf(
          `<img src="${ASSET}" alt="A map"><img src="${BASE}${ASSET}" alt="again"><img src="https://elsewhere.example${ASSET}">`,
        ),
      ),
    );
    expect(q.prompt).toBe(`<img src="${ASSET}" alt="A map"><img src="${ASSET}" alt="again">`);
  });

  it("keeps fill-in-blanks markers, and refuses a text whose marker was inside removed markup", async () => {
    const quizId = await createQuiz();
    const blanks = [{ id: "city", accepted_answers: ["Paris"] }];
    const q = await addQuestion(
      quizId,
      html({ type: "fill_in_blanks", prompt: "Fill in", text: "<p>The capital is <b>{{city}}</b>.</p>", blanks }),
    );
    expect(q.text).toBe("<p>The capital is <b>{{city}}</b>.</p>");
    const lost = await call(`/v1/quizzes/${quizId}/questions`, {
      body: html({ type: "fill_in_blanks", prompt: "Fill in", text: "The capital is <script>{{city}}</script>.", blanks }),
    });
    expectProblem(lost, 400, "validation_failed");
    expect((lost.json as unknown as Errors).errors).toEqual([
      { path: "blanks[0].id", message: "Once sanitized (docs/content.md): The text has no {{city}} marker." },
    ]);
  });

  it("refuses a required text that sanitizing leaves empty", async () => {
    const quizId = await createQuiz();
    const res = await call(`/v1/quizzes/${quizId}/questions`, { body: html(tf("<script>only this</script>")) });
    expectProblem(res, 400, "validation_failed");
    expect((res.json as unknown as Errors).errors.map((e) => e.path)).toEqual(["prompt"]);
  });

  it("refuses an unknown content_format", async () => {
    const quizId = await createQuiz();
    expectProblem(
      await call(`/v1/quizzes/${quizId}/questions`, { body: { ...tf("x"), content_format: "markdown" } }),
      400,
      "validation_failed",
    );
  });
});

describe("limits", () => {
  it("text keeps its plain-text limits (an option 1 000 characters on one line); html allows 100 000 a field", async () => {
    const quizId = await createQuiz();
    const long = "y".repeat(5000);
    const options = [{ text: long }, { text: "b" }];
    const asText = await call(`/v1/quizzes/${quizId}/questions`, { body: single({ options, correct_option_id: "a" }) });
    expectProblem(asText, 400, "validation_failed");
    expect((asText.json as unknown as Errors).errors[0]?.path).toBe("options[0].text");
    const twoLines = await call(`/v1/quizzes/${quizId}/questions`, {
      body: single({ options: [{ text: "a\nb" }, { text: "c" }], correct_option_id: "a" }),
    });
    expectProblem(twoLines, 400, "validation_failed");
    const asHtml = await addQuestion(
      quizId,
      html(single({ options: [{ text: `<b>${long}</b>` }, { text: "b" }], correct_option_id: "a" })),
    );
    expect(asHtml.options?.[0]?.text).toBe(`<b>${long}</b>`);
  });

  it("refuses a field over 100 000 characters once sanitized (TeX grows into MathML), naming it", async () => {
    const quizId = await createQuiz();
    const prompt = "\\(\\frac{a}{b}\\) ".repeat(900); // 14 400 characters in, about 190 000 of MathML out
    const res = await call(`/v1/quizzes/${quizId}/questions`, { body: html(tf(prompt)) });
    expectProblem(res, 400, "validation_failed");
    const [error] = (res.json as unknown as Errors).errors;
    expect(error?.path).toBe("prompt");
    expect(error?.message).toMatch(/^Longer than 100000 characters once sanitized/);
  });

  it("refuses nesting past 64 levels with a problem that says so; 64 is stored", async () => {
    const quizId = await createQuiz();
    const nest = (n: number) => `${"<span>".repeat(n)}x${"</span>".repeat(n)}`;
    const ok = await addQuestion(quizId, html(tf(nest(64))));
    expect(ok.prompt).toBe(nest(64));
    const res = await call(`/v1/quizzes/${quizId}/questions`, { body: html(tf(nest(65))) });
    expectProblem(res, 400, "validation_failed");
    expect((res.json as unknown as Errors).errors).toEqual([
      { path: "prompt", message: "The HTML nests more than 64 elements deep. Flatten it: at most 64 levels are stored." },
    ]);
  });
});

describe("content_format on PATCH and on POST /v1/quizzes", () => {
  it("PATCH sanitizes what it writes; changing content_format alone makes no new version", async () => {
    const quizId = await createQuiz();
    const q = await addQuestion(quizId, single({ prompt: "Plain" }));
    const toHtml = await call(`/v1/quizzes/${quizId}/questions/${q.id}`, { method: "PATCH", body: { content_format: "html" } });
    expect(toHtml.status, toHtml.text).toBe(200);
    expect(toHtml.json).toMatchObject({ content_format: "html", prompt: "Plain", version: q.version });
    const patched = await call(`/v1/quizzes/${quizId}/questions/${q.id}`, {
      method: "PATCH",
      body: { prompt: "<b onmouseover=x>Bold</b><iframe src=x></iframe>" },
    });
    expect(patched.json).toMatchObject({ prompt: "<b>Bold</b>", version: q.version });
    const option = await call(`/v1/quizzes/${quizId}/questions/${q.id}`, {
      method: "PATCH",
      body: { options: [{ text: "<i>Paris</i><svg onload=x>" }, { text: "Lyon" }], correct_option_id: "a" },
    });
    expect(option.json.options).toEqual([
      { id: "a", text: "<i>Paris</i>" },
      { id: "b", text: "Lyon" },
    ]);
    expect(option.json.version).toBe(q.version + 1);
  });

  it("a quiz created with html questions stores each sanitized, and names a refused one by its index", async () => {
    const res = await call("/v1/quizzes", {
      body: { title: "Rich", questions: [html(tf("<p>One<script>x</script></p>")), tf("<p>Two</p>")] },
    });
    expect(res.status, res.text).toBe(201);
    const [first, second] = await Promise.all(
      (res.json.question_ids as string[]).map(async (id) => (await call(`/v1/quizzes/${res.json.id}/questions/${id}`)).json),
    );
    expect(first).toMatchObject({ content_format: "html", prompt: "<p>One</p>" });
    expect(second).toMatchObject({ content_format: "text", prompt: "<p>Two</p>" });
    const refused = await call("/v1/quizzes", {
      body: { title: "Rich", questions: [tf("fine"), html(tf(`${"<i>".repeat(65)}x`))] },
    });
    expectProblem(refused, 400, "validation_failed");
    expect((refused.json as unknown as Errors).errors.map((e) => e.path)).toEqual(["questions[1].prompt"]);
  });
});

describe("TeX budget", () => {
  it("refuses a write asking for more than 1 000 formulas, naming the field where the budget ran out", async () => {
    const quizId = await createQuiz();
    // 600 formulas a prompt: two questions pass each alone, not together.
    const prompt = "\\(a\\)".repeat(600);
    const res = await call("/v1/quizzes", { body: { title: "Many formulas", questions: [html(tf(prompt)), html(tf(prompt))] } });
    expectProblem(res, 400, "validation_failed");
    expect((res.json as unknown as Errors).errors).toEqual([
      {
        path: "questions[1].prompt",
        message:
          "More than 1000 TeX formulas (or 200000 characters of TeX) in one write: write the questions in several requests.",
      },
    ]);
    expect((await addQuestion(quizId, html(tf(prompt)))).prompt).toContain("<math>");
  });
});
