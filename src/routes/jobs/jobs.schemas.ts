import { z } from "@hono/zod-openapi";
import { IMPORT_ERROR_CODES, JOB_STATUSES } from "../../domain/jobs";
import { QUESTION_TYPES } from "../../domain/question-types";
import { IMPORT_FORMATS } from "../../interchange";
import { idSchema } from "../../lib/ids";
import { pageExample } from "../../lib/openapi";
import { nextCursorSchema, pageQuery } from "../../lib/pagination";

const RegradeResult = z
  .object({
    dry_run: z.boolean(),
    submissions_considered: z.number().int().openapi({ description: "Graded submissions presented any listed question." }),
    submissions_changed: z.number().int().openapi({ description: "Those whose score or any answer's points changed." }),
    mean_score_before: z
      .number()
      .nullable()
      .openapi({ description: "Mean score of those considered, 2 decimals; null when none." }),
    mean_score_after: z.number().nullable(),
  })
  .openapi("RegradeResult");

const ImportReportEntry = z
  .object({
    source_id: z.string().openapi({
      description:
        "The item's own identifier: the QTI item's identifier (its file's name when a package lacks the file), the Moodle question's <name>, the GIFT ::title::, else its 1-based position.",
    }),
    title: z.string().optional(),
    status: z.enum(["imported", "approximated", "skipped"]).openapi({
      description:
        "`imported`: every graded behaviour kept; `approximated`: imported, each loss named in `notes`; `skipped`: not imported, `notes` says why.",
    }),
    question_id: idSchema("question").optional().openapi({ description: "The question made of it, unless skipped." }),
    type: z.enum(QUESTION_TYPES).optional(),
    notes: z.array(z.string()),
  })
  .openapi("ImportReportEntry");

const ImportResult = z
  .object({
    quiz_id: idSchema("quiz")
      .nullable()
      .openapi({ description: "The quiz written (new or appended to); null when nothing was imported." }),
    format: z.enum(IMPORT_FORMATS),
    items_total: z.number().int().openapi({ description: "Source items read: one report entry each." }),
    imported: z.number().int(),
    approximated: z.number().int(),
    skipped: z.number().int(),
    report: z.array(ImportReportEntry).openapi({ description: "One entry per source item, in source order." }),
  })
  .openapi("ImportResult");

const common = {
  id: idSchema("job"),
  status: z.enum(JOB_STATUSES),
  progress: z.object({
    done: z.number().int(),
    total: z.number().int().openapi({ description: "0 until the job starts; set to `done` when it succeeds." }),
  }),
  created_at: z.string().datetime(),
  finished_at: z.string().datetime().nullable(),
};

const REGRADE_EXAMPLE = {
  id: "job_01kamz3f7c9n0p8s6e5vwx2y4r",
  type: "regrade" as const,
  status: "succeeded" as const,
  quiz_id: "quiz_01kamz3f7c9n0p8s6e5vwx2y4r",
  progress: { done: 120, total: 120 },
  result: {
    dry_run: true,
    submissions_considered: 120,
    submissions_changed: 6,
    mean_score_before: 71.67,
    mean_score_after: 74.17,
  },
  error: null,
  created_at: "2026-11-23T09:30:00.000Z",
  finished_at: "2026-11-23T09:30:02.000Z",
};

const RegradeJob = z
  .object({
    ...common,
    type: z.literal("regrade"),
    quiz_id: idSchema("quiz"),
    result: RegradeResult.nullable().openapi({ description: "Once the job has succeeded." }),
    error: z.string().nullable().openapi({ description: "Why a failed job failed." }),
  })
  .openapi("RegradeJob", { example: REGRADE_EXAMPLE });

const LtiResyncJob = z
  .object({
    ...common,
    type: z.literal("lti_resync"),
    quiz_id: idSchema("quiz"),
    result: z.null().openapi({ description: "A resync has no result: `progress` counts the ledger rows sent again." }),
    error: z.string().nullable().openapi({ description: "Why a failed job failed." }),
  })
  .openapi("LtiResyncJob", {
    example: {
      id: "job_01m83vvae005egq0h49a0et4ew",
      type: "lti_resync",
      status: "succeeded",
      quiz_id: "quiz_01kamz3f7c9n0p8s6e5vwx2y4r",
      progress: { done: 87, total: 87 },
      result: null,
      error: null,
      created_at: "2026-11-23T09:30:00.000Z",
      finished_at: "2026-11-23T09:30:04.000Z",
    },
  });

const RosterResult = z
  .object({
    members: z.number().int().openapi({ description: "Members the platform listed (Active and Inactive), each once." }),
    created: z.number().int().openapi({ description: "Users created for members seen for the first time." }),
    updated: z.number().int().openapi({ description: "Existing users whose name or e-mail the platform's list changed." }),
    inactive: z.number().int().openapi({ description: "Members listed as Inactive: they keep their user and grades." }),
  })
  .openapi("RosterResult");

const LtiRosterJob = z
  .object({
    ...common,
    type: z.literal("lti_roster"),
    quiz_id: z.null().openapi({ description: "A roster belongs to a course, not a quiz." }),
    launch_id: idSchema("ltiLaunch").openapi({ description: "The launch whose NRPS claim named the course's roster." }),
    result: RosterResult.nullable().openapi({ description: "Once the job has succeeded." }),
    error: z.string().nullable().openapi({
      description:
        "Why a failed sync failed (a page's HTTP status and beginning, a page over 1 MiB, over 1 000 pages, the token endpoint's refusal); the roster was left as it was.",
    }),
  })
  .openapi("LtiRosterJob", {
    example: {
      id: "job_01m83vvae005egq0h49a0et4ex",
      type: "lti_roster",
      status: "succeeded",
      quiz_id: null,
      launch_id: "ltl_01kamz3f7c9n0p8s6e5vwx2y4r",
      progress: { done: 3, total: 3 },
      result: { members: 212, created: 198, updated: 4, inactive: 6 },
      error: null,
      created_at: "2026-11-23T09:30:00.000Z",
      finished_at: "2026-11-23T09:30:06.000Z",
    },
  });

/** A roster sync as its request answers it: queued, nothing read yet. */
export const QUEUED_ROSTER_JOB_EXAMPLE = {
  id: "job_01m83vvae005egq0h49a0et4ex",
  type: "lti_roster" as const,
  status: "queued" as const,
  quiz_id: null,
  launch_id: "ltl_01kamz3f7c9n0p8s6e5vwx2y4r",
  progress: { done: 0, total: 0 },
  result: null,
  error: null,
  created_at: "2026-11-23T09:30:00.000Z",
  finished_at: null,
};

/** A job as the request that starts it answers: queued, nothing done yet. */
export const queuedJobExample = <T extends "regrade" | "lti_resync" | "import">(type: T, id: string, quizId: string) => ({
  id,
  type,
  status: "queued" as const,
  quiz_id: quizId,
  progress: { done: 0, total: 0 },
  result: null,
  error: null,
  created_at: "2026-11-23T09:30:00.000Z",
  finished_at: null,
});

const IMPORT_EXAMPLE = {
  id: "job_01kamz4v2b8m1q7r5t3wxy6z9a",
  type: "import" as const,
  status: "succeeded" as const,
  quiz_id: "quiz_01kamz4v2b8m1q7r5t3wxy6z9b",
  progress: { done: 3, total: 3 },
  result: {
    quiz_id: "quiz_01kamz4v2b8m1q7r5t3wxy6z9b",
    format: "moodle_xml" as const,
    items_total: 3,
    imported: 1,
    approximated: 1,
    skipped: 1,
    report: [
      {
        source_id: "Capital of France",
        title: "Capital of France",
        status: "imported" as const,
        question_id: "qst_01kamz4v2b8m1q7r5t3wxy6z9c",
        type: "single_choice" as const,
        notes: [],
      },
      {
        source_id: "Rivers",
        title: "Rivers",
        status: "approximated" as const,
        question_id: "qst_01kamz4v2b8m1q7r5t3wxy6z9d",
        type: "fill_in_blanks" as const,
        notes: ['The drop-down of gap 1 became a blank accepting its right option\'s text ("Seine").'],
      },
      {
        source_id: "Area of a circle",
        title: "Area of a circle",
        status: "skipped" as const,
        notes: ["Skipped: calculated question."],
      },
    ],
  },
  error: null,
  created_at: "2026-11-23T09:30:00.000Z",
  finished_at: "2026-11-23T09:30:01.000Z",
};

export const ImportJob = z
  .object({
    ...common,
    type: z.literal("import"),
    quiz_id: idSchema("quiz").openapi({
      description:
        "The quiz the import writes: the quiz_id it was given, or the id reserved for the new quiz, which exists once the job has succeeded with `result.quiz_id` set.",
    }),
    result: ImportResult.nullable().openapi({ description: "Once the job has succeeded." }),
    error: z
      .object({
        code: z.enum(IMPORT_ERROR_CODES),
        detail: z.string(),
      })
      .nullable()
      .openapi({
        description:
          "Why a failed import failed; nothing of the file was written. `unreadable_file`: not the format, truncated or malformed (reported on the first delivery); `unsafe_xml`: a DOCTYPE or entity declaration; `unsafe_package`: a zip over 1 000 entries or 100 MiB uncompressed, or with an absolute or climbing path; `too_many_items`: over 1 000 items (or references to items); `too_complex`: more work than an import does (XML nodes, steps of QTI response processing: docs/security.md, parsing budget); `not_found`: the quiz was deleted; `internal_error`: the service failed on every retry.",
      }),
  })
  .openapi("ImportJob", { example: IMPORT_EXAMPLE });

/**
 * A job, by its type. A regrade's and a resync's `error` is a string, as it always was; an
 * import's failure carries a code (docs/import-export.md), so its `error` is `{ code, detail }`.
 */
export const Job = z
  .discriminatedUnion("type", [RegradeJob, LtiResyncJob, ImportJob, LtiRosterJob])
  .openapi("Job", { example: REGRADE_EXAMPLE });

const JOB_CHANGE_EXAMPLE = {
  submission_id: "sub_01kamz3f7c9n0p8s6e5vwx2y4r",
  user_id: "user_01kamz3f7c9n0p8s6e5vwx2y4r",
  score_before: 50,
  score_after: 100,
};

const JobChange = z
  .object({
    submission_id: idSchema("submission"),
    user_id: idSchema("user"),
    score_before: z.number(),
    score_after: z.number(),
  })
  .openapi("JobChange", { example: JOB_CHANGE_EXAMPLE });

export const JobChangePage = z.object({ changes: z.array(JobChange), next_cursor: nextCursorSchema }).openapi("JobChangePage", {
  example: pageExample("changes", [JOB_CHANGE_EXAMPLE], JOB_CHANGE_EXAMPLE.submission_id),
});

export const JobChangesQuery = z.strictObject(pageQuery("submission"));
