import { and, desc, eq, inArray, lt, sql } from "drizzle-orm";
import { SignJWT } from "jose";
import { ltiPlatforms } from "../../db/lti-schema";
import { questions, quizzes } from "../../db/schema";
import { fromMicro, toMicro } from "../../domain/points";
import { readSettings } from "../../domain/quiz-settings";
import type { Database } from "../../env";
import { randomBase62 } from "../../lib/crypto";
import { signingKey } from "../keys";
import type { VerifiedLaunch } from "../verify";
import { ToolRefusal } from "./refusal";
import { issueTicket, readTicket, spendTicket } from "./tickets";

/**
 * Deep linking (LTI Deep Linking 2.0): an instructor's LtiDeepLinkingRequest opens the picker,
 * a server-rendered list of quizzes kept under a picker ticket (PICKER_TTL_SECONDS); the one
 * answer spends it and is an LtiDeepLinkingResponse signed by the tool's current key, which the
 * answer page posts to the platform's deep_link_return_url.
 */

const PICKER_TTL_SECONDS = 60 * 60;
const PICKER_PAGE_SIZE = 20;
/** The response is short-lived: the browser posts it at once (the contract's ≤ 5 minutes). */
const RESPONSE_TTL_SECONDS = 5 * 60;
const MAX_SEARCH_LENGTH = 200;
const DL = "https://purl.imsglobal.org/spec/lti-dl/claim";
const LTI = "https://purl.imsglobal.org/spec/lti/claim";

export interface PickerRequest {
  deploymentId: string;
  returnUrl: string;
  data: string | undefined;
  acceptMultiple: boolean;
  acceptLineitem: boolean;
}

/** The picker ticket of a checked deep-linking request (launch.ts checked its settings). */
export async function startPicker(db: Database, launch: VerifiedLaunch): Promise<string> {
  const settings = launch.claims.deepLinking;
  if (settings?.returnUrl === undefined) throw new Error("a deep-linking launch without its checked return URL");
  const request: PickerRequest = {
    deploymentId: launch.claims.deploymentId,
    returnUrl: settings.returnUrl,
    data: settings.data,
    acceptMultiple: settings.acceptMultiple,
    acceptLineitem: settings.acceptLineitem,
  };
  return issueTicket(db, "picker", launch.platform.id, { ...request }, PICKER_TTL_SECONDS);
}

const expired = () =>
  new ToolRefusal(
    401,
    "unknown_ticket",
    "This picker was answered already, or it is more than an hour old; start again from the LMS.",
  );

export async function pickerRequest(db: Database, ticket: string): Promise<{ platformId: string; request: PickerRequest }> {
  const found = await readTicket(db, "picker", ticket);
  if (!found) throw expired();
  return { platformId: found.platformId, request: found.payload as unknown as PickerRequest };
}

export interface QuizChoice {
  id: string;
  title: string;
  questionCount: number;
}

/** A page of quizzes, newest first, whose title contains `search` (case-insensitive for ASCII); `after` is the last id of the page before. */
export async function listQuizzes(db: Database, search: string, after: string | undefined) {
  const words = search.slice(0, MAX_SEARCH_LENGTH).trim();
  const pattern = `%${words.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const rows = await db
    .select({ id: quizzes.id, title: quizzes.title, questionCount: quizzes.questionCount })
    .from(quizzes)
    .where(
      and(
        words === "" ? undefined : sql`${quizzes.title} LIKE ${pattern} ESCAPE '\\'`,
        after === undefined ? undefined : lt(quizzes.id, after),
      ),
    )
    .orderBy(desc(quizzes.id))
    .limit(PICKER_PAGE_SIZE + 1);
  const page: QuizChoice[] = rows.slice(0, PICKER_PAGE_SIZE);
  return { quizzes: page, next: rows.length > PICKER_PAGE_SIZE ? page.at(-1)?.id : undefined };
}

/**
 * The most points a submission of the quiz is worth: every unpooled question, and from each pool
 * its `pick` highest-valued questions (equal to every submission's points when a pool's questions
 * are worth alike). The line item's scoreMaximum; each score sent later carries its own.
 */
async function quizPoints(db: Database, quizIds: string[]) {
  const [rows, points] = await db.batch([
    db
      .select({ id: quizzes.id, title: quizzes.title, settings: quizzes.settings })
      .from(quizzes)
      .where(inArray(quizzes.id, quizIds)),
    db
      .select({ quizId: questions.quizId, points: questions.points, pool: questions.pool })
      .from(questions)
      .where(inArray(questions.quizId, quizIds)),
  ]);
  return rows.map((quiz) => {
    const own = points.filter((q) => q.quizId === quiz.id);
    let total = own.filter((q) => q.pool === null).reduce((sum, q) => sum + toMicro(q.points), 0);
    for (const { pool, pick } of readSettings(quiz.settings).pools) {
      const values = own.filter((q) => q.pool === pool).map((q) => toMicro(q.points));
      total += values
        .sort((a, b) => b - a)
        .slice(0, pick)
        .reduce((sum, v) => sum + v, 0);
    }
    return { id: quiz.id, title: quiz.title, points: fromMicro(total) };
  });
}

export type PickerAnswer = { kind: "chosen"; quizIds: string[] } | { kind: "cancelled" };

/**
 * The LtiDeepLinkingResponse (Deep Linking 2.0 §4.5) for the answer, with exactly the claims the
 * contract lists, signed RS256 by the tool's current key (its kid in /.well-known/jwks.json).
 * Spends the picker ticket: a second answer is refused.
 */
export async function answerPicker(env: Env, db: Database, ticket: string, answer: PickerAnswer, toolOrigin: string) {
  const { platformId, request } = await pickerRequest(db, ticket);
  const ids = answer.kind === "chosen" ? [...new Set(answer.quizIds)] : [];
  if (answer.kind === "chosen") {
    if (ids.length === 0) throw new ToolRefusal(400, "no_quiz_chosen", "Choose a quiz, or cancel.", platformId);
    if (ids.length > 1 && !request.acceptMultiple)
      throw new ToolRefusal(400, "one_quiz_only", "The LMS accepts one quiz here.", platformId);
    if (ids.length > PICKER_PAGE_SIZE)
      throw new ToolRefusal(400, "too_many_quizzes", `Choose at most ${PICKER_PAGE_SIZE} quizzes.`, platformId);
  }
  const chosen = ids.length === 0 ? [] : await quizPoints(db, ids);
  if (chosen.length !== ids.length) throw new ToolRefusal(400, "unknown_quiz", "A chosen quiz no longer exists.", platformId);
  const [platform] = await db.select().from(ltiPlatforms).where(eq(ltiPlatforms.id, platformId));
  if (!platform) throw new ToolRefusal(401, "unknown_issuer", "The LMS was unregistered since the request.");
  if (!(await spendTicket(db, "picker", ticket))) throw expired();
  const byId = new Map(chosen.map((quiz) => [quiz.id, quiz]));
  const items = ids.map((id) => {
    const quiz = byId.get(id) as (typeof chosen)[number];
    return {
      type: "ltiResourceLink",
      title: quiz.title,
      url: `${toolOrigin}/lti/launch`,
      custom: { quiz_id: quiz.id },
      ...(request.acceptLineitem ? { lineItem: { scoreMaximum: quiz.points, label: quiz.title, resourceId: quiz.id } } : {}),
    };
  });
  const { kid, privateKey } = await signingKey(env, db);
  const now = Math.floor(Date.now() / 1000);
  const claims: Record<string, unknown> = {
    nonce: randomBase62(32),
    [`${LTI}/deployment_id`]: request.deploymentId,
    [`${LTI}/message_type`]: "LtiDeepLinkingResponse",
    [`${LTI}/version`]: "1.3.0",
    [`${DL}/content_items`]: items,
    ...(request.data === undefined ? {} : { [`${DL}/data`]: request.data }),
    ...(answer.kind === "cancelled" ? { [`${DL}/msg`]: "No quiz was added." } : {}),
  };
  const jwt = await new SignJWT(claims)
    .setProtectedHeader({ alg: "RS256", typ: "JWT", kid })
    .setIssuer(platform.clientId)
    .setAudience(platform.issuer)
    .setIssuedAt(now)
    .setExpirationTime(now + RESPONSE_TTL_SECONDS)
    .sign(privateKey);
  return { platformId, returnUrl: request.returnUrl, jwt, count: items.length };
}
