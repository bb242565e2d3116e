import { z } from "@hono/zod-openapi";
import { multiLineText, singleLineText } from "../lib/text";

/**
 * A quiz's settings, defined once: the request and response schemas are built from these, and
 * the stored column, grading and results take their types from them. Settings stored before a
 * setting existed are read through `readSettings`, which fills it with its default.
 */

export const FeedbackBand = z
  .strictObject({
    min_score: z.number().min(0).max(100).openapi({ example: 80 }),
    message: multiLineText(2000, 1).openapi({ example: "Excellent!" }),
  })
  .openapi("FeedbackBand");
export type FeedbackBand = z.infer<typeof FeedbackBand>;

/** When results show each answer's key to whoever may read them (quizzes:write always sees keys). */
const REVEAL_POLICIES = ["always", "after_last_attempt", "after_due", "never"] as const;
export type RevealPolicy = (typeof REVEAL_POLICIES)[number];

/** Which graded submission's score is kept for a user at a quiz. */
export const GRADING_POLICIES = ["highest", "latest", "first", "average"] as const;
export type GradingPolicy = (typeof GRADING_POLICIES)[number];

const MIN_TIME_LIMIT_SECONDS = 60;
const MAX_TIME_LIMIT_SECONDS = 7 * 24 * 3600;
const MAX_POOLS = 50;

const timestamp = z.iso
  .datetime({ abort: true })
  .overwrite((at) => new Date(at).toISOString())
  .nullable()
  .openapi({ maxLength: 40, example: "2026-12-01T09:00:00.000Z" });

export const Pool = z
  .strictObject({
    pool: singleLineText(100).openapi({ description: "A label that questions carry in their `pool`.", example: "easy" }),
    pick: z
      .number()
      .int()
      .min(1)
      .max(200)
      .openapi({ description: "Questions drawn from the pool for each submission.", example: 3 }),
  })
  .openapi("Pool");
export type Pool = z.infer<typeof Pool>;

/** Each setting's schema, for the create, patch and response schemas. */
export const SETTINGS_FIELDS = {
  max_attempts: z
    .number()
    .int()
    .min(1)
    .max(1000)
    .nullable()
    .openapi({ description: "Attempts allowed per user (plus their accommodation's extra attempts); null is unlimited." }),
  feedback_bands: z
    .array(FeedbackBand)
    .max(20)
    .refine((bands) => new Set(bands.map((b) => b.min_score)).size === bands.length, {
      message: "Each feedback band needs a different min_score.",
    })
    .openapi({ description: "The band with the highest min_score ≤ score gives the submission's feedback." }),
  show_correct_answers: z
    .union([
      z.enum(REVEAL_POLICIES),
      z.boolean().openapi({
        deprecated: true,
        description:
          'Deprecated since 2026-11-26, sunset 2027-03-01: true and false are read as "always" and "never"; send those instead.',
      }),
    ])
    .transform((value): RevealPolicy => (value === true ? "always" : value === false ? "never" : value))
    .openapi({
      description:
        'When results show answer keys (with the questions\' feedback and explanations) to credentials without quizzes:write: "always"; "after_last_attempt" (once the user\'s graded attempts reach max_attempts + extra_attempts); "after_due" (after available_until, else the submission\'s deadline, else once graded); "never". Neither "after_last_attempt" nor "after_due" reveals while the user holds an open submission or may start another (the window open and attempts left). true and false, deprecated, are read as "always" and "never" (the answer then carries Deprecation and Sunset headers).',
    }),
  available_from: timestamp.openapi({ description: "Submissions may be created from this instant (inclusive); null: any time." }),
  available_until: timestamp.openapi({
    description:
      "Submissions may be created, and answers written, until this instant (exclusive); null: no end. Moved earlier, it moves the deadline_at of open submissions with it.",
  }),
  time_limit_seconds: z.number().int().min(MIN_TIME_LIMIT_SECONDS).max(MAX_TIME_LIMIT_SECONDS).nullable().openapi({
    description:
      "Each submission's deadline is created_at + this (+ the user's extra time); null: none. Made shorter, it moves the deadline_at of open submissions earlier (never later).",
  }),
  shuffle_questions: z.boolean().openapi({ description: "Each submission presents the questions in its own order." }),
  shuffle_options: z.boolean().openapi({
    description:
      "Each submission presents each choice question's options in its own order. Ordering items and matching choices are in an order of each submission's own whatever this says.",
  }),
  pools: z
    .array(Pool)
    .max(MAX_POOLS)
    .refine((pools) => new Set(pools.map((p) => p.pool)).size === pools.length, { message: "Each pool may be named once." })
    .openapi({
      description:
        "For each entry, `pick` questions of that pool are drawn per submission; unpooled questions are always presented.",
    }),
  grading_policy: z
    .enum(GRADING_POLICIES)
    .openapi({ description: "Which graded submission's score a user keeps (GET …/grades)." }),
};

export const QuizSettings = z
  .object({
    ...SETTINGS_FIELDS,
    show_correct_answers: z.enum(REVEAL_POLICIES).openapi({ description: SETTINGS_FIELDS.show_correct_answers.description }),
  })
  .openapi("QuizSettings");
export type QuizSettings = z.infer<typeof QuizSettings>;

/** The settings of a quiz created without them; each left out of a create takes its value here. */
export const DEFAULT_SETTINGS: QuizSettings = {
  max_attempts: null,
  feedback_bands: [],
  show_correct_answers: "after_last_attempt",
  available_from: null,
  available_until: null,
  time_limit_seconds: null,
  shuffle_questions: false,
  shuffle_options: false,
  pools: [],
  grading_policy: "highest",
};

/** Stored settings as they are now: defaults for settings added since, booleans read as policies. */
export function readSettings(stored: Partial<Record<keyof QuizSettings, unknown>>): QuizSettings {
  const reveal = stored.show_correct_answers;
  return {
    ...DEFAULT_SETTINGS,
    ...(stored as Partial<QuizSettings>),
    show_correct_answers:
      reveal === true
        ? "always"
        : reveal === false
          ? "never"
          : ((reveal as RevealPolicy | undefined) ?? DEFAULT_SETTINGS.show_correct_answers),
  };
}

/** The rules between settings; each problem names its field. */
export function settingsProblems(settings: QuizSettings): { path: string; message: string }[] {
  const problems: { path: string; message: string }[] = [];
  const { available_from: from, available_until: until } = settings;
  if (from !== null && until !== null && from >= until)
    problems.push({ path: "settings.available_until", message: "available_until must be later than available_from." });
  return problems;
}

/**
 * Pools that ask for more questions than they hold, given each pool's question count: each
 * problem names its entry.
 */
export function poolProblems(pools: readonly Pool[], sizes: ReadonlyMap<string, number>): { path: string; message: string }[] {
  return pools.flatMap((entry, i) => {
    const size = sizes.get(entry.pool) ?? 0;
    return entry.pick > size
      ? [
          {
            path: `settings.pools[${i}].pick`,
            message: `Pool "${entry.pool}" holds ${size} question(s); pick must be at most that.`,
          },
        ]
      : [];
  });
}
