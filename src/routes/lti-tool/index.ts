import { type Context, Hono } from "hono";
import { getCookie } from "hono/cookie";
import type { AppEnv } from "../../env";
import { config } from "../../lib/config";
import { toolContentSecurityPolicy } from "../../lib/docs-csp";
import { answerPicker, listQuizzes, pickerRequest } from "../../lti/tool/deep-linking";
import { frameOriginsOf } from "../../lti/tool/frame-origins";
import { type Landing, land } from "../../lti/tool/landing";
import { acceptToolLaunch, continueToolLaunch, type ToolLaunch } from "../../lti/tool/launch";
import { beginLogin, type LoginParams } from "../../lti/tool/login";
import { ToolRefusal } from "../../lti/tool/refusal";

export { framableByPlatforms } from "./framing";

import { answerPage, continuePage, notLinkedPage, pickerPage, refusalPage } from "./pages";

/**
 * The LTI tool's browser endpoints, outside /v1 (docs/lti.md): the OIDC login, the launch and its
 * new-window continuation, and the deep-linking picker. HTML in, HTML out: every refusal is a page
 * naming its check (ToolRefusal), under the tool's CSP, framable by the platform's frame_origins.
 */

/** A launch's form is an id_token of a few KiB (Canvas's run to 10–20 KiB) and a state. */
const MAX_FORM_BYTES = 64 * 1024;
const FORM_TYPE = /^application\/x-www-form-urlencoded\s*(;.*)?$/i;
const LOGIN_PARAMS = ["iss", "login_hint", "target_link_uri", "lti_message_hint", "client_id", "lti_deployment_id"] as const;

type ToolContext = Context<AppEnv>;

const toolOrigin = (c: ToolContext) => config(c.env).issuer ?? new URL(c.req.url).origin;

async function html(
  c: ToolContext,
  status: 200 | 400 | 401 | 403 | 404 | 413 | 415,
  body: string,
  platformId?: string,
  formTargets: string[] = [],
) {
  const origins = await frameOriginsOf(c.var.db, platformId);
  c.header("Content-Security-Policy", toolContentSecurityPolicy(origins, formTargets));
  return c.html(body, status);
}

/** The form body, read to at most MAX_FORM_BYTES; a field sent twice is refused (which one counts would be a guess). */
async function readForm(c: ToolContext): Promise<URLSearchParams> {
  const type = c.req.header("content-type") ?? "";
  if (!FORM_TYPE.test(type))
    throw new ToolRefusal(415, "unsupported_media_type", "Send the form as application/x-www-form-urlencoded.");
  if (Number(c.req.header("content-length") ?? 0) > MAX_FORM_BYTES)
    throw new ToolRefusal(413, "form_too_large", `The form is larger than ${MAX_FORM_BYTES / 1024} KiB.`);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = c.req.raw.body?.getReader();
  while (reader) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_FORM_BYTES) {
      await reader.cancel();
      throw new ToolRefusal(413, "form_too_large", `The form is larger than ${MAX_FORM_BYTES / 1024} KiB.`);
    }
    chunks.push(value);
  }
  const form = new URLSearchParams(new TextDecoder().decode(await new Blob(chunks).arrayBuffer()));
  const seen = new Set<string>();
  for (const name of form.keys()) {
    // quiz_id repeats when several quizzes are chosen (form.getAll).
    if (seen.has(name) && name !== "quiz_id")
      throw new ToolRefusal(400, "repeated_parameter", `The form sends ${name.slice(0, 40)} more than once.`);
    seen.add(name);
  }
  return form;
}

/**
 * A tool page's handler: a ToolRefusal becomes its HTML page (status, check, detail), framable
 * where the platform it names is; anything else goes on to the app's one error handler (a 500).
 */
function toolPage(handler: (c: ToolContext) => Promise<Response>) {
  return async (c: ToolContext) => {
    try {
      return await handler(c);
    } catch (error) {
      if (!(error instanceof ToolRefusal)) throw error;
      return html(c, error.status, refusalPage(error.status, error.check, error.detail), error.platformId);
    }
  };
}

async function landed(c: ToolContext, landing: Landing) {
  if (landing.kind === "redirect") return c.redirect(landing.location, 303);
  return html(c, 200, notLinkedPage(landing.instructor), landing.platformId);
}

const landLaunch = (c: ToolContext, toolLaunch: ToolLaunch) => land(c.env, c.var.db, c.var.wakeUps, toolLaunch, toolOrigin(c));

async function login(c: ToolContext) {
  const source = c.req.method === "POST" ? await readForm(c) : new URL(c.req.url).searchParams;
  const params: LoginParams = {};
  for (const name of LOGIN_PARAMS) {
    const value = source.get(name);
    if (value !== null && value !== "") params[name] = value;
  }
  const { location, cookie } = await beginLogin(c.var.db, params, toolOrigin(c));
  c.header("Set-Cookie", cookie);
  return c.redirect(location, 302);
}

export const ltiToolRouter = new Hono<AppEnv>()
  .get("/login", toolPage(login))
  .post("/login", toolPage(login))
  .post(
    "/launch",
    toolPage(async (c) => {
      const form = await readForm(c);
      const idToken = form.get("id_token");
      const state = form.get("state");
      if (!state) throw new ToolRefusal(401, "unknown_state", "The launch has no state: it did not come from this tool's login.");
      if (!idToken) throw new ToolRefusal(401, "malformed_token", "The launch has no id_token.");
      const dest = c.req.header("sec-fetch-dest");
      const cookies = new Map(Object.entries(getCookie(c)));
      const outcome = await acceptToolLaunch(
        c.env,
        c.var.db,
        { idToken, state },
        { cookies, framed: dest === "iframe" || dest === "frame" },
      );
      if (outcome.kind === "unbound") return html(c, 200, continuePage(outcome.ticket), outcome.platformId);
      c.header("Set-Cookie", outcome.clearCookie);
      return landed(c, await landLaunch(c, outcome.toolLaunch));
    }),
  )
  .post(
    "/launch/continue",
    toolPage(async (c) => {
      // Only a page of this origin can have made this request (the continue page's button): a
      // ticket copied into a link, an e-mail or another site arrives cross-site or with none.
      if (c.req.header("sec-fetch-site") !== "same-origin")
        throw new ToolRefusal(403, "not_same_origin", "This window must be opened by the quiz tool's own button.");
      const ticket = (await readForm(c)).get("ticket") ?? "";
      return landed(c, await landLaunch(c, await continueToolLaunch(c.var.db, ticket)));
    }),
  )
  .get(
    "/deep-linking",
    toolPage(async (c) => {
      const query = new URL(c.req.url).searchParams;
      const ticket = query.get("ticket") ?? "";
      const { platformId, request } = await pickerRequest(c.var.db, ticket);
      const search = query.get("q") ?? "";
      const after = query.get("after") ?? undefined;
      const list = await listQuizzes(c.var.db, search, after);
      return html(c, 200, pickerPage(ticket, request, list, search, after === undefined), platformId);
    }),
  )
  .post(
    "/deep-linking",
    toolPage(async (c) => {
      const form = await readForm(c);
      const ticket = form.get("ticket") ?? "";
      const action = form.get("action");
      const quizIds = form.getAll("quiz_id");
      const answer = await answerPicker(
        c.env,
        c.var.db,
        ticket,
        action === "cancel" ? { kind: "cancelled" } : { kind: "chosen", quizIds },
        toolOrigin(c),
      );
      return html(c, 200, answerPage(answer.returnUrl, answer.jwt, answer.count), answer.platformId, [
        new URL(answer.returnUrl).origin,
      ]);
    }),
  );
