import { scoped } from "../../auth/authorize";
import { idempotent } from "../../auth/idempotency";
import { COMMON_ERRORS, defineRoute, errorResponses, jsonResponse } from "../../lib/openapi";
import { Job, QUEUED_ROSTER_JOB_EXAMPLE } from "../jobs/jobs.schemas";
import { RosterPage, RosterParams, RosterQuery } from "./roster.schemas";

const tags = ["LTI"];

export const syncRoster = defineRoute({
  operationId: "syncLtiRoster",
  method: "post",
  path: "/launches/{launch_id}/roster-sync",
  tags,
  ...scoped("admin", idempotent()),
  summary: "Read a course's roster from its platform",
  description:
    "A job (`type: lti_roster`, GET /v1/jobs/{id}, visible to admin) that reads the launch's course roster by Names and Role Provisioning Services 2.0: a token for the scope https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly, then context_memberships_url and each Link rel=\"next\" page (at most 1 000 pages of at most 1 MiB, each on the memberships URL's origin). Each member's user is found or created by (platform, user_id) as a launch does, never taken over by e-mail; Inactive members keep their user and grades. The roster becomes the new one only when every page was read; a failed sync leaves it as it was. A launch without the NRPS claim or without a context → 409 lti_no_membership_service; an unknown launch → 404.",
  request: { params: RosterParams },
  responses: {
    202: jsonResponse(Job, "The job, queued; Location names it.", QUEUED_ROSTER_JOB_EXAMPLE),
    ...errorResponses(404, 409, ...COMMON_ERRORS),
  },
});

export const getRoster = defineRoute({
  operationId: "getLtiRoster",
  method: "get",
  path: "/launches/{launch_id}/roster",
  tags,
  ...scoped("admin"),
  summary: "A course's roster, as last synced",
  description:
    "The members of the launch's course as the last sync that succeeded read them, by user id; `synced_at` is null (and `members` empty) before one. Pass `next_cursor` back as `cursor` until it is null. A launch without the NRPS claim or without a context → 409 lti_no_membership_service; an unknown launch → 404.",
  request: { params: RosterParams, query: RosterQuery },
  responses: {
    200: jsonResponse(RosterPage, "A page of the roster."),
    ...errorResponses(400, 404, 409, ...COMMON_ERRORS),
  },
});
