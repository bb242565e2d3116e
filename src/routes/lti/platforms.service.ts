import { and, asc, eq, gt, sql } from "drizzle-orm";
import { ltiPlatforms } from "../../db/lti-schema";
import { prepared, statement } from "../../db/statements";
import { originProblem } from "../../domain/web-origin";
import type { Database } from "../../env";
import { config } from "../../lib/config";
import { conflict, errorChainText, type FieldError, notFound, validationFailed } from "../../lib/errors";
import { newId } from "../../lib/ids";
import { isoNow } from "../../lib/time";
import { targetProblem } from "../../outbound/request";

type PlatformRow = typeof ltiPlatforms.$inferSelect;

interface PlatformInput {
  issuer: string;
  client_id: string;
  deployment_ids: string[];
  auth_token_url: string;
  jwks_url: string;
  audience?: string | null;
  auth_login_url?: string | null;
  frame_origins?: string[];
}

function serializePlatform(row: PlatformRow) {
  return {
    id: row.id,
    issuer: row.issuer,
    client_id: row.clientId,
    deployment_ids: row.deploymentIds,
    auth_token_url: row.authTokenUrl,
    jwks_url: row.jwksUrl,
    audience: row.audience,
    auth_login_url: row.authLoginUrl,
    frame_origins: row.frameOrigins,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}

/**
 * The URLs the service will fetch or send browsers to, judged by the safe-target rules under the
 * deployment's policy, and the frame origins by the origin rule: 400 naming each refused one.
 */
function checkUrls(env: Env, input: Partial<PlatformInput>): void {
  const policy = config(env).webhooks.urlPolicy;
  const errors: FieldError[] = (["auth_token_url", "jwks_url", "auth_login_url"] as const).flatMap((field) => {
    const url = input[field];
    const problem = url === undefined || url === null ? undefined : targetProblem(url, policy);
    return problem === undefined ? [] : [{ path: field, message: problem }];
  });
  (input.frame_origins ?? []).forEach((origin, i) => {
    const problem = originProblem(origin, policy);
    if (problem !== undefined) errors.push({ path: `frame_origins[${i}]`, message: problem });
  });
  if (errors.length > 0) throw validationFailed(errors);
}

/** The unique (issuer, client_id) index is the authority; this only translates its error. */
async function guardUnique<T>(db: Database, issuer: string, clientId: string, write: Promise<T>): Promise<T> {
  try {
    return await write;
  } catch (error) {
    if (!errorChainText(error).includes("UNIQUE")) throw error;
    const [other] = await db
      .select({ id: ltiPlatforms.id })
      .from(ltiPlatforms)
      .where(and(eq(ltiPlatforms.issuer, issuer), eq(ltiPlatforms.clientId, clientId)));
    throw conflict(
      "lti_platform_exists",
      `A platform with this issuer and client_id is registered already (${other?.id ?? "another"}).`,
    );
  }
}

export async function createPlatform(env: Env, db: Database, input: PlatformInput) {
  checkUrls(env, input);
  const now = isoNow();
  const row: PlatformRow = {
    id: newId("ltiPlatform"),
    issuer: input.issuer,
    clientId: input.client_id,
    deploymentIds: input.deployment_ids,
    authTokenUrl: input.auth_token_url,
    jwksUrl: input.jwks_url,
    audience: input.audience ?? null,
    authLoginUrl: input.auth_login_url ?? null,
    frameOrigins: input.frame_origins ?? [],
    createdAt: now,
    updatedAt: now,
  };
  await guardUnique(db, row.issuer, row.clientId, db.insert(ltiPlatforms).values(row));
  return serializePlatform(row);
}

export async function listPlatforms(db: Database, after: string | undefined, limit: number) {
  const rows = await db
    .select()
    .from(ltiPlatforms)
    .where(after === undefined ? undefined : gt(ltiPlatforms.id, after))
    .orderBy(asc(ltiPlatforms.id))
    .limit(limit + 1);
  return rows.map(serializePlatform);
}

async function platformRow(db: Database, id: string): Promise<PlatformRow> {
  const [row] = await db.select().from(ltiPlatforms).where(eq(ltiPlatforms.id, id));
  if (!row) throw notFound("Platform");
  return row;
}

export const getPlatform = async (db: Database, id: string) => serializePlatform(await platformRow(db, id));

export async function updatePlatform(env: Env, db: Database, id: string, patch: Partial<PlatformInput>) {
  checkUrls(env, patch);
  const current = await platformRow(db, id);
  const [row] = await guardUnique(
    db,
    patch.issuer ?? current.issuer,
    patch.client_id ?? current.clientId,
    db
      .update(ltiPlatforms)
      .set({
        ...(patch.issuer === undefined ? {} : { issuer: patch.issuer }),
        ...(patch.client_id === undefined ? {} : { clientId: patch.client_id }),
        ...(patch.deployment_ids === undefined ? {} : { deploymentIds: patch.deployment_ids }),
        ...(patch.auth_token_url === undefined ? {} : { authTokenUrl: patch.auth_token_url }),
        ...(patch.jwks_url === undefined ? {} : { jwksUrl: patch.jwks_url }),
        ...(patch.audience === undefined ? {} : { audience: patch.audience }),
        ...(patch.auth_login_url === undefined ? {} : { authLoginUrl: patch.auth_login_url }),
        ...(patch.frame_origins === undefined ? {} : { frameOrigins: patch.frame_origins }),
        updatedAt: isoNow(),
      })
      .where(eq(ltiPlatforms.id, id))
      .returning(),
  );
  if (!row) throw notFound("Platform");
  return serializePlatform(row);
}

/**
 * Deletes the platform and its links: its launches are refused from now on. Its users, launches
 * and ledger stay (the ledger shows its rows failing with "The platform was deleted.").
 */
export async function deletePlatform(db: Database, id: string) {
  const [deleted] = await db.$client.batch([
    prepared(db, db.delete(ltiPlatforms).where(eq(ltiPlatforms.id, id))),
    statement(db, sql`DELETE FROM lti_links WHERE platform_id = ${id} AND changes() = 1`),
  ]);
  if (deleted?.meta.changes !== 1) throw notFound("Platform");
}
