import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { call, expectProblem } from "../../support/call";
import { addQuestion, createQuiz, ISO_MS, listAll, MISSING_QUIZ_ID, promptsInOrder, QST_ID, single, TYPES, tf } from "./fixtures";

describe("POST /v1/quizzes/{id}/questions", () => {
  it("creates each of the five types with its defaults, and reads them back", async () => {
    const quizId = await createQuiz();
    const inputs = [
      {
        type: "single_choice",
        prompt: "2 + 2?",
        options: [
          { id: "three", text: "3" },
          { id: "four", text: "4" },
        ],
        correct_option_id: "four",
      },
      {
        type: "multiple_choice",
        prompt: "Primes?",
        options: [{ text: "2" }, { text: "3" }, { text: "4" }],
        correct_option_ids: ["a", "b"],
      },
      { type: "true_false", prompt: "Water is wet?", correct: true },
      { type: "short_text", prompt: "Capital of Italy?", accepted_answers: ["Rome", "Roma"] },
      { type: "numeric", prompt: "Pi?", correct_value: 3.14159 },
    ];
    const expectedKeys = [
      {
        options: [
          { id: "three", text: "3" },
          { id: "four", text: "4" },
        ],
        correct_option_id: "four",
      },
      {
        options: [
          { id: "a", text: "2" },
          { id: "b", text: "3" },
          { id: "c", text: "4" },
        ],
        correct_option_ids: ["a", "b"],
        scoring: "all_or_nothing",
      },
      { correct: true },
      { accepted_answers: ["Rome", "Roma"], case_sensitive: false },
      { correct_value: 3.14159, tolerance: 0 },
    ];
    const created = [];
    for (const [i, input] of inputs.entries()) {
      const res = await call(`/v1/quizzes/${quizId}/questions`, { body: input });
      expect(res.status, res.text).toBe(201);
      expect(res.json).toEqual({
        id: expect.stringMatching(QST_ID),
        quiz_id: quizId,
        type: input.type,
        content_format: "text",
        title: null,
        tags: [],
        prompt: input.prompt,
        points: 1,
        position: i + 1,
        feedback: {},
        explanation: null,
        ...expectedKeys[i],
        pool: null,
        version: 1,
        created_at: expect.stringMatching(ISO_MS),
        updated_at: expect.stringMatching(ISO_MS),
      });
      expect(res.headers.get("location")).toBe(`/v1/quizzes/${quizId}/questions/${res.json.id}`);
      const got = await call(res.headers.get("location") as `/v1/quizzes/${string}/questions/${string}`);
      expect(got.status).toBe(200);
      expect(got.json).toEqual(res.json);
      created.push(res.json);
    }
    expect(await listAll(quizId)).toEqual(created);
    expect((await call(`/v1/quizzes/${quizId}`)).json.questions).toBe(5);
  });

  it("keeps points, feedback, explanation, scoring, case_sensitive and tolerance as given, trimmed", async () => {
    const quizId = await createQuiz();
    const mc = await addQuestion(quizId, {
      type: "multiple_choice",
      prompt: "  Pick  ",
      points: 2.5,
      feedback: { correct: " Yes ", incorrect: "No" },
      explanation: " Because. ",
      options: [{ text: " A " }, { text: "B" }],
      correct_option_ids: ["b"],
      scoring: "partial",
    });
    expect(mc).toMatchObject({
      prompt: "Pick",
      points: 2.5,
      feedback: { correct: "Yes", incorrect: "No" },
      explanation: "Because.",
      options: [
        { id: "a", text: "A" },
        { id: "b", text: "B" },
      ],
      scoring: "partial",
    });
    const st = await addQuestion(quizId, {
      type: "short_text",
      prompt: "Case",
      accepted_answers: [" DNA "],
      case_sensitive: true,
    });
    expect(st).toMatchObject({ accepted_answers: ["DNA"], case_sensitive: true });
    const num = await addQuestion(quizId, {
      type: "numeric",
      prompt: "g?",
      correct_value: -9.81,
      tolerance: 0.05,
      points: 0.000001,
    });
    expect(num).toMatchObject({ correct_value: -9.81, tolerance: 0.05, points: 0.000001 });
  });

  it("option ids: assigned a, b, … by position when absent; client ids kept", async () => {
    const quizId = await createQuiz();
    const mixed = await addQuestion(
      quizId,
      single({ options: [{ id: "X_1", text: "one" }, { text: "two" }, { text: "three" }], correct_option_id: "c" }),
    );
    expect(mixed.options).toEqual([
      { id: "X_1", text: "one" },
      { id: "b", text: "two" },
      { id: "c", text: "three" },
    ]);
    const many = await addQuestion(quizId, {
      type: "multiple_choice",
      prompt: "All letters",
      options: Array.from({ length: 26 }, (_, i) => ({ text: `Option ${i}` })),
      correct_option_ids: ["z"],
    });
    expect(many.options!.map((o) => o.id).join("")).toBe("abcdefghijklmnopqrstuvwxyz");
  });

  it("inserts at a position: the others move down, positions stay 1..n", async () => {
    const quizId = await createQuiz([tf("A"), tf("B"), tf("C")]);
    const inserted = await addQuestion(quizId, { ...tf("X"), position: 2 });
    expect(inserted.position).toBe(2);
    expect(await promptsInOrder(quizId)).toEqual(["A", "X", "B", "C"]);
    await addQuestion(quizId, { ...tf("First"), position: 1 });
    expect(await promptsInOrder(quizId)).toEqual(["First", "A", "X", "B", "C"]);
    const last = await addQuestion(quizId, { ...tf("Last"), position: 6 });
    expect(last.position).toBe(6);
    expect(await promptsInOrder(quizId)).toEqual(["First", "A", "X", "B", "C", "Last"]);
  });

  it("a position past the end puts the question last", async () => {
    const quizId = await createQuiz([tf("A"), tf("B")]);
    const q = await addQuestion(quizId, { ...tf("Z"), position: 150 });
    expect(q.position).toBe(3);
    expect(await promptsInOrder(quizId)).toEqual(["A", "B", "Z"]);
  });

  it("the 201st question → 409 question_limit_reached", async () => {
    const quizId = await createQuiz(Array.from({ length: 200 }, (_, i) => tf(`Q${i + 1}`)));
    expect((await call(`/v1/quizzes/${quizId}`)).json.questions).toBe(200);
    const res = await call(`/v1/quizzes/${quizId}/questions`, { body: tf("One too many") });
    expectProblem(res, 409, "question_limit_reached");
    expect((await call(`/v1/quizzes/${quizId}`)).json.questions).toBe(200);
    const all = await listAll(quizId);
    expect(all).toHaveLength(200);
    expect(all.map((q) => q.position)).toEqual(all.map((_, i) => i + 1));
  }, 30_000);

  it("concurrent additions get distinct positions that match the list", async () => {
    const quizId = await createQuiz([tf("Existing")]);
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        call(`/v1/quizzes/${quizId}/questions`, { body: i % 2 ? { ...tf(`C${i}`), position: 1 } : tf(`C${i}`) }),
      ),
    );
    for (const r of results) expect(r.status, r.text).toBe(201);
    const all = await listAll(quizId);
    expect(all.map((q) => q.position)).toEqual(all.map((_, i) => i + 1));
    expect(all).toHaveLength(9);
    // Each answer named the position its question was given; later inserts may have moved it since,
    // but no two questions can have been given the same place at the end of the list.
    const appended = results.filter((_, i) => i % 2 === 0).map((r) => r.json.position);
    expect(new Set(appended).size).toBe(appended.length);
  });

  it("concurrent additions to a nearly full quiz never pass 200 questions", async () => {
    const quizId = await createQuiz(Array.from({ length: 197 }, (_, i) => tf(`Q${i + 1}`)));
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        call(`/v1/quizzes/${quizId}/questions`, { body: i % 2 ? { ...tf(`C${i}`), position: 2 } : tf(`C${i}`) }),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(3);
    for (const r of results.filter((r) => r.status !== 201)) expectProblem(r, 409, "question_limit_reached");
    expect((await call(`/v1/quizzes/${quizId}`)).json.questions).toBe(200);
    const all = await listAll(quizId);
    expect(all.map((q) => q.position)).toEqual(all.map((_, i) => i + 1));
  }, 30_000);

  describe("validation → 400 naming the field", () => {
    const cases: [string, unknown, string][] = [
      ["missing type", { prompt: "x", correct: true }, "type"],
      ["unknown type", { type: "drawing", prompt: "x" }, "type"],
      ["missing prompt", { type: "true_false", correct: true }, "prompt"],
      ["blank prompt", { type: "true_false", prompt: "  ", correct: true }, "prompt"],
      ["prompt over 10 000", { type: "true_false", prompt: "p".repeat(10_001), correct: true }, "prompt"],
      ["zero points", { ...tf("x"), points: 0 }, "points"],
      ["negative points", { ...tf("x"), points: -1 }, "points"],
      ["string points", { ...tf("x"), points: "1" }, "points"],
      ["points with 7 decimals", { ...tf("x"), points: 0.0000001 }, "points"],
      ["points that round to 0 micro-points", { ...tf("x"), points: 1e-13 }, "points"],
      ["points over the maximum", { ...tf("x"), points: 1_000_001 }, "points"],
      ["missing correct", { type: "true_false", prompt: "x" }, "correct"],
      ["correct not a boolean", { type: "true_false", prompt: "x", correct: "true" }, "correct"],
      ["key of another type", { ...tf("x"), options: [{ text: "a" }, { text: "b" }] }, "options"],
      ["unknown field", { ...tf("x"), hint: "no" }, "hint"],
      ["unknown feedback field", { ...tf("x"), feedback: { partial: "meh" } }, "feedback.partial"],
      ["one option", single({ options: [{ text: "only" }] }), "options"],
      ["27 options", single({ options: Array.from({ length: 27 }, (_, i) => ({ text: `o${i}` })) }), "options"],
      ["blank option text", single({ options: [{ text: "A" }, { text: " " }] }), "options[1].text"],
      ["bad option id", single({ options: [{ id: "a b", text: "A" }, { text: "B" }] }), "options[0].id"],
      ["option id over 64", single({ options: [{ id: "i".repeat(65), text: "A" }, { text: "B" }] }), "options[0].id"],
      ["duplicate option ids", single({ options: [{ text: "A" }, { id: "a", text: "B" }] }), "options[1].id"],
      ["correct_option_id not an option", single({ correct_option_id: "q" }), "correct_option_id"],
      ["missing correct_option_id", single({ correct_option_id: undefined }), "correct_option_id"],
      [
        "correct_option_ids empty",
        { type: "multiple_choice", prompt: "x", options: [{ text: "A" }, { text: "B" }], correct_option_ids: [] },
        "correct_option_ids",
      ],
      [
        "correct_option_ids not an option",
        { type: "multiple_choice", prompt: "x", options: [{ text: "A" }, { text: "B" }], correct_option_ids: ["a", "c"] },
        "correct_option_ids[1]",
      ],
      [
        "duplicate correct_option_ids",
        { type: "multiple_choice", prompt: "x", options: [{ text: "A" }, { text: "B" }], correct_option_ids: ["a", "a"] },
        "correct_option_ids",
      ],
      [
        "unknown scoring",
        {
          type: "multiple_choice",
          prompt: "x",
          options: [{ text: "A" }, { text: "B" }],
          correct_option_ids: ["a"],
          scoring: "some",
        },
        "scoring",
      ],
      ["no accepted answers", { type: "short_text", prompt: "x", accepted_answers: [] }, "accepted_answers"],
      ["blank accepted answer", { type: "short_text", prompt: "x", accepted_answers: ["ok", " "] }, "accepted_answers[1]"],
      ["missing correct_value", { type: "numeric", prompt: "x" }, "correct_value"],
      ["negative tolerance", { type: "numeric", prompt: "x", correct_value: 1, tolerance: -0.1 }, "tolerance"],
      ["position 0", { ...tf("x"), position: 0 }, "position"],
      ["fractional position", { ...tf("x"), position: 1.5 }, "position"],
    ];
    it.each(cases)("%s", async (_name, body, path) => {
      const quizId = await createQuiz([tf("Existing")]);
      const problem = expectProblem(await call(`/v1/quizzes/${quizId}/questions`, { body }), 400, "validation_failed");
      expect(problem.errors?.map((e) => e.path)).toContain(path);
      expect(await promptsInOrder(quizId)).toEqual(["Existing"]);
    });
  });

  it("unknown quiz → 404", async () => {
    expectProblem(await call(`/v1/quizzes/${MISSING_QUIZ_ID}/questions`, { body: tf("x") }), 404, "not_found");
  });

  it("malformed quiz id → 404", async () => {
    expectProblem(await call("/v1/quizzes/nope/questions", { body: tf("x") }), 404, "not_found");
  });

  it("wrong method → 405 with Allow: GET, POST", async () => {
    const quizId = await createQuiz();
    const res = await call(`/v1/quizzes/${quizId}/questions`, { method: "DELETE" });
    expectProblem(res, 405, "method_not_allowed");
    expect(res.headers.get("allow")?.split(/,\s*/)).toEqual(expect.arrayContaining(["GET", "POST"]));
  });
});

describe("question definitions, fuzzed", () => {
  // Valid values, including awkward ones (any Unicode, lone surrogates, NUL, SQL-looking text).
  const goodText = fc
    .oneof(
      { weight: 6, arbitrary: fc.string({ minLength: 1, maxLength: 40 }) },
      { weight: 1, arbitrary: fc.string({ unit: "binary", minLength: 1, maxLength: 20 }) },
      { weight: 1, arbitrary: fc.constantFrom("\u0000x", "'; DROP TABLE questions; --", "e\u0301", "𝔘𝔫𝔦", "x".repeat(1000)) },
    )
    .filter((t) => t.trim().length > 0);
  const goodPoints = fc.oneof(
    fc.integer({ min: 1, max: 100 }),
    fc.integer({ min: 1, max: 1e9 }).map((m) => m / 1e6),
  );
  type OptionInput = { id?: string; text: string };
  const goodOptions: fc.Arbitrary<OptionInput[]> = fc.integer({ min: 2, max: 8 }).chain((n) =>
    fc.oneof<fc.Arbitrary<OptionInput[]>[]>(
      fc.array(goodText, { minLength: n, maxLength: n }).map((texts) => texts.map((text) => ({ text }))),
      fc
        .tuple(
          fc.array(goodText, { minLength: n, maxLength: n }),
          fc.uniqueArray(fc.stringMatching(/^[A-Za-z0-9_-]{1,64}$/), { minLength: n, maxLength: n }),
        )
        .map(([texts, ids]) => texts.map((text, i) => ({ id: ids[i]!, text }))),
    ),
  );
  const idsOf = (options: OptionInput[]) => options.map((o, i) => o.id ?? String.fromCharCode(97 + i));
  const common = {
    prompt: goodText,
    points: goodPoints,
    feedback: fc.record({ correct: goodText, incorrect: goodText }, { requiredKeys: [] }),
    explanation: fc.option(goodText, { nil: null }),
  };
  const valid: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
    goodOptions.chain((options) =>
      fc.record(
        {
          type: fc.constant("single_choice"),
          ...common,
          options: fc.constant(options),
          correct_option_id: fc.constantFrom(...idsOf(options)),
        },
        { requiredKeys: ["type", "prompt", "options", "correct_option_id"] },
      ),
    ),
    goodOptions.chain((options) =>
      fc.record(
        {
          type: fc.constant("multiple_choice"),
          ...common,
          options: fc.constant(options),
          correct_option_ids: fc.subarray(idsOf(options), { minLength: 1 }),
          scoring: fc.constantFrom("all_or_nothing", "partial"),
        },
        { requiredKeys: ["type", "prompt", "options", "correct_option_ids"] },
      ),
    ),
    fc.record(
      { type: fc.constant("true_false"), ...common, correct: fc.boolean() },
      { requiredKeys: ["type", "prompt", "correct"] },
    ),
    fc.record(
      {
        type: fc.constant("short_text"),
        ...common,
        accepted_answers: fc.array(goodText, { minLength: 1, maxLength: 5 }),
        case_sensitive: fc.boolean(),
      },
      { requiredKeys: ["type", "prompt", "accepted_answers"] },
    ),
    fc.record(
      {
        type: fc.constant("numeric"),
        ...common,
        correct_value: fc.double({ min: -1e15, max: 1e15, noNaN: true }),
        tolerance: fc.double({ min: 0, max: 1e6, noNaN: true }),
      },
      { requiredKeys: ["type", "prompt", "correct_value"] },
    ),
  );

  // Anything JSON can carry, including values far out of range and huge or nested ones.
  const junk: fc.Arbitrary<unknown> = fc.oneof(
    { weight: 4, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        null,
        true,
        0,
        -1,
        1e-13,
        1e308,
        -1e308,
        1_000_001,
        "",
        "   ",
        [],
        {},
        [{}],
        [{ text: "" }],
        "x".repeat(300_000),
        ["a", "a"],
        { text: "x", id: "a", extra: 1 },
        [[[[[[[[[[[[]]]]]]]]]]]],
      ),
    },
  );
  const FIELDS = [
    "type",
    "prompt",
    "points",
    "feedback",
    "explanation",
    "options",
    "correct_option_id",
    "correct_option_ids",
    "scoring",
    "correct",
    "accepted_answers",
    "case_sensitive",
    "correct_value",
    "tolerance",
    "position",
  ];
  type Mangle = (q: Record<string, unknown>) => Record<string, unknown>;
  const mangle: fc.Arbitrary<Mangle> = fc.oneof(
    // A key goes missing.
    fc.constantFrom(...FIELDS).map<Mangle>((key) => (q) => {
      const { [key]: _dropped, ...rest } = q;
      return rest;
    }),
    // A known key gets a value of any type.
    fc.tuple(fc.constantFrom(...FIELDS), junk).map<Mangle>(([key, value]) => (q) => ({ ...q, [key]: value })),
    // An unknown key appears.
    fc.tuple(fc.string({ maxLength: 12 }), junk).map<Mangle>(([key, value]) => (q) => ({ ...q, [key]: value })),
    // The type changes, to another type or to nonsense.
    fc.constantFrom<string>(...TYPES, "drawing", "", "TRUE_FALSE").map<Mangle>((type) => (q) => ({ ...q, type })),
    // Another type's key fields are added.
    fc.constant<Mangle>((q) => ({ ...q, options: [{ text: "A" }, { text: "B" }], correct: true })),
    // An own "__proto__" key, as JSON.parse makes it.
    fc.constant<Mangle>((q) =>
      JSON.parse(`{"__proto__": {"type": "numeric", "correct_value": 1}, ${JSON.stringify(q).slice(1)}`),
    ),
  );
  const definition = fc.oneof(
    { weight: 2, arbitrary: valid },
    {
      weight: 2,
      arbitrary: fc
        .tuple(valid, fc.array(mangle, { minLength: 1, maxLength: 3 }))
        .map(([q, mangles]) => mangles.reduce((acc, m) => m(acc), q)),
    },
    { weight: 1, arbitrary: junk },
  );

  it("always answer 201 or a 400 problem, never a 500 (POST question and inline)", async () => {
    let quizId = await createQuiz();
    let added = 0;
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(definition, async (body) => {
        // Stay below the 200-question limit: a 409 is not what this property is about.
        if (added >= 150) {
          quizId = await createQuiz();
          added = 0;
        }
        const res = await call(`/v1/quizzes/${quizId}/questions`, { body });
        if (res.status === 201) {
          added++;
          accepted++;
          expect(TYPES).toContain(res.json.type);
          expect(res.json.id).toMatch(QST_ID);
          const got = await call(`/v1/quizzes/${quizId}/questions/${res.json.id}`);
          expect(got.status).toBe(200);
          expect(got.json).toEqual(res.json);
        } else {
          const problem = expectProblem(res, 400, "validation_failed");
          expect(problem.errors?.length ?? 0, res.text).toBeGreaterThan(0);
          for (const error of problem.errors ?? []) {
            expect(typeof error.path).toBe("string");
            expect(typeof error.message).toBe("string");
          }
        }
        // The same definition inline in a new quiz: the same verdict (a position is not allowed inline).
        const inline = await call("/v1/quizzes", { body: { title: "Fuzz", questions: [body] } });
        if (inline.status !== 201) expectProblem(inline, 400, "validation_failed");
        if (typeof body !== "object" || body === null || !("position" in body))
          expect(inline.status, inline.text).toBe(res.status);
      }),
      { seed: 20261122, numRuns: 150 },
    );
    // The generator must reach both outcomes, or the property proves little.
    expect(accepted).toBeGreaterThan(30);
    expect(accepted).toBeLessThan(130);
  }, 120_000);
});
