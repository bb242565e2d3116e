import { commit, type WakeUps } from "../../db/after-commit";
import type { Database } from "../../env";
import { config } from "../../lib/config";
import { ApiError } from "../../lib/errors";
import { targetProblem } from "../../outbound/request";
import { confirmLearnerSession, createLearnerSession, type LearnerSessionInput } from "../../sessions/learner-sessions";
import { sessionLink } from "../../sessions/lifetime";
import { createReportSession } from "../../sessions/report-sessions";
import { recordLaunch } from "../launches";
import { startPicker } from "./deep-linking";
import type { ToolLaunch } from "./launch";
import { ToolRefusal } from "./refusal";

/**
 * Where an accepted launch lands (§18): a learner's resource link opens the player with a learner
 * session tied to the launch (its submissions carry lti_launch_id, so grades go back by §15); an
 * instructor's opens the quiz's report with a report session for that quiz alone; a deep-linking
 * request opens the picker; a link to no quiz says so. The session's token travels in the URL's
 * fragment (sessionLink), which no server, log or Referer sees.
 */

/** A learner's session: the default of POST /v1/learner-sessions, long enough for a timed quiz. */
const LEARNER_SESSION_SECONDS = 2 * 3600;
/** An instructor's report session lives at most this long (the contract's 8 hours). */
const INSTRUCTOR_REPORT_SECONDS = 8 * 3600;

export type Landing = { kind: "redirect"; location: string } | { kind: "not_linked"; instructor: boolean; platformId: string };

/** The launch's return_url when it is a URL a browser may be sent to (http(s), the safe-target rules); else null. */
function returnUrlOf(env: Env, toolLaunch: ToolLaunch): string | null {
  const url = toolLaunch.launch.claims.returnUrl;
  return url !== undefined && targetProblem(url, config(env).webhooks.urlPolicy) === undefined ? url : null;
}

/** The learner session's batch; a user or quiz deleted meanwhile is a refusal page, not a problem document. */
async function learnerSession(db: Database, wakeUps: WakeUps, input: LearnerSessionInput, platformId: string): Promise<string> {
  const { token, statements } = await createLearnerSession(db, input);
  try {
    await confirmLearnerSession(db, await commit(db, wakeUps, statements), input);
  } catch (error) {
    if (error instanceof ApiError)
      throw new ToolRefusal(400, "gone", "The quiz or the user was deleted a moment ago; open the activity again.", platformId);
    throw error;
  }
  return token;
}

export async function land(
  env: Env,
  db: Database,
  wakeUps: WakeUps,
  toolLaunch: ToolLaunch,
  toolOrigin: string,
): Promise<Landing> {
  const { launch, instructor } = toolLaunch;
  const platformId = launch.platform.id;
  if (launch.messageType === "LtiDeepLinkingRequest")
    return { kind: "redirect", location: `${toolOrigin}/lti/deep-linking?ticket=${await startPicker(db, launch)}` };
  const row = await recordLaunch(db, wakeUps, launch);
  if (row.quizId === null) return { kind: "not_linked", instructor, platformId };
  if (instructor) {
    const { token, statements } = await createReportSession(db, { quizIds: [row.quizId], expiresIn: INSTRUCTOR_REPORT_SECONDS });
    await commit(db, wakeUps, statements);
    return { kind: "redirect", location: sessionLink(toolOrigin, "reports", token) };
  }
  const token = await learnerSession(
    db,
    wakeUps,
    {
      userId: row.userId,
      quizId: row.quizId,
      expiresIn: LEARNER_SESSION_SECONDS,
      // The player is this origin's own page: no other origin needs CORS.
      origins: [],
      returnUrl: returnUrlOf(env, toolLaunch),
      ltiLaunchId: row.id,
    },
    platformId,
  );
  return { kind: "redirect", location: sessionLink(toolOrigin, "play", token) };
}
