import { z } from "@hono/zod-openapi";
import { idSchema } from "../../lib/ids";
import { pageExample } from "../../lib/openapi";
import { nextCursorSchema, pageQuery } from "../../lib/pagination";

/** The id_token of a launch, as the platform posted it to the client application's launch URL. */
export const LaunchCreate = z
  .strictObject({
    id_token: z
      .string()
      .min(1)
      .max(65_536)
      .openapi({ description: "The JWT the platform posted (form field id_token), unchanged." }),
  })
  .openapi("LtiLaunchCreate", {
    example: {
      id_token:
        "eyJhbGciOiJSUzI1NiIsImtpZCI6InBsYXRmb3JtLWtleS0xIiwidHlwIjoiSldUIn0.eyJpc3MiOiJodHRwczovL2NhbnZhcy5pbnN0cnVjdHVyZS5jb20ifQ.c2lnbmF0dXJl",
    },
  });

const StringMap = z.record(z.string(), z.string());

/** The AGS line item of the examples' launch (Canvas's form), where its grades go. */
const LINEITEM_EXAMPLE = "https://canvas.instructure.com/api/lti/courses/101/line_items/7";

export const Launch = z
  .object({
    launch_id: idSchema("ltiLaunch"),
    platform_id: idSchema("ltiPlatform"),
    user_id: idSchema("user"),
    deployment_id: z.string(),
    roles: z.array(z.string()).openapi({ example: ["http://purl.imsglobal.org/vocab/lis/v2/membership#Learner"] }),
    context: StringMap.nullable().openapi({
      description: "The course: id, label, title (those sent); null without a context claim.",
      example: { id: "c1d887f0a1a4f6e4", label: "GEO 101", title: "European geography" },
    }),
    resource_link: StringMap.openapi({
      description: "The link launched: id, title, description (those sent).",
      example: { id: "200d101f-2c14-434a-a0f3-57c2a42369fd", title: "Week 3 quiz" },
    }),
    quiz_id: idSchema("quiz").nullable().openapi({
      description:
        "The quiz to open: the custom claim's quiz_id when it names a quiz, else the resource link's link (PUT /v1/lti/links/{resource_link_id}); null when neither.",
    }),
    ags: z
      .object({
        lineitem: z.string().nullable().openapi({ description: "Where scores go; null when the launch names no line item." }),
        scopes: z.array(z.string()),
      })
      .nullable()
      .openapi({
        description:
          "The Assignment and Grade Services claim; null without one. Grades go back only when lineitem is set and scopes hold https://purl.imsglobal.org/spec/lti-ags/scope/score.",
      }),
    created_at: z.string().datetime(),
  })
  .openapi("LtiLaunch", {
    example: {
      launch_id: "ltl_01kamz3f7c9n0p8s6e5vwx2y4r",
      platform_id: "ltp_01kamz3f7c9n0p8s6e5vwx2y4r",
      user_id: "user_01kamz3f7c9n0p8s6e5vwx2y4r",
      deployment_id: "42:8865aa05b4b79b64a91a86042e43af5ea8ae79eb",
      roles: ["http://purl.imsglobal.org/vocab/lis/v2/membership#Learner"],
      context: { id: "c1d887f0a1a4f6e4", label: "GEO 101", title: "European geography" },
      resource_link: { id: "200d101f-2c14-434a-a0f3-57c2a42369fd", title: "Week 3 quiz" },
      quiz_id: "quiz_01kamz3f7c9n0p8s6e5vwx2y4r",
      ags: {
        lineitem: LINEITEM_EXAMPLE,
        scopes: ["https://purl.imsglobal.org/spec/lti-ags/scope/lineitem", "https://purl.imsglobal.org/spec/lti-ags/scope/score"],
      },
      created_at: "2026-11-22T07:59:00.000Z",
    },
  });

const PASSBACK_STATUSES = ["pending", "succeeded", "failed"] as const;

/** Ada's kept grade at the examples' quiz (her second attempt, 2 of 2 points), taken by the platform. */
const PASSBACK_EXAMPLE = {
  id: "lpb_01kamz3f7c9n0p8s6e5vwx2y4r",
  platform_id: "ltp_01kamz3f7c9n0p8s6e5vwx2y4r",
  quiz_id: "quiz_01kamz3f7c9n0p8s6e5vwx2y4r",
  user_id: "user_01kamz3f7c9n0p8s6e5vwx2y4r",
  submission_id: "sub_01kamz4v2b8m1q7r5t3wxy6z9a",
  lineitem: LINEITEM_EXAMPLE,
  score_given: 2,
  score_maximum: 2,
  grading_progress: "FullyGraded" as const,
  timestamp: "2026-11-22T09:30:00.000Z",
  status: "succeeded" as const,
  attempts: 1,
  last_response_status: 200,
  last_error: null,
  next_retry_at: null,
  created_at: "2026-11-22T08:20:00.000Z",
  updated_at: "2026-11-22T09:30:01.000Z",
};

export const Passback = z
  .object({
    id: idSchema("ltiPassback"),
    platform_id: idSchema("ltiPlatform"),
    quiz_id: idSchema("quiz"),
    user_id: idSchema("user"),
    submission_id: idSchema("submission").openapi({ description: "The kept submission whose grade this is." }),
    lineitem: z.string(),
    score_given: z.number().nullable().openapi({ description: "The kept submission's points_earned; null while PendingManual." }),
    score_maximum: z.number().nullable().openapi({ description: "Its points_possible; null while PendingManual." }),
    grading_progress: z.enum(["FullyGraded", "PendingManual"]),
    timestamp: z.string().datetime().openapi({ description: "When the kept grade changed: the score's timestamp." }),
    status: z.enum(PASSBACK_STATUSES).openapi({
      description:
        "pending: to be sent (or being sent, or waiting for next_retry_at); succeeded: the platform took this score; failed: a 4xx, or 8 attempts failed.",
    }),
    attempts: z.number().int().openapi({ description: "Tries of this score, the successful one included." }),
    last_response_status: z.number().int().nullable(),
    last_error: z.string().nullable().openapi({ description: "Why the last try failed, at most 1 KiB." }),
    next_retry_at: z.string().datetime().nullable(),
    created_at: z.string().datetime(),
    updated_at: z.string().datetime(),
  })
  .openapi("LtiPassback", { example: PASSBACK_EXAMPLE });

export const PassbackPage = z
  .object({ passbacks: z.array(Passback), next_cursor: nextCursorSchema })
  .openapi("LtiPassbackPage", { example: pageExample("passbacks", [PASSBACK_EXAMPLE], PASSBACK_EXAMPLE.id) });

/** The same row after the platform refused a later score, sent again (POST …/retry): pending, no attempt yet. */
export const PASSBACK_RETRIED_EXAMPLE = {
  ...PASSBACK_EXAMPLE,
  status: "pending" as const,
  attempts: 0,
  last_response_status: 403,
  last_error: 'The scores endpoint answered HTTP 403: {"errors":[{"message":"Course is concluded"}]}',
  updated_at: "2026-11-23T09:30:00.000Z",
};

export const PassbackListQuery = z.strictObject({
  ...pageQuery("ltiPassback"),
  status: z.enum(PASSBACK_STATUSES).optional(),
  quiz_id: idSchema("quiz").optional(),
  user_id: idSchema("user").optional(),
});

export const PassbackParams = z.object({
  id: idSchema("ltiPassback").openapi({ description: "The ledger row's id; one of the wrong prefix or shape → 404." }),
});

const ToolKey = z.object({
  kid: z.string(),
  status: z
    .enum(["current", "previous"])
    .openapi({ description: "current: signs; previous: listed until listed_until, never signs." }),
  created_at: z.string().datetime(),
  listed_until: z.string().datetime().nullable(),
});

export const ToolKeys = z.object({ keys: z.array(ToolKey) }).openapi("LtiToolKeys", {
  example: {
    keys: [
      { kid: "ltk_01m83vvae005egq0h49a0et4ex", status: "current", created_at: "2026-11-23T09:30:00.000Z", listed_until: null },
      {
        kid: "ltk_01kamz3f7c9n0p8s6e5vwx2y4r",
        status: "previous",
        created_at: "2026-11-20T09:00:00.000Z",
        listed_until: "2026-11-24T09:30:00.000Z",
      },
    ],
  },
});

export const JsonWebKeySet = z.object({ keys: z.array(z.record(z.string(), z.unknown())) }).openapi("JsonWebKeySet", {
  example: {
    keys: [{ kty: "RSA", n: "0vx7agoebGcQSuu…", e: "AQAB", kid: "ltk_01kamz3f7c9n0p8s6e5vwx2y4r", alg: "RS256", use: "sig" }],
  },
});
