import { ANSWER_KEY_FIELDS } from "./question-types";

/**
 * The event catalogue: every change the API records, by type. An event is
 * `{ id, type, created_at, data: { object }, previous_attributes? }`, `object` being the resource
 * as the API returns it, without secrets, key material or answer keys.
 */
export const EVENT_TYPES = [
  "quiz.created",
  "quiz.updated",
  "quiz.deleted",
  "question.created",
  "question.updated",
  "question.deleted",
  "user.created",
  "user.updated",
  "user.deleted",
  "submission.created",
  "submission.needs_review",
  "submission.graded",
  "submission.regraded",
  "api_key.created",
  "api_key.rotated",
  "api_key.revoked",
  "oauth_client.created",
  "oauth_client.secret_rotated",
  "oauth_client.deleted",
  "webhook_endpoint.disabled",
  "webhook_endpoint.test",
  "lti.passback.failed",
  "learner_session.created",
  "learner_session.revoked",
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** What an endpoint subscribes to: event types, or "*" for every type. */
export const EVENT_SUBSCRIPTIONS = ["*", ...EVENT_TYPES] as const;

/** Whether an endpoint subscribed to `subscribed` receives events of `type`. */
export function subscribes(subscribed: readonly string[], type: string): boolean {
  return subscribed.includes("*") || subscribed.includes(type);
}

/** A question as an event carries it: the API's representation less every type's key fields (those reveal.ts hides). */
export function withoutAnswerKey<T extends Record<string, unknown>>(question: T): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...question };
  for (const field of ANSWER_KEY_FIELDS) delete copy[field];
  return copy;
}

/**
 * The old values of the fields that changed between two representations of a resource
 * (`previous_attributes`): only top-level fields, compared by their JSON; `updated_at` excluded.
 */
export function previousAttributes(before: Record<string, unknown>, after: Record<string, unknown>): Record<string, unknown> {
  const previous: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(before)) {
    if (field === "updated_at") continue;
    if (JSON.stringify(value) !== JSON.stringify(after[field])) previous[field] = value;
  }
  return previous;
}
