import { z } from "@hono/zod-openapi";
import { idSchema } from "../../lib/ids";

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
export const LINEITEM_EXAMPLE = "https://canvas.instructure.com/api/lti/courses/101/line_items/7";

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
    nrps: z.object({ context_memberships_url: z.string() }).nullable().openapi({
      description:
        "The Names and Role Provisioning Services claim: where the course's roster is read (POST /v1/lti/launches/{launch_id}/roster-sync); null without one.",
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
      nrps: { context_memberships_url: "https://canvas.instructure.com/api/lti/courses/101/names_and_roles" },
      created_at: "2026-11-22T07:59:00.000Z",
    },
  });
