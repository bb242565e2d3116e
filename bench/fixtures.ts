// Generated bench content: quizzes of every question type, and answers to them, right or wrong
// at a chosen rate. Deterministic for a given seed.

import { type Random, seededRandom } from "../scripts/random";
import type { SubmittedAnswer } from "../src/domain/answers";
import type { GradableQuestion } from "../src/domain/question-types";

export { type Random, seededRandom };

const TOPICS = ["geography", "history", "chemistry", "algebra", "literature", "biology", "music", "physics", "art", "economics"];
const LETTERS = "abcdefghij";

/** The body of POST /v1/quizzes for bench quiz number `n`: `questionCount` questions cycling through the five types. */
export function quizInput(n: number, questionCount: number, label = "Bench quiz") {
  const topic = TOPICS[n % TOPICS.length];
  const questions = Array.from({ length: questionCount }, (_, j) => {
    const k = n + j;
    const prompt = `Question ${j + 1} on ${topic}: pick the answer that best completes statement ${k} of the syllabus.`;
    const feedback = j % 3 === 0 ? { correct: "Correct, well done.", incorrect: "Not quite: see the explanation." } : {};
    const explanation = j % 4 === 0 ? `Statement ${k} is covered in chapter ${1 + (k % 12)} of the ${topic} notes.` : undefined;
    const common = { prompt, points: 1 + (j % 3), feedback, ...(explanation ? { explanation } : {}) };
    switch (j % 5) {
      case 0:
        return {
          type: "single_choice",
          ...common,
          options: [0, 1, 2, 3].map((o) => ({ text: `Option ${LETTERS[o]} for statement ${k}` })),
          correct_option_id: LETTERS[k % 4],
        };
      case 1:
        return {
          type: "multiple_choice",
          ...common,
          options: [0, 1, 2, 3, 4].map((o) => ({ text: `Choice ${LETTERS[o]} for statement ${k}` })),
          correct_option_ids: k % 2 === 0 ? ["a", "c", "e"] : ["b", "d"],
          scoring: j % 2 === 0 ? "all_or_nothing" : "partial",
        };
      case 2:
        return { type: "true_false", ...common, correct: k % 2 === 0 };
      case 3:
        return { type: "short_text", ...common, accepted_answers: [`answer ${k}`, `reply ${k}`], case_sensitive: false };
      default:
        return { type: "numeric", ...common, correct_value: ((k * 7) % 100) + 0.5, tolerance: j % 2 === 0 ? 0.5 : 0 };
    }
  });
  return {
    title: `${label} ${String(n).padStart(3, "0")}: ${topic}`,
    description: `Generated for the benchmark: ${questionCount} questions on ${topic}, every question type, partial scoring on some.`,
    settings: {
      max_attempts: null,
      show_correct_answers: n % 3 !== 0,
      feedback_bands: [
        { min_score: 0, message: "Keep going: review the notes and try again." },
        { min_score: 50, message: "Good: more than half right." },
        { min_score: 80, message: "Great: you know this topic." },
      ],
    },
    questions,
  };
}

/** A response to `q`, right or wrong; wrong ones are plausible (a near number, a partial choice). */
export function respond(q: GradableQuestion, right: boolean, random: Random): unknown {
  switch (q.type) {
    case "single_choice": {
      if (right) return q.correct_option_id;
      const others = q.options.filter((o) => o.id !== q.correct_option_id);
      return others[Math.floor(random() * others.length)]?.id ?? q.correct_option_id;
    }
    case "multiple_choice": {
      if (right) return [...q.correct_option_ids];
      const wrong = q.options.map((o) => o.id).filter((id) => !q.correct_option_ids.includes(id));
      const some = q.correct_option_ids.filter(() => random() < 0.6);
      return random() < 0.5 && wrong.length > 0 ? [...some, wrong[0]] : some;
    }
    case "true_false":
      return right ? q.correct : !q.correct;
    case "short_text": {
      const answer = q.accepted_answers[0] ?? "";
      return right ? (random() < 0.5 ? ` ${answer.toUpperCase()} ` : answer) : `not ${answer}`;
    }
    case "numeric":
      return right
        ? q.correct_value + (random() - 0.5) * q.tolerance
        : q.correct_value + q.tolerance + 1 + Math.floor(random() * 5);
  }
}

/** Answers of a user who gets each question right with probability `skill`, leaving a few out. */
export function answersFor(questions: GradableQuestion[], skill: number, random: Random): SubmittedAnswer[] {
  return questions.flatMap((q) => {
    if (random() < 0.05) return [];
    return [{ question_id: q.id, response: respond(q, random() < skill, random) }];
  });
}
