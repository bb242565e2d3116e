import { z } from "@hono/zod-openapi";
import { scoped } from "../../auth/authorize";
import { idSchema } from "../../lib/ids";
import { BODY_ERRORS, COMMON_ERRORS, defineRoute, errorResponses, jsonBody, jsonResponse, pageExample } from "../../lib/openapi";
import { nextCursorSchema } from "../../lib/pagination";
import { ACCOMMODATION_EXAMPLE, Accommodation, AccommodationListQuery, AccommodationPut } from "./accommodations.schemas";

/** Mounted under /v1/quizzes. */
const tags = ["Accommodations"];
const QuizParams = z.object({ id: idSchema("quiz") });
const UserParams = QuizParams.extend({
  user_id: idSchema("user").openapi({
    param: { description: "The user's id; one of the wrong prefix or shape → 404." },
  }),
});

export const listAccommodations = defineRoute({
  operationId: "listAccommodations",
  method: "get",
  path: "/{id}/accommodations",
  tags,
  ...scoped("quizzes:write"),
  summary: "List a quiz's accommodations, by user id",
  description:
    "Returns the quiz's per-user accommodations (extra time, extra attempts) ordered by user id. Keyset pagination: pass `next_cursor` back as `cursor` until it is null. An unknown quiz → 404.",
  request: { params: QuizParams, query: AccommodationListQuery },
  responses: {
    200: jsonResponse(
      z
        .object({ accommodations: z.array(Accommodation), next_cursor: nextCursorSchema })
        .openapi({ example: pageExample("accommodations", [ACCOMMODATION_EXAMPLE], ACCOMMODATION_EXAMPLE.user_id) }),
      "A page of accommodations.",
    ),
    ...errorResponses(400, 404, ...COMMON_ERRORS),
  },
});

export const putAccommodation = defineRoute({
  operationId: "putAccommodation",
  method: "put",
  path: "/{id}/accommodations/{user_id}",
  tags,
  ...scoped("quizzes:write"),
  summary: "Set a user's accommodation on a quiz",
  description:
    "Creates or replaces the user's accommodation: fields left out are 0. `extra_time_seconds` (0–604800) lengthens the user's time limit (never past `available_until`); `extra_attempts` (0–100) adds to `max_attempts`. An unknown quiz or user → 404.",
  request: { params: UserParams, ...jsonBody(AccommodationPut) },
  responses: {
    200: jsonResponse(Accommodation, "The accommodation as stored."),
    ...errorResponses(...BODY_ERRORS, 404, ...COMMON_ERRORS),
  },
});

export const deleteAccommodation = defineRoute({
  operationId: "deleteAccommodation",
  method: "delete",
  path: "/{id}/accommodations/{user_id}",
  tags,
  ...scoped("quizzes:write"),
  summary: "Remove a user's accommodation from a quiz",
  description:
    "Removes the accommodation; the user's later submissions get the quiz's own time limit and attempts. None there → 404.",
  request: { params: UserParams },
  responses: { 204: { description: "Removed." }, ...errorResponses(404, ...COMMON_ERRORS) },
});
