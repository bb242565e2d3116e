import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type CsvCell, csvRecord } from "../../../src/lib/csv";
import { call } from "../../support/call";
import { csvCell, csvObjects, csvRows, exported, FORMULA_LIKE, ndjsonRows } from "./results-export.fixtures";

/**
 * The CSV of the results export (docs/api.md, RFC 4180, OWASP CSV injection): the writer as a
 * property, every record read back by csv-parse; and responses that are hard to write — commas,
 * quotes, CR and LF, a leading =, +, -, @, tab, CR or LF, and those signs behind whitespace or
 * invisible characters or in their fullwidth forms — exported through the API and read back.
 */

describe("csvRecord", () => {
  it("writes RFC 4180 records: quoted where needed, formula-like text defused, numbers as numbers", () => {
    const cells: CsvCell[] = ["=A1", -3, "-3", "a,b", 'say "hi"', "x\r\ny", null, true, "", 0.000001, "plain"];
    expect(csvRecord(cells)).toBe(`'=A1,-3,'-3,"a,b","say ""hi""","x\r\ny",,true,,0.000001,plain\r\n`);
    expect(csvRecord(["\tTab", "\rCR", "+1", "@cmd", "'quoted"])).toBe(`'\tTab,"'\rCR",'+1,'@cmd,'quoted\r\n`);
  });

  it("defuses a formula behind whitespace or invisible characters, a leading LF, and the signs' fullwidth and small forms", () => {
    const formulas = [
      " =1+1",
      "\u00a0=1+1",
      "\n=1+1",
      "\u2028=1+1",
      "\u200b=1+1",
      "\ufeff=1+1",
      "\u3000\u200e @cmd",
      " \t-1",
      "＝1+1",
      "＋1",
      "－1",
      "＠cmd",
      "﹦1+1",
      "⁼1",
      "\nplain",
    ];
    for (const text of formulas) expect(csvRows(csvRecord([text, 1]))[0], JSON.stringify(text)).toEqual([`'${text}`, "1"]);
    // Whitespace before anything else, and the signs further in, stay as written.
    const plain = [" leading space", "\u00a0a=b", "\u200bword", "a+b", "1-2", "mail@example.com", "−1"];
    for (const text of plain) expect(csvRows(csvRecord([text, 1]))[0], JSON.stringify(text)).toEqual([text, "1"]);
  });

  /** Text made of the characters that matter to CSV and to spreadsheets, and some that do not. */
  const text = fc
    .array(
      fc.constantFrom(
        ...["=", "+", "-", "@", "\t", "\r", "\n", '"', ",", "'", " ", "a", "1", "é", "😀"],
        ...["\u00a0", "\u2028", "\u200b", "\ufeff", "\u3000", "＝", "＋", "－", "＠"],
      ),
      { maxLength: 12 },
    )
    .map((chars) => chars.join(""));
  const cell: fc.Arbitrary<CsvCell> = fc.oneof(
    text,
    fc.string(),
    fc.integer({ min: -1e9, max: 1e9 }),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.boolean(),
    fc.constant(null),
  );

  it("reads back through csv-parse as the cells it was given, numbers unprefixed (property)", () => {
    fc.assert(
      fc.property(fc.array(fc.array(cell, { minLength: 2, maxLength: 8 }), { minLength: 1, maxLength: 20 }), (records) => {
        const width = Math.max(...records.map((r) => r.length));
        const even = records.map((r) => [...r, ...Array<CsvCell>(width - r.length).fill(null)]);
        const written = even.map(csvRecord).join("");
        expect(csvRows(written)).toEqual(even.map((r) => r.map(csvCell)));
      }),
      { numRuns: 500 },
    );
  });

  it("never leaves a text cell starting as a formula, and never prefixes a number (property)", () => {
    fc.assert(
      fc.property(fc.array(cell, { minLength: 2, maxLength: 8 }), (cells) => {
        const [read] = csvRows(csvRecord(cells));
        cells.forEach((value, i) => {
          const back = read?.[i] ?? "";
          if (typeof value === "string") expect(back).not.toMatch(FORMULA_LIKE);
          if (typeof value === "number") expect(Number(back)).toBe(value === 0 ? 0 : value);
        });
      }),
      { numRuns: 500 },
    );
  });
});

const HARD = [
  "a,b",
  'say "hi"',
  "line one\nline two",
  "line one\r\nline two",
  "cr\ronly",
  "=SUM(A1:A9)",
  '=HYPERLINK("https://example.com","click")',
  "+1",
  "-1",
  "@cmd",
  "\tTabbed",
  "\rCR first",
  "'already quoted",
  " leading space",
  "ünïcødé 😀",
  " =1+1",
  "\u00a0=cmd",
  "\n=cmd",
  "\u2028=cmd",
  "\u200b=cmd",
  "\ufeff=cmd",
  "＝1+1",
  "＋1",
  "－1",
  "＠cmd",
];

describe("hard responses through the API", () => {
  it("round-trip through the export: CSV cells defused and quoted, NDJSON as stored", async () => {
    const quiz = await call("/v1/quizzes", {
      body: {
        title: "Hard text",
        questions: [
          { type: "short_text", prompt: "Say", accepted_answers: ["x"] },
          { type: "essay", prompt: "Write" },
        ],
      },
    });
    expect(quiz.status, quiz.text).toBe(201);
    const [shortId, essayId] = quiz.json.question_ids as string[];
    const stored = new Map<string, unknown>();
    for (const response of HARD) {
      const user = await call("/v1/users", { body: { name: "H", email: `${crypto.randomUUID()}@example.com` } });
      const answers = [
        { question_id: shortId, response },
        { question_id: essayId, response },
      ];
      const sub = await call(`/v1/quizzes/${quiz.json.id}/submissions`, { body: { user_id: user.json.id, answers } });
      expect(sub.status, `${JSON.stringify(response)}: ${sub.text}`).toBe(201);
      expect((await call(`/v1/submissions/${sub.json.id}/grade`, { method: "POST" })).status).toBe(200);
      for (const a of (await call(`/v1/submissions/${sub.json.id}/results`)).json.answers)
        stored.set(`${sub.json.id} ${a.question_id}`, a.response);
    }
    const csv = csvObjects((await exported(quiz.json.id, "csv", "answers")).text);
    const lines = ndjsonRows((await exported(quiz.json.id, "ndjson", "answers")).text);
    expect(csv).toHaveLength(2 * HARD.length);
    expect(lines).toHaveLength(2 * HARD.length);
    for (const [i, row] of csv.entries()) {
      const response = stored.get(`${row.submission_id} ${row.question_id}`);
      expect(typeof response).toBe("string");
      expect(row.response).toBe(csvCell(response));
      // Defused by one ' and nothing else.
      if (row.response !== response) expect(row.response).toBe(`'${response}`);
      expect(lines[i]?.response).toBe(response);
    }
    // The stored responses are the hard ones, each defused where it must be.
    expect(new Set(stored.values())).toEqual(new Set(HARD));
    const defused = csv.filter((r) => r.response !== stored.get(`${r.submission_id} ${r.question_id}`));
    expect(defused).toHaveLength(2 * HARD.filter((h) => FORMULA_LIKE.test(h)).length);
    expect(defused.length).toBe(34);
    // The submissions shape of the same quiz parses too.
    expect(csvObjects((await exported(quiz.json.id, "csv", "submissions")).text)).toHaveLength(HARD.length);
  });
});
