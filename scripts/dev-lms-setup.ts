// The local LMS of npm run dev:lms (scripts/dev-lms.ts) and of the tool's browser tests
// (test/e2e/lti-tool.test.ts): the loopback platform of test/lti-platform.ts registered with a
// running server as an LTI platform (its authorization URL and its course page's origin as a frame
// origin), a quiz, and two staged launches — a learner opening the quiz, an instructor adding a
// quiz by deep linking — each as a course page of the LMS that frames the tool's login URL.

const LIS = "http://purl.imsglobal.org/vocab/lis/v2/membership#";
const LTI = "https://purl.imsglobal.org/spec/lti/claim";
const CLIENT_ID = "dev-lms-client";
const DEPLOYMENT_ID = "dev-lms-deployment";

export interface LocalLms {
  platformId: string;
  quizId: string;
  issuer: string;
  /** A course page framing the tool: a learner's launch into the quiz. */
  learnerUrl: string;
  /** A course page framing the tool: an instructor's deep-linking request. */
  instructorUrl: string;
  /** A course page framing the tool: an instructor opening the quiz (its report). */
  instructorReportUrl: string;
}

interface Options {
  /** Where the API answers server-side calls, e.g. http://127.0.0.1:8787. */
  api: string;
  /** The tool's origin as the browser uses it (another site than the LMS's), e.g. http://localhost:8787. */
  toolOrigin: string;
  key: string;
  /** The loopback platform, e.g. http://127.0.0.1:8788. */
  lms: string;
  name?: string;
  quizId?: string;
}

async function ask(url: string, init: RequestInit & { key?: string } = {}) {
  const res = await fetch(url, {
    ...init,
    headers: {
      "content-type": "application/json",
      ...(init.key ? { authorization: `Bearer ${init.key}` } : {}),
    },
  });
  const text = await res.text();
  return { status: res.status, json: text ? (JSON.parse(text) as Record<string, any>) : {} };
}

async function ok(url: string, init: RequestInit & { key?: string } = {}) {
  const res = await ask(url, init);
  if (res.status >= 300) throw new Error(`${init.method ?? "GET"} ${url} answered ${res.status}: ${JSON.stringify(res.json)}`);
  return res.json;
}

export async function prepareLocalLms(options: Options): Promise<LocalLms> {
  const name = options.name ?? "dev-lms";
  const { api, key, lms, toolOrigin } = options;
  const urls = await ok(`${lms}/p/${name}/setup`, { method: "POST", body: JSON.stringify({ client_id: CLIENT_ID }) });
  // The platform verifies deep-linking responses against the tool's published keys.
  await ok(`${lms}/p/${name}/tool`, { method: "POST", body: JSON.stringify({ tool_jwks_url: `${api}/.well-known/jwks.json` }) });
  const registration = {
    issuer: urls.issuer,
    client_id: CLIENT_ID,
    deployment_ids: [DEPLOYMENT_ID],
    auth_token_url: urls.token_url,
    jwks_url: urls.jwks_url,
    auth_login_url: urls.auth_login_url,
    frame_origins: [new URL(lms).origin],
  };
  const created = await ask(`${api}/v1/lti/platforms`, { method: "POST", key, body: JSON.stringify(registration) });
  let platformId: string;
  if (created.status === 201) platformId = created.json.id;
  else if (created.status === 409) {
    // Registered by an earlier run: the same issuer and client id, the URLs set again.
    const list = await ok(`${api}/v1/lti/platforms?limit=100`, { key });
    const found = (list.platforms as { id: string; issuer: string; client_id: string }[]).find(
      (p) => p.issuer === registration.issuer && p.client_id === CLIENT_ID,
    );
    if (!found) throw new Error("the platform is registered but not listed");
    platformId = found.id;
    const { issuer: _i, client_id: _c, ...urlsOnly } = registration;
    await ok(`${api}/v1/lti/platforms/${platformId}`, { method: "PATCH", key, body: JSON.stringify(urlsOnly) });
  } else throw new Error(`POST /v1/lti/platforms answered ${created.status}: ${JSON.stringify(created.json)}`);

  let quizId = options.quizId;
  if (quizId === undefined || (await ask(`${api}/v1/quizzes/${quizId}`, { key })).status !== 200) {
    const quiz = await ok(`${api}/v1/quizzes`, {
      method: "POST",
      key,
      body: JSON.stringify({
        title: "Local LMS sample quiz",
        description: "Opened from the loopback LMS of npm run dev:lms.",
        questions: [
          { type: "true_false", prompt: "The Earth orbits the Sun.", correct: true, points: 1 },
          {
            type: "multiple_choice",
            prompt: "Which of these is a prime number?",
            options: [{ text: "4" }, { text: "7" }, { text: "9" }],
            correct_option_ids: ["b"],
            points: 2,
          },
        ],
      }),
    });
    quizId = quiz.id as string;
  }

  const person = (role: string, who: string) => ({
    iss: urls.issuer,
    aud: CLIENT_ID,
    sub: `dev-lms-${who}`,
    name: who === "learner" ? "Lena Learner" : "Ian Instructor",
    email: `${who}@lms.localhost.example`,
    [`${LTI}/version`]: "1.3.0",
    [`${LTI}/deployment_id`]: DEPLOYMENT_ID,
    [`${LTI}/roles`]: [`${LIS}${role}`],
    [`${LTI}/context`]: { id: "dev-course", label: "DEV 101", title: "Local course" },
  });
  const stage = async (payload: Record<string, unknown>) =>
    (await ok(`${lms}/p/${name}/launches`, { method: "POST", body: JSON.stringify({ payload }) })).hint as string;
  const learnerHint = await stage({
    ...person("Learner", "learner"),
    [`${LTI}/message_type`]: "LtiResourceLinkRequest",
    [`${LTI}/resource_link`]: { id: "dev-lms-link", title: "Sample quiz" },
    [`${LTI}/custom`]: { quiz_id: quizId },
    [`${LTI}/launch_presentation`]: { return_url: `${lms}/p/${name}/course`, document_target: "iframe" },
    "https://purl.imsglobal.org/spec/lti-ags/claim/endpoint": {
      scope: ["https://purl.imsglobal.org/spec/lti-ags/scope/score"],
      lineitem: `${urls.issuer}/lineitems/dev-lms-item`,
    },
  });
  const reportHint = await stage({
    ...person("Instructor", "instructor"),
    [`${LTI}/message_type`]: "LtiResourceLinkRequest",
    [`${LTI}/resource_link`]: { id: "dev-lms-link", title: "Sample quiz" },
    [`${LTI}/custom`]: { quiz_id: quizId },
  });
  const instructorHint = await stage({
    ...person("Instructor", "instructor"),
    [`${LTI}/message_type`]: "LtiDeepLinkingRequest",
    "https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings": {
      deep_link_return_url: urls.deep_link_return_url,
      accept_types: ["ltiResourceLink"],
      accept_presentation_document_targets: ["iframe", "window"],
      accept_multiple: true,
      accept_lineitem: true,
      data: "dev-lms-data",
    },
  });
  const loginUrl = (hint: string) =>
    `${toolOrigin}/lti/login?${new URLSearchParams({
      iss: urls.issuer,
      login_hint: hint,
      lti_message_hint: hint,
      target_link_uri: `${toolOrigin}/lti/launch`,
      client_id: CLIENT_ID,
      lti_deployment_id: DEPLOYMENT_ID,
    })}`;
  const course = (login: string) => `${lms}/p/${name}/course?${new URLSearchParams({ login })}`;
  return {
    platformId,
    quizId,
    issuer: urls.issuer,
    learnerUrl: course(loginUrl(learnerHint)),
    instructorUrl: course(loginUrl(instructorHint)),
    instructorReportUrl: course(loginUrl(reportHint)),
  };
}
