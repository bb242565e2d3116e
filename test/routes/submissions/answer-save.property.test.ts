import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { call } from "../../support/call";
import { createQuiz, createSubmission, createUser, FIVE_TYPES, grade } from "./fixtures";

/**
 * Nothing typed is lost (docs/api.md, "Saving one answer"): whatever order one-answer saves
 * arrive in, however often each is sent and however many race, the stored answers and the grade
 * are the last edit of each question. A trial is one submission of QUESTIONS questions, each with
 * a schedule of its own (edits, their seqs raised edit by edit, each sent once or twice); the
 * sends of all its questions are shuffled together and fired in waves of concurrent requests at
 * the one submission row.
 */

const TRIALS = 26;
const QUESTIONS = 40; // 8 of each of the five types: 26 × 40 = 1 040 schedules
/** Per type of FIVE_TYPES: a right response (1 point) and a wrong one (0). */
const RIGHT: unknown[] = ["b", ["a", "b"], true, "Rome", 3.14];
const WRONG: unknown[] = ["a", ["c"], false, "Paris", 5];

type Edit = "right" | "wrong" | "clear";
const responseOf = (question: number, edit: Edit) =>
  edit === "clear" ? null : (edit === "right" ? RIGHT : WRONG)[question % FIVE_TYPES.length];

const questionSchedule = fc.record({
  start: fc.integer({ min: 1, max: 2 ** 52 }),
  edits: fc.array(
    fc.record({
      edit: fc.constantFrom<Edit>("right", "wrong", "clear"),
      step: fc.integer({ min: 1, max: 1_000_000 }),
      copies: fc.integer({ min: 1, max: 2 }),
    }),
    { maxLength: 4 },
  ),
});

const trial = fc.record({
  schedules: fc.array(questionSchedule, { minLength: QUESTIONS, maxLength: QUESTIONS }),
  /** A sort key per send (the arrival order) and the sizes of the concurrent waves. */
  order: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: QUESTIONS * 8, maxLength: QUESTIONS * 8 }),
  waves: fc.array(fc.integer({ min: 1, max: 24 }), { minLength: QUESTIONS * 8, maxLength: QUESTIONS * 8 }),
});

describe("PUT /v1/submissions/{id}/answers/{question_id}: any order of saves", () => {
  it(`${TRIALS * QUESTIONS} random schedules, out of order, duplicated and concurrent: the answers and the grade are each question's last edit`, async () => {
    const quiz = await createQuiz(
      {},
      Array.from({ length: QUESTIONS }, (_, i) => FIVE_TYPES[i % FIVE_TYPES.length]),
    );
    const user = await createUser();
    let schedules = 0;
    let stale = 0;
    await fc.assert(
      fc.asyncProperty(trial, async ({ schedules: plan, order, waves }) => {
        const sub = await createSubmission(quiz.id, user);
        const sends = plan.flatMap(({ start, edits }, q) => {
          let seq = start;
          return edits.flatMap(({ edit, step, copies }) => {
            seq += step;
            const send = { q, seq, response: responseOf(q, edit) };
            return Array.from({ length: copies }, () => send);
          });
        });
        const arrival = sends.map((send, i) => ({ send, key: order[i] ?? 0 })).sort((a, b) => a.key - b.key);
        for (let at = 0, w = 0; at < arrival.length; w++) {
          const wave = arrival.slice(at, at + (waves[w] ?? 1));
          at += wave.length;
          const answers = await Promise.all(
            wave.map(({ send }) =>
              call(`/v1/submissions/${sub.id}/answers/${quiz.questionIds[send.q]}`, {
                method: "PUT",
                body: { response: send.response, seq: send.seq },
              }),
            ),
          );
          answers.forEach((res, i) => {
            const { send } = wave[i] as (typeof wave)[number];
            expect(res.status, res.text).toBe(200);
            if (res.json.stale) {
              stale++;
              expect(res.json.seq).toBeGreaterThanOrEqual(send.seq);
            } else expect(res.json).toMatchObject({ response: send.response, seq: send.seq });
          });
        }

        // The last edit of each question, by the schedule (questions never edited: no answer).
        const last = plan.map(({ start, edits }, q) => {
          const final = edits.at(-1);
          if (!final) return undefined;
          return {
            seq: start + edits.reduce((sum, e) => sum + e.step, 0),
            response: responseOf(q, final.edit),
            edit: final.edit,
          };
        });
        const stored = (await call(`/v1/submissions/${sub.id}`)).json.answers;
        const expected = last.flatMap((l, q) =>
          l ? [{ question_id: quiz.questionIds[q], response: l.response, seq: l.seq }] : [],
        );
        expect(stored.map(({ question_id, response, seq }) => ({ question_id, response, seq })).sort(byQuestion)).toEqual(
          expected.sort(byQuestion),
        );
        const graded = await grade(sub.id);
        expect(graded.points_earned).toBe(last.filter((l) => l?.edit === "right").length);
        const results = (await call(`/v1/submissions/${sub.id}/results`)).json.answers;
        expect(results.map((a) => a.response)).toEqual(last.map((l) => l?.response ?? null));
        schedules += plan.length;
      }),
      { numRuns: TRIALS },
    );
    expect(schedules).toBeGreaterThanOrEqual(1000);
    // Duplicates and late arrivals happened: the property was tested where it can fail.
    expect(stale).toBeGreaterThan(TRIALS);
  }, 120_000);
});

const byQuestion = (a: { question_id?: string }, b: { question_id?: string }) =>
  (a.question_id ?? "").localeCompare(b.question_id ?? "");
