import { afterEach, describe, expect, it, vi } from "vitest";
import { ANSWER_COLUMNS } from "../../../src/domain/results-export";
import { csvObjects, csvRows, exported, grade, ndjsonRows, newUser, ok, submit } from "./results-export.fixtures";

/**
 * GET /v1/quizzes/{id}/results/export (docs/api.md): `kept` marks the attempts each grading
 * policy keeps, and they make the kept grade GET /v1/quizzes/{id}/grades answers; `since` selects
 * on graded_at, inclusive.
 */

afterEach(() => {
  vi.useRealTimers();
});

describe("kept: the attempt the grading policy keeps", () => {
  /** Four true/false questions: `right` answers score right × 25. */
  it.each(["highest", "latest", "first", "average"] as const)("%s", async (policy) => {
    const tf = Array.from({ length: 4 }, (_, i) => ({ type: "true_false", prompt: `S${i}?`, correct: true }));
    const quiz = await ok("/v1/quizzes", { title: `Kept ${policy}`, questions: tf, settings: { grading_policy: policy } });
    const answers = (right: number) =>
      quiz.question_ids.map((question_id: string, i: number) => ({ question_id, response: i < right }));
    const [ada, bob] = [await newUser(), await newUser()];
    // Ada's attempts score 50, 100, 100, 25 and are graded out of order; Bob's 0 and 75.
    const mine = [];
    for (const right of [2, 4, 4, 1]) mine.push(await submit(quiz.id, ada, answers(right)));
    for (const i of [2, 0, 3, 1]) await grade(mine[i] as string);
    for (const right of [0, 3]) await grade(await submit(quiz.id, bob, answers(right)));

    const rows = ndjsonRows((await exported(quiz.id, "ndjson", "submissions")).text);
    const keptAttempts = (user: string) => rows.filter((r) => r.user_id === user && r.kept).map((r) => r.attempt);
    const expected = {
      highest: [[2], [2]],
      latest: [[4], [2]],
      first: [[1], [1]],
      average: [
        [1, 2, 3, 4],
        [1, 2],
      ],
    }[policy];
    expect([keptAttempts(ada), keptAttempts(bob)]).toEqual(expected);
    // The kept attempts give the kept grade the API answers.
    for (const g of (await ok(`/v1/quizzes/${quiz.id}/grades`)).grades) {
      const scores = rows.filter((r) => r.user_id === g.user_id && r.kept).map((r) => r.score as number);
      const kept = Math.round((scores.reduce((s, x) => s + x, 0) / scores.length) * 100) / 100;
      expect(kept).toBe(g.kept_score);
    }
    const csv = csvObjects((await exported(quiz.id, "csv", "submissions")).text);
    expect(csv.map((r) => r.kept)).toEqual(rows.map((r) => String(r.kept)));
  });
});

describe("since: graded at or after the instant", () => {
  it("is inclusive, takes an offset, and leaves out what needs review", async () => {
    const questions = [
      { type: "true_false", prompt: "True?", correct: true },
      { type: "essay", prompt: "Explain." },
    ];
    const quiz = await ok("/v1/quizzes", { title: "Since", questions });
    const user = await newUser();
    const times = ["2031-05-01T10:00:00.000Z", "2031-05-01T11:00:00.000Z", "2031-05-01T12:00:00.000Z"];
    const ids = [];
    vi.useFakeTimers({ toFake: ["Date"] });
    for (const at of times) {
      vi.setSystemTime(new Date(at));
      const id = await submit(quiz.id, user, []);
      await grade(id);
      ids.push(id);
    }
    const essay = { question_id: quiz.question_ids[1], response: "Pending." };
    await grade(await submit(quiz.id, user, [essay]));
    vi.useRealTimers();
    const since = async (at: string) =>
      ndjsonRows((await exported(quiz.id, "ndjson", "submissions", `&since=${encodeURIComponent(at)}`)).text).map(
        (r) => r.submission_id,
      );
    expect(await since(times[1] as string)).toEqual(ids.slice(1));
    expect(await since("2031-05-01T11:00:00.001Z")).toEqual(ids.slice(2));
    expect(await since("2031-05-01T12:00:00+01:00")).toEqual(ids.slice(1));
    expect(await since("2031-05-01T11:00:00Z")).toEqual(ids.slice(1));
    expect((await exported(quiz.id, "ndjson", "submissions")).text.split("\n")).toHaveLength(5);
    expect(await since("2040-01-01T00:00:00Z")).toEqual([]);
    expect(csvRows((await exported(quiz.id, "csv", "answers", "&since=2040-01-01T00:00:00Z")).text)).toEqual([
      [...ANSWER_COLUMNS],
    ]);
  });
});
