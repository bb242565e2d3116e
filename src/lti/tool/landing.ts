import type { WakeUps } from "../../db/after-commit";
import type { Database } from "../../env";
import { config } from "../../lib/config";
import { targetProblem } from "../../outbound/request";
import { recordLaunch } from "../launches";
import { startPicker } from "./deep-linking";
import type { ToolLaunch } from "./launch";

/**
 * Where an accepted launch lands (§18): a learner's resource link opens the player with a learner
 * session tied to the launch; an instructor's opens the quiz's report with a report session; a
 * deep-linking request opens the picker; a link to no quiz says so.
 */

export type Landing =
  | { kind: "redirect"; location: string }
  | { kind: "not_linked"; instructor: boolean; platformId: string }
  | { kind: "interim"; instructor: boolean; platformId: string; quizId: string; launchId: string };

/** The launch's return_url when it is a URL a browser may be sent to (http(s), the safe-target rules); else null. */
function returnUrlOf(env: Env, toolLaunch: ToolLaunch): string | null {
  const url = toolLaunch.launch.claims.returnUrl;
  return url !== undefined && targetProblem(url, config(env).webhooks.urlPolicy) === undefined ? url : null;
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
  void returnUrlOf(env, toolLaunch);
  return { kind: "interim", instructor, platformId, quizId: row.quizId, launchId: row.id };
}
