import { env } from "cloudflare:workers";
import { decodeJwt, decodeProtectedHeader } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { call } from "../support/call";
import { CLAIM, control, newPlatform, type TestPlatform, toolJwks, unique } from "./platform";
import { Browser, checkOf, DL_SETTINGS, toolLaunch } from "./tool";

// Deep linking through the tool (docs/lti.md, "Deep linking"): an instructor's
// LtiDeepLinkingRequest → 303 to the picker (quizzes, searchable, paged) → one answer, an
// LtiDeepLinkingResponse signed by the tool's current key, which the loopback platform verifies
// with jose against the tool's JWKS at its return URL.

const DL = "https://purl.imsglobal.org/spec/lti-dl/claim";
const INSTRUCTOR = "http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor";
let platform: TestPlatform;
const quizzes: { id: string; title: string }[] = [];
const prefix = unique("Algebra");

beforeAll(async () => {
  platform = await newPlatform();
  // 23 quizzes with a common prefix (two pages of 20) and one with another title; points 1 + 2 + 0.5.
  for (let i = 0; i < 24; i++) {
    const title = i === 23 ? unique("Botany") : `${prefix} ${String(i).padStart(2, "0")}`;
    const res = await call("/v1/quizzes", {
      body: {
        title,
        questions: [
          { type: "true_false", prompt: "Is it?", correct: true, points: 1 },
          { type: "true_false", prompt: "Is it not?", correct: false, points: 2 },
          { type: "true_false", prompt: "Half?", correct: true, points: 0.5 },
        ],
      },
    });
    expect(res.status, res.text).toBe(201);
    quizzes.push({ id: res.json.id, title });
  }
});

function deepLinkingClaims(settings: Record<string, unknown> = {}, overrides: Record<string, unknown> = {}) {
  const {
    [CLAIM.resourceLink]: _link,
    [CLAIM.ags]: _ags,
    ...claims
  } = platform.claims({
    [CLAIM.messageType]: "LtiDeepLinkingRequest",
    [CLAIM.roles]: [INSTRUCTOR],
    [DL_SETTINGS]: {
      deep_link_return_url: `${platform.issuer}/deep-link-return`,
      accept_types: ["link", "ltiResourceLink"],
      accept_presentation_document_targets: ["iframe", "window"],
      accept_multiple: true,
      accept_lineitem: true,
      data: "opaque-platform-data",
      ...settings,
    },
    ...overrides,
  });
  return claims;
}

/** The picker's URL (path and query) after an instructor's deep-linking launch. */
async function openPicker(settings: Record<string, unknown> = {}): Promise<string> {
  const res = await toolLaunch(platform, { payload: deepLinkingClaims(settings) });
  expect(res.status, await res.clone().text()).toBe(303);
  const location = new URL(res.headers.get("location") ?? "");
  expect(`${location.origin}${location.pathname}`).toBe("http://quiz.test/lti/deep-linking");
  return `${location.pathname}${location.search}`;
}

const ticketOf = (picker: string) => new URL(picker, "http://quiz.test").searchParams.get("ticket") ?? "";
const listed = (page: string) => [...page.matchAll(/name="quiz_id" value="(quiz_[0-9a-z]+)"/g)].map((m) => m[1]);

function answer(ticket: string, fields: [string, string][]) {
  return new Browser().fetch("/lti/deep-linking", {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams([["ticket", ticket], ...fields]).toString(),
  });
}

/** The answer page's form: where it posts and the JWT it carries. */
async function answerForm(res: Response) {
  const page = await res.text();
  const action = /<form method="post" action="([^"]+)" data-auto-submit>/.exec(page)?.[1]?.replace(/&amp;/g, "&");
  const jwt = /name="JWT" value="([^"]+)"/.exec(page)?.[1] ?? "";
  return { page, action, jwt };
}

/** Posts the JWT to the platform's return URL, as the page's script does: the platform verifies it. */
async function deliver(jwt: string) {
  const res = await fetch(`${platform.issuer}/deep-link-return`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ JWT: jwt }).toString(),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  const log = await control<{ deep_links: { ok: boolean; payload: Record<string, unknown> }[] }>(`/p/${platform.name}/tool-log`);
  return log.deep_links.at(-1);
}

describe("GET /lti/deep-linking: the picker", () => {
  it("lists the quizzes, newest first, 20 a page, searchable by title; checkboxes when accept_multiple", async () => {
    const picker = await openPicker();
    const browser = new Browser();
    const first = await browser.fetch(picker);
    expect(first.status).toBe(200);
    const csp = first.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("frame-ancestors 'self'");
    expect(csp).toContain("form-action 'self'");
    const page = await first.text();
    expect(page).toContain('type="checkbox"');
    expect(listed(page)).toHaveLength(20);
    expect(listed(page)[0]).toBe(quizzes.at(-1)?.id);
    const search = await (await browser.fetch(`${picker}&q=${encodeURIComponent(prefix.toUpperCase())}`)).text();
    const found = listed(search);
    expect(found).toHaveLength(20);
    expect(found).not.toContain(quizzes.at(-1)?.id);
    const next = /href="([^"]+)" id="next"/.exec(search)?.[1]?.replace(/&amp;/g, "&") ?? "";
    const second = listed(await (await browser.fetch(next)).text());
    expect(second).toHaveLength(3);
    expect(new Set([...found, ...second])).toEqual(new Set(quizzes.slice(0, 23).map((q) => q.id)));
    // A search's wildcard characters are text: "%" matches no title here.
    expect(listed(await (await browser.fetch(`${picker}&q=%25`)).text())).toEqual([]);
  });

  it("radio buttons when accept_multiple is false; an unknown ticket → 401 page", async () => {
    const page = await (await new Browser().fetch(await openPicker({ accept_multiple: false }))).text();
    expect(page).toContain('type="radio"');
    expect(page).not.toContain('type="checkbox"');
    const unknown = await new Browser().fetch(`/lti/deep-linking?ticket=${"A".repeat(32)}`);
    expect(unknown.status).toBe(401);
    expect(await checkOf(unknown)).toBe("unknown_ticket");
  });

  it("titles are text, never markup", async () => {
    const title = `${unique("Evil")} <img src=x onerror=alert(1)>`;
    expect((await call("/v1/quizzes", { body: { title, questions: [] } })).status).toBe(201);
    const page = await (await new Browser().fetch(`${await openPicker()}&q=Evil`)).text();
    expect(page).not.toContain("<img src=x");
    expect(page).toContain("&lt;img src=x onerror=alert(1)&gt;");
  });
});

describe("POST /lti/deep-linking: the answer", () => {
  it("several quizzes → a page that posts JWT to deep_link_return_url by a script file; the LtiDeepLinkingResponse has exactly the contract's claims, signed by the tool's current key", async () => {
    const picker = await openPicker();
    const chosen = [quizzes[0], quizzes[1]] as { id: string; title: string }[];
    const res = await answer(ticketOf(picker), [...chosen.map((q): [string, string] => ["quiz_id", q.id]), ["action", "add"]]);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-security-policy")).toContain(`form-action 'self' ${new URL(platform.issuer).origin}`);
    const { page, action, jwt } = await answerForm(res);
    expect(action).toBe(`${platform.issuer}/deep-link-return`);
    expect(page).toContain('<script src="/lti/auto-submit.js" defer></script>');
    expect(page).not.toMatch(/<script(?![^>]*\bsrc=)/);
    const header = decodeProtectedHeader(jwt);
    expect(header.alg).toBe("RS256");
    expect((await toolJwks()).keys[0]?.kid).toBe(header.kid);
    const claims = decodeJwt(jwt);
    expect(Object.keys(claims).sort()).toEqual(
      [
        "iss",
        "aud",
        "iat",
        "exp",
        "nonce",
        `${CLAIM.deploymentId}`,
        `${CLAIM.messageType}`,
        `${CLAIM.version}`,
        `${DL}/data`,
        `${DL}/content_items`,
      ].sort(),
    );
    expect(claims).toMatchObject({
      iss: platform.clientId,
      aud: platform.issuer,
      [CLAIM.deploymentId]: platform.deploymentId,
      [CLAIM.messageType]: "LtiDeepLinkingResponse",
      [CLAIM.version]: "1.3.0",
      [`${DL}/data`]: "opaque-platform-data",
    });
    expect((claims.exp ?? 0) - (claims.iat ?? 0)).toBeLessThanOrEqual(300);
    expect(claims.iat).toBeGreaterThan(Date.now() / 1000 - 30);
    expect(String(claims.nonce)).toMatch(/^[0-9A-Za-z]{32}$/);
    expect(claims[`${DL}/content_items`]).toEqual(
      chosen.map((q) => ({
        type: "ltiResourceLink",
        title: q.title,
        url: "http://quiz.test/lti/launch",
        custom: { quiz_id: q.id },
        lineItem: { scoreMaximum: 3.5, label: q.title, resourceId: q.id },
      })),
    );
    const delivered = await deliver(jwt);
    expect(delivered?.ok).toBe(true);
    // The ticket is spent: a second answer is refused.
    const again = await answer(ticketOf(picker), [["quiz_id", quizzes[2]?.id ?? ""]]);
    expect(again.status).toBe(401);
    expect(await checkOf(again)).toBe("unknown_ticket");
  });

  it("accept_lineitem false → no lineItem; no data sent → no data claim", async () => {
    const picker = await openPicker({ accept_lineitem: false, data: undefined });
    const { jwt } = await answerForm(await answer(ticketOf(picker), [["quiz_id", quizzes[3]?.id ?? ""]]));
    const claims = decodeJwt(jwt);
    expect(claims[`${DL}/data`]).toBeUndefined();
    const items = claims[`${DL}/content_items`] as Record<string, unknown>[];
    expect(items).toHaveLength(1);
    expect(items[0]).not.toHaveProperty("lineItem");
    expect((await deliver(jwt))?.ok).toBe(true);
  });

  it("cancel → no items and a msg", async () => {
    const picker = await openPicker();
    const { jwt } = await answerForm(await answer(ticketOf(picker), [["action", "cancel"]]));
    const claims = decodeJwt(jwt);
    expect(claims[`${DL}/content_items`]).toEqual([]);
    expect(typeof claims[`${DL}/msg`]).toBe("string");
    expect((await deliver(jwt))?.ok).toBe(true);
  });

  it("several quizzes where accept_multiple is false, none chosen, an unknown quiz → 400 pages, the ticket still usable", async () => {
    const single = await openPicker({ accept_multiple: false });
    const two = await answer(ticketOf(single), [
      ["quiz_id", quizzes[0]?.id ?? ""],
      ["quiz_id", quizzes[1]?.id ?? ""],
    ]);
    expect(two.status).toBe(400);
    expect(await checkOf(two)).toBe("one_quiz_only");
    expect(await checkOf(await answer(ticketOf(single), [["action", "add"]]))).toBe("no_quiz_chosen");
    expect(await checkOf(await answer(ticketOf(single), [["quiz_id", "quiz_01kamz3f7c9n0p8s6e5vwx2y4r"]]))).toBe("unknown_quiz");
    expect((await answer(ticketOf(single), [["quiz_id", quizzes[0]?.id ?? ""]])).status).toBe(200);
  });

  it("two answers at once with one ticket: exactly one is signed, over 10 trials", async () => {
    for (let trial = 0; trial < 10; trial++) {
      const ticket = ticketOf(await openPicker());
      const answers = await Promise.all([0, 1, 2].map((i) => answer(ticket, [["quiz_id", quizzes[i]?.id ?? ""]])));
      expect(answers.map((a) => a.status).sort()).toEqual([200, 401, 401]);
    }
  });
});

describe("POST /lti/launch with LtiDeepLinkingRequest: refused", () => {
  it("a learner → 403 page; nothing is kept", async () => {
    const before = await env.DB.prepare("SELECT count(*) AS n FROM lti_tickets").first<{ n: number }>();
    const res = await toolLaunch(platform, {
      payload: deepLinkingClaims({}, { [CLAIM.roles]: ["http://purl.imsglobal.org/vocab/lis/v2/membership#Learner"] }),
    });
    expect(res.status).toBe(403);
    expect(await checkOf(res)).toBe("not_instructor");
    expect(await env.DB.prepare("SELECT count(*) AS n FROM lti_tickets").first<{ n: number }>()).toEqual(before);
  });

  it.each([
    ["missing_deep_linking_settings", { deep_link_return_url: undefined }],
    ["unsafe_return_url", { deep_link_return_url: "https://10.0.0.1/return" }],
    ["unsafe_return_url", { deep_link_return_url: "javascript:alert(1)" }],
    ["wrong_accept_types", { accept_types: ["link", "file"] }],
  ])("%s", async (check, settings) => {
    const res = await toolLaunch(platform, { payload: deepLinkingClaims(settings) });
    expect(res.status).toBe(401);
    expect(await checkOf(res)).toBe(check);
  });
});
