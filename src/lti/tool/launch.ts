import { eq, sql } from "drizzle-orm";
import { ltiPlatforms } from "../../db/lti-schema";
import { ltiLoginStates } from "../../db/lti-tool-schema";
import { statement } from "../../db/statements";
import type { Database } from "../../env";
import { config } from "../../lib/config";
import { sha256Hex, timingSafeEqual } from "../../lib/crypto";
import { isoNow } from "../../lib/time";
import { targetProblem } from "../../outbound/request";
import { teaches } from "../claims";
import { nonceInsert } from "../launches";
import { type VerifiedLaunch, verifyIdToken } from "../verify";
import { stateCookieName } from "./login";
import { asToolRefusal, ToolRefusal } from "./refusal";
import { issueTicket, spendTicket } from "./tickets";

/**
 * POST /lti/launch: the platform's form post (`id_token`, `state`) after the login of login.ts.
 * Checked in this order, each refusal a 401 naming its check and writing nothing: the state
 * (known, unused, unexpired), its cookie (this browser began the login), every id_token check of
 * §15 (verify.ts) with the token's nonce equal to the state's, and for deep linking its settings.
 * Only then one batch claims the state and uses the nonce up, both or neither.
 *
 * Without the cookie — a browser that blocks third-party cookies, where the LMS frames the tool —
 * the launch cannot be tied to the browser that began the login, so it is not completed where it
 * was posted: it is kept under a single-use ticket (CONTINUE_TTL_SECONDS), and the page shown in
 * the frame has a button that opens the launch in a new top-level window (docs/lti.md, "Blocked
 * third-party cookies", gives the reasoning). A launch without its cookie outside a frame is
 * refused (wrong_browser): at the top level the cookie is never blocked, so its absence means
 * another browser.
 */

/** How long the new window may take to open after the frame's page is shown: a click. */
const CONTINUE_TTL_SECONDS = 120;
const LINE_ITEM_TYPE = "ltiResourceLink";

type StateRow = typeof ltiLoginStates.$inferSelect;

export interface LaunchForm {
  idToken: string;
  state: string;
}

/** What the browser's request says about it: its cookies, and whether it was made inside a frame (Sec-Fetch-Dest). */
export interface BrowserSignals {
  cookies: ReadonlyMap<string, string>;
  framed: boolean;
}

/** A verified launch, ready to land (landing.ts); carried in a ticket as JSON. */
export interface ToolLaunch {
  launch: VerifiedLaunch;
  instructor: boolean;
}

export type LaunchOutcome =
  | { kind: "bound"; toolLaunch: ToolLaunch; clearCookie: string }
  | { kind: "unbound"; ticket: string; platformId: string };

async function stateOf(db: Database, state: string, nowMs: number): Promise<StateRow> {
  const stateHash = await sha256Hex(state);
  const [row] = await db.select().from(ltiLoginStates).where(eq(ltiLoginStates.stateHash, stateHash));
  if (!row)
    throw new ToolRefusal(
      401,
      "unknown_state",
      "The launch's state was not made by this tool's login (or was deleted after use).",
    );
  if (row.claim !== null)
    throw new ToolRefusal(401, "used_state", "The launch's state was used by an earlier launch.", row.platformId);
  if (row.expiresAt <= isoNow(nowMs))
    throw new ToolRefusal(
      401,
      "expired_state",
      "The login is more than 10 minutes old; open the activity again.",
      row.platformId,
    );
  return row;
}

/** The cookie check: true when it matches, false when the browser sent none inside a frame; a refusal otherwise. */
async function bound(row: StateRow, browser: BrowserSignals): Promise<boolean> {
  const sent = browser.cookies.get(stateCookieName(row.stateHash));
  if (sent === undefined) {
    if (browser.framed) return false;
    throw new ToolRefusal(
      401,
      "wrong_browser",
      "The launch came without the cookie this browser got at login: the login began in another browser.",
      row.platformId,
    );
  }
  if (!timingSafeEqual(await sha256Hex(sent), row.bindingHash))
    throw new ToolRefusal(
      401,
      "wrong_browser",
      "The launch's state cookie is not the one this login set: another browser began it.",
      row.platformId,
    );
  return true;
}

/** The deep-linking request's own checks (LTI Deep Linking 2.0 §4.4): an instructor, a safe return URL, resource links accepted. */
function checkDeepLinking(env: Env, launch: VerifiedLaunch, instructor: boolean): void {
  const platformId = launch.platform.id;
  const settings = launch.claims.deepLinking;
  if (settings === undefined || settings.returnUrl === undefined)
    throw new ToolRefusal(
      401,
      "missing_deep_linking_settings",
      "The deep-linking request has no deep_link_return_url.",
      platformId,
    );
  const problem = targetProblem(settings.returnUrl, config(env).webhooks.urlPolicy, "deep_link_return_url");
  if (problem !== undefined) throw new ToolRefusal(401, "unsafe_return_url", problem, platformId);
  if (!settings.acceptTypes.includes(LINE_ITEM_TYPE))
    throw new ToolRefusal(401, "wrong_accept_types", "The platform does not accept ltiResourceLink items here.", platformId);
  if (!instructor) throw new ToolRefusal(403, "not_instructor", "Only instructors can add quizzes to the course.", platformId);
}

/**
 * One batch: the state claimed (only while unused and unexpired) and the nonce used up only
 * under that claim. Of two launches with one state, or one nonce, exactly one wins.
 */
async function claim(db: Database, row: StateRow, launch: VerifiedLaunch, nowMs: number): Promise<void> {
  const token = crypto.randomUUID();
  const now = isoNow(nowMs);
  const [claimed, nonce] = await db.$client.batch([
    statement(
      db,
      sql`UPDATE lti_login_states SET claim = ${token}
          WHERE state_hash = ${row.stateHash} AND claim IS NULL AND expires_at > ${now} RETURNING 1`,
    ),
    statement(
      db,
      await nonceInsert(
        launch,
        sql`EXISTS (SELECT 1 FROM lti_login_states WHERE state_hash = ${row.stateHash} AND claim = ${token})`,
      ),
    ),
  ]);
  if ((claimed?.results.length ?? 0) === 0)
    throw new ToolRefusal(401, "used_state", "The launch's state was used by an earlier launch.", row.platformId);
  if ((nonce?.results.length ?? 0) === 0)
    throw new ToolRefusal(401, "replayed_nonce", "The id_token's nonce was used by an earlier launch.", row.platformId);
}

export async function acceptToolLaunch(
  env: Env,
  db: Database,
  form: LaunchForm,
  browser: BrowserSignals,
  nowMs = Date.now(),
): Promise<LaunchOutcome> {
  const row = await stateOf(db, form.state, nowMs);
  const isBound = await bound(row, browser);
  let launch: VerifiedLaunch;
  try {
    launch = await verifyIdToken(env, db, form.idToken, nowMs, ["LtiResourceLinkRequest", "LtiDeepLinkingRequest"]);
  } catch (error) {
    throw asToolRefusal(error, row.platformId);
  }
  if (launch.platform.id !== row.platformId)
    throw new ToolRefusal(401, "wrong_platform", "The id_token is from another registration than the login's.", row.platformId);
  if (!timingSafeEqual(await sha256Hex(launch.claims.nonce), row.nonceHash))
    throw new ToolRefusal(401, "nonce_mismatch", "The id_token's nonce is not the one this login sent.", row.platformId);
  const instructor = teaches(launch.claims.roles);
  if (launch.messageType === "LtiDeepLinkingRequest") checkDeepLinking(env, launch, instructor);
  await claim(db, row, launch, nowMs);
  const toolLaunch: ToolLaunch = { launch, instructor };
  const clearCookie = `${stateCookieName(row.stateHash)}=; Max-Age=0; Path=/; Secure; HttpOnly; SameSite=None; Partitioned`;
  if (isBound) return { kind: "bound", toolLaunch, clearCookie };
  const ticket = await issueTicket(
    db,
    "continue",
    row.platformId,
    { ...toolLaunch, launch: { ...launch, platform: undefined } },
    CONTINUE_TTL_SECONDS,
    nowMs,
  );
  return { kind: "unbound", ticket, platformId: row.platformId };
}

/**
 * POST /lti/launch/continue: the new window's request, made by the button of the frame's page
 * (Sec-Fetch-Site same-origin, checked by the route). Spends the ticket; the launch lands here.
 */
export async function continueToolLaunch(db: Database, ticket: string, nowMs = Date.now()): Promise<ToolLaunch> {
  const spent = await spendTicket(db, "continue", ticket, nowMs);
  if (!spent)
    throw new ToolRefusal(
      401,
      "unknown_ticket",
      "This launch was opened already, or more than 2 minutes passed; open the activity again.",
    );
  const [platform] = await db.select().from(ltiPlatforms).where(eq(ltiPlatforms.id, spent.platformId));
  if (!platform) throw new ToolRefusal(401, "unknown_issuer", "The LMS was unregistered since the launch.");
  const kept = spent.payload as unknown as ToolLaunch;
  return { instructor: kept.instructor, launch: { ...kept.launch, platform } };
}
