import { z } from "@hono/zod-openapi";
import { idSchema } from "../../lib/ids";
import { encodeCursor, nextCursorSchema, pageQuery } from "../../lib/pagination";

export const RosterParams = z.object({
  launch_id: idSchema("ltiLaunch").openapi({
    description: "A launch that carried the NRPS claim: its course's roster. One of the wrong prefix or shape → 404.",
  }),
});

export const RosterQuery = z.strictObject(pageQuery("user"));

const MEMBER_EXAMPLE = {
  user_id: "user_01kamz3f7c9n0p8s6e5vwx2y4r",
  lti_user_id: "0ae836b9-7fc9-4060-006f-27b2066ac545",
  roles: ["http://purl.imsglobal.org/vocab/lis/v2/membership#Learner"],
  status: "Active" as const,
};

const RosterMember = z
  .object({
    user_id: idSchema("user"),
    lti_user_id: z.string().openapi({ description: "The platform's user_id for the member: a launch's sub." }),
    roles: z.array(z.string()).openapi({ description: "The member's roles in the course, as the platform listed them." }),
    status: z.enum(["Active", "Inactive"]).openapi({
      description: "Inactive: the platform lists the member as inactive in the course; their user and grades stay.",
    }),
  })
  .openapi("LtiRosterMember", { example: MEMBER_EXAMPLE });

export const RosterPage = z
  .object({
    members: z.array(RosterMember),
    synced_at: z
      .string()
      .datetime()
      .nullable()
      .openapi({ description: "When the roster shown was read from the platform; null before the first sync succeeds." }),
    next_cursor: nextCursorSchema,
  })
  .openapi("LtiRosterPage", {
    example: {
      members: [MEMBER_EXAMPLE],
      synced_at: "2026-11-23T09:30:06.000Z",
      next_cursor: encodeCursor(MEMBER_EXAMPLE.user_id),
    },
  });
