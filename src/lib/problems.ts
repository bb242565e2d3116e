const TITLES: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  409: "Conflict",
  413: "Content Too Large",
  415: "Unsupported Media Type",
  429: "Too Many Requests",
  500: "Internal Server Error",
  503: "Service Unavailable",
};

/** The `title` of a problem body: the reason phrase of its status. */
export const statusTitle = (status: number) => TITLES[status] ?? "Error";

/** What a problem code says, for the document and the page at /problems/<code>. */
interface ProblemEntry {
  status: number;
  /** A short name of the problem. */
  title: string;
  /** What it means. */
  means: string;
  /** What to do about it. */
  todo: string;
  /** A `detail` such as the API writes. */
  detail: string;
}

/**
 * The error catalogue: every `code` a problem body (RFC 9457) of this API can carry. The OAuth
 * endpoints answer errors in RFC 6749's shape instead (OAUTH_ERROR_CODES in errors.ts).
 */
export const PROBLEMS = {
  validation_failed: {
    status: 400,
    title: "Validation failed",
    means: "A field of the body, path or query is missing, unknown or invalid; `errors` lists each one with its path.",
    todo: "Fix the fields `errors` names and send the request again.",
    detail: "title: Too big: expected string to have <=200 characters",
  },
  invalid_bookmark: {
    status: 400,
    title: "Invalid bookmark",
    means: "The X-D1-Bookmark header is not a bookmark D1 returned.",
    todo: "Send back the X-D1-Bookmark of the last response as it came, or leave the header out.",
    detail: "X-D1-Bookmark must be a bookmark D1 returned (as the last response carried it).",
  },
  malformed_json: {
    status: 400,
    title: "Malformed JSON",
    means: "The body is not valid JSON.",
    todo: "Send a well-formed JSON document (check quotes, commas and the encoding, UTF-8).",
    detail: "The body is not valid JSON.",
  },
  bad_request: {
    status: 400,
    title: "Bad request",
    means: "The request could not be read as HTTP the API understands.",
    todo: "Check the request line, headers and body against the operation's documentation.",
    detail: "Bad Request",
  },
  unknown_format: {
    status: 400,
    title: "Unknown format",
    means:
      "An import without `format` was sent a file the service does not recognise as QTI (a zip package or an item's XML), Moodle XML, GIFT or Aiken.",
    todo: "Name the format with `?format=qti|gift|moodle_xml|aiken`, or check that the file is one of them (docs/import-export.md).",
    detail: "The text is neither GIFT (answers in braces) nor Aiken (an ANSWER: line).",
  },
  conflicting_credentials: {
    status: 400,
    title: "Conflicting credentials",
    means: "X-API-Key and Authorization carry different credentials.",
    todo: "Send one credential, in one header.",
    detail: "X-API-Key and Authorization carry different credentials; send one.",
  },
  invalid_idempotency_key: {
    status: 400,
    title: "Invalid Idempotency-Key",
    means: "The Idempotency-Key header is empty, longer than 255 characters or not visible ASCII.",
    todo: "Send 1–255 visible ASCII characters, e.g. a UUID, or leave the header out.",
    detail: "Idempotency-Key must be 1–255 visible ASCII characters.",
  },
  unauthorized: {
    status: 401,
    title: "No credential",
    means: "The request carries no credential.",
    todo: "Send an API key (X-API-Key or Authorization: Bearer) or an OAuth access token from POST /oauth/token.",
    detail: "Send an API key (X-API-Key or Authorization: Bearer) or an OAuth access token.",
  },
  invalid_token: {
    status: 401,
    title: "Invalid credential",
    means: "The credential is unknown, revoked or expired.",
    todo: "Use a current key, or get a new access token (POST /oauth/token); do not retry with the same credential.",
    detail: "The credential is invalid, revoked or expired.",
  },
  insufficient_scope: {
    status: 403,
    title: "Insufficient scope",
    means: "The credential is valid but lacks the scope the operation needs (RFC 6750).",
    todo: "Use a credential with the scope named in the detail, or ask an admin for one.",
    detail: "This operation needs the quizzes:write scope.",
  },
  not_found: {
    status: 404,
    title: "Not found",
    means: "No resource has that id (ids of the wrong prefix or shape included), or no route matches the path.",
    todo: "Check the id and the path; list the collection to find the resource.",
    detail: "Quiz not found.",
  },
  method_not_allowed: {
    status: 405,
    title: "Method not allowed",
    means: "The path exists but does not answer this method.",
    todo: "Use one of the methods the Allow header names.",
    detail: "PUT is not allowed on /v1/quizzes; use GET, POST.",
  },
  email_taken: {
    status: 409,
    title: "E-mail taken",
    means: "Another user has that e-mail address (compared case-insensitively).",
    todo: "Use another address, or find the existing user with GET /v1/users?email=….",
    detail: "A user with that e-mail already exists.",
  },
  quiz_has_submissions: {
    status: 409,
    title: "Quiz has submissions",
    means: "A quiz with submissions cannot be deleted, so that no result is lost.",
    todo: "Keep the quiz; change its settings instead if it should not be taken any more.",
    detail: "The quiz has submissions; it cannot be deleted.",
  },
  question_limit_reached: {
    status: 409,
    title: "Question limit reached",
    means: "A quiz holds at most 200 questions.",
    todo: "Delete a question first, or start another quiz.",
    detail: "A quiz holds at most 200 questions.",
  },
  attempt_limit_reached: {
    status: 409,
    title: "Attempt limit reached",
    means: "The user has used every attempt the quiz's settings.max_attempts allows.",
    todo: "Raise max_attempts on the quiz, or accept the user's existing submissions.",
    detail: "The user has used all 3 attempts at this quiz.",
  },
  submission_graded: {
    status: 409,
    title: "Submission graded",
    means: "The submission is graded; its answers are final.",
    todo: "Start a new submission to answer again.",
    detail: "The submission is graded; its answers are final.",
  },
  not_graded: {
    status: 409,
    title: "Not graded",
    means: "The submission's results exist only once it is graded.",
    todo: "Grade it (POST /v1/submissions/{id}/grade), then read the results.",
    detail: "The submission has not been graded yet.",
  },
  nothing_to_review: {
    status: 409,
    title: "Nothing to review",
    means: "The essay was not answered: it counts 0 and needs no review.",
    todo: "Review only answered essays; GET /v1/quizzes/{id}/submissions?status=needs_review lists the submissions waiting.",
    detail: "The essay was not answered: it needs no review and counts 0.",
  },
  answers_changing: {
    status: 409,
    title: "Answers changing",
    means: "The submission's answers kept changing while it was graded.",
    todo: "Retry the grading once the answers are settled.",
    detail: "The submission's answers kept changing while it was graded; retry.",
  },
  already_rotated: {
    status: 409,
    title: "Key already rotated",
    means: "The API key was already rotated (or was rotated or revoked meanwhile).",
    todo: "Rotate the key the detail names, its successor, instead; or read the key again.",
    detail: "The key was already rotated to key_01kamz3f7c9n0p8s6e5vwx2y4r; rotate that key instead.",
  },
  key_expired: {
    status: 409,
    title: "Key expired",
    means: "The key has expired, so a successor would be expired too.",
    todo: "Create a new key (POST /v1/api-keys).",
    detail: "The key has expired; its successor would be expired too. Create a new key.",
  },
  idempotency_key_reused: {
    status: 409,
    title: "Idempotency-Key reused",
    means: "The Idempotency-Key was used, within 24 h, with a different request.",
    todo: "Use a new key for a new request; reuse a key only to retry the very same request.",
    detail: "This Idempotency-Key was used with a different request.",
  },
  idempotency_key_in_progress: {
    status: 409,
    title: "Idempotency-Key in progress",
    means: "A request with this Idempotency-Key is still being processed.",
    todo: "Retry shortly with the same key and request: you will get the first request's answer.",
    detail: "A request with this Idempotency-Key is still being processed; retry shortly.",
  },
  payload_too_large: {
    status: 413,
    title: "Payload too large",
    means:
      "The body is larger than the operation takes: 1 MiB for a JSON body, 10 MiB for an import's file, 5 MiB for an image (POST /v1/assets).",
    todo: "Send a smaller body, e.g. create a quiz's questions in several requests, split the file to import, or make the image smaller.",
    detail: "The body is larger than 1048576 bytes (1 MiB).",
  },
  unsupported_media_type: {
    status: 415,
    title: "Unsupported media type",
    means:
      "A body was sent in a media type the operation does not take: application/json, for an import application/zip, application/xml, text/xml or text/plain, for an image image/png, image/jpeg, image/gif or image/webp; or an image's bytes are not the format its Content-Type names.",
    todo: "Send the body as JSON with Content-Type: application/json; charset=utf-8 (an import: the file with its own media type; an image: with the Content-Type of the format its bytes are).",
    detail: "Send the body as application/json; charset=utf-8, not text/plain.",
  },
  rate_limited: {
    status: 429,
    title: "Rate limited",
    means: "The credential (or the client IP, without one) has used its requests of the current window.",
    todo: "Wait the seconds Retry-After names; watch the RateLimit header to pace requests.",
    detail: "Rate limit of 600 requests per 60 s reached; retry after 42 s.",
  },
  redelivery_limited: {
    status: 429,
    title: "Redelivery limited",
    means: "The event was redelivered 5 times within the last hour (by any caller): the most one event allows.",
    todo: "Wait the seconds Retry-After names, then redeliver once more; deliveries still under way keep retrying on their own.",
    detail: "At most 5 redeliveries of an event per hour; retry after 1234 s.",
  },
  test_event_limited: {
    status: 429,
    title: "Test events limited",
    means: "The endpoint was sent 5 test events within the last hour (by any caller): the most one endpoint allows.",
    todo: "Wait the seconds Retry-After names; redeliver a real event (POST /v1/events/{id}/redeliver) meanwhile if it helps.",
    detail: "At most 5 test events to an endpoint per hour; retry after 1234 s.",
  },
  quiz_not_available: {
    status: 409,
    title: "Quiz not available",
    means: "The quiz takes submissions only between its settings.available_from (inclusive) and available_until (exclusive).",
    todo: "Create the submission within the window, or widen the window (PATCH the quiz's settings).",
    detail: "The quiz is not open for submissions now (settings.available_from/until).",
  },
  deadline_passed: {
    status: 409,
    title: "Deadline passed",
    means:
      "The submission's deadline_at (time limit plus extra time, or the quiz's available_until) has passed; its answers are final.",
    todo: "Nothing to write any more: the submission is graded as stored (by a grade call, or by the service within minutes).",
    detail: "The submission's deadline has passed; its answers are final.",
  },
  pool_too_small: {
    status: 409,
    title: "Pool too small",
    means:
      "Deleting the question, or moving it to another pool, would leave its pool with fewer questions than settings.pools picks from it.",
    todo: "Lower the pool's pick (PATCH the quiz's settings.pools) or add a question to the pool first.",
    detail: 'Pool "easy" would hold fewer questions than the quiz\'s settings.pools pick from it.',
  },
  concurrent_update: {
    status: 409,
    title: "Concurrent update",
    means: "The resource kept changing under other requests while this one tried to write it (10 times).",
    todo: "Retry the request; read the resource first if your change depends on its current state.",
    detail: "The user kept changing while it was written; retry.",
  },
  webhook_endpoint_limit: {
    status: 409,
    title: "Too many webhook endpoints",
    means: "The deployment already has the most webhook endpoints it allows (100).",
    todo: "Delete an endpoint you no longer use, or subscribe one endpoint to several event types.",
    detail: "At most 100 webhook endpoints; delete one before creating another.",
  },
  endpoint_disabled: {
    status: 409,
    title: "Endpoint disabled",
    means: "The endpoint is disabled, so nothing is delivered to it: a test event would not be sent either.",
    todo: "Enable it (PATCH /v1/webhook-endpoints/{id} with enabled: true), then send the test again.",
    detail: "The endpoint is disabled; enable it before sending it a test event.",
  },
  endpoint_not_subscribed: {
    status: 409,
    title: "Endpoint not subscribed",
    means:
      "A redelivery goes only to an enabled endpoint subscribed to the event's type; the endpoint named is disabled or not subscribed.",
    todo: "Enable the endpoint or add the type to its events (PATCH /v1/webhook-endpoints/{id}), then redeliver.",
    detail: "The endpoint is disabled or not subscribed to user.created; enable it or subscribe it to the type first.",
  },
  webhooks_not_configured: {
    status: 503,
    title: "Webhooks not configured",
    means: "The deployment has no WEBHOOK_SECRET_KEY, so it cannot seal or use signing secrets.",
    todo: "Operators: set it with `wrangler secret put WEBHOOK_SECRET_KEY` (docs/deploying.md).",
    detail: "Webhooks are not configured on this deployment (WEBHOOK_SECRET_KEY).",
  },
  invalid_launch: {
    status: 401,
    title: "Invalid launch",
    means:
      "The LTI 1.3 id_token failed a check of the 1EdTech Security Framework or LTI Core; the problem's `check` member names it (bad_signature, unknown_issuer, wrong_audience, expired, issued_at, replayed_nonce, unknown_deployment, wrong_message_type, wrong_version, missing_sub, …).",
    todo: "Start the launch again from the LMS (a token is accepted once); if the same check keeps failing, compare the platform's registration (POST /v1/lti/platforms) with the LMS's settings (docs/lti.md).",
    detail: "The launch failed the check expired: the token expired at 2026-11-22T08:00:00.000Z.",
  },
  lti_platform_exists: {
    status: 409,
    title: "LTI platform exists",
    means: "Another platform is registered with the same issuer and client_id.",
    todo: "Change that platform (PATCH /v1/lti/platforms/{id}) instead of registering it again.",
    detail: "A platform with this issuer and client_id is registered already (ltp_01kamz3f7c9n0p8s6e5vwx2y4r).",
  },
  lti_no_membership_service: {
    status: 409,
    title: "No roster service",
    means:
      "The launch carried no Names and Role Provisioning Services claim (https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice with a context_memberships_url) or no context: the platform did not offer the course's roster with it.",
    todo: "Enable Names and Role Provisioning for the tool in the LMS (its developer key or registration), then sync from a launch made since.",
    detail:
      "The launch ltl_01kamz3f7c9n0p8s6e5vwx2y4r carried no NRPS claim (no context_memberships_url): its platform offered no roster.",
  },
  lti_not_configured: {
    status: 503,
    title: "LTI not configured",
    means:
      "The deployment has neither LTI_SEALING_KEY nor WEBHOOK_SECRET_KEY (its fallback), the key that seals the LTI tool's private key at rest.",
    todo: "Operators: set it with `wrangler secret put LTI_SEALING_KEY` (docs/deploying.md).",
    detail: "LTI is not configured on this deployment: LTI_SEALING_KEY (or WEBHOOK_SECRET_KEY) seals the tool's private key.",
  },
  internal_error: {
    status: 500,
    title: "Internal error",
    means: "An unexpected error; nothing about it but the request id is shown.",
    todo: "Retry later; if it persists, report the request_id to the operators.",
    detail: "An unexpected error occurred.",
  },
} as const satisfies Record<string, ProblemEntry>;

export type ProblemCode = keyof typeof PROBLEMS;
/** The codes of the catalogue answered with 409. */
export type ConflictCode = { [C in ProblemCode]: (typeof PROBLEMS)[C]["status"] extends 409 ? C : never }[ProblemCode];
export const PROBLEM_CODES = Object.keys(PROBLEMS) as [ProblemCode, ...ProblemCode[]];

const problemType = (code: string) => `/problems/${code}`;

/** A problem body such as the API answers with this code, for the document's examples. */
export function problemExample(code: ProblemCode) {
  const entry: ProblemEntry = PROBLEMS[code];
  return {
    type: problemType(code),
    title: statusTitle(entry.status),
    status: entry.status,
    detail: entry.detail,
    code,
    request_id: "01kamz3f7c9n0p8s6e5vwx2y4r",
    ...(code === "validation_failed"
      ? { errors: [{ path: "title", message: "Too big: expected string to have <=200 characters" }] }
      : {}),
  };
}

/** The example code of an error response: one its description names, else the first of its status. */
export function exampleCode(status: number, description = ""): ProblemCode | undefined {
  const ofStatus = PROBLEM_CODES.filter((code) => PROBLEMS[code].status === status);
  return ofStatus.find((code) => new RegExp(`\\b${code}\\b`).test(description)) ?? ofStatus[0];
}

/** The page of /problems/<code>: what the code means and what to do, as Markdown. */
export function problemPage(code: ProblemCode): string {
  const entry: ProblemEntry = PROBLEMS[code];
  return `# ${entry.title} (\`${code}\`)

HTTP status: ${entry.status} ${statusTitle(entry.status)}

## What it means

${entry.means}

## What to do

${entry.todo}

Problem bodies (RFC 9457) of this code carry \`"type": "${problemType(code)}"\` and \`"code": "${code}"\`;
quote their \`request_id\` when you report one.
`;
}
