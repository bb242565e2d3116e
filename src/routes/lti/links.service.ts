import { eq } from "drizzle-orm";
import { ltiLinks, ltiPlatforms } from "../../db/lti-schema";
import { quizzes } from "../../db/schema";
import type { Database } from "../../env";
import { validationFailed } from "../../lib/errors";
import { isoNow } from "../../lib/time";

/** PUT /v1/lti/links/{resource_link_id}: the quiz the platform's resource link opens; whether it was created. */
export async function putLink(db: Database, resourceLinkId: string, input: { platform_id: string; quiz_id: string }) {
  const [platforms, found] = await db.batch([
    db.select({ id: ltiPlatforms.id }).from(ltiPlatforms).where(eq(ltiPlatforms.id, input.platform_id)),
    db.select({ id: quizzes.id }).from(quizzes).where(eq(quizzes.id, input.quiz_id)),
  ]);
  const errors = [
    ...(platforms.length === 0 ? [{ path: "platform_id", message: "No such platform." }] : []),
    ...(found.length === 0 ? [{ path: "quiz_id", message: "No such quiz." }] : []),
  ];
  if (errors.length > 0) throw validationFailed(errors);
  const now = isoNow();
  const [row] = await db
    .insert(ltiLinks)
    .values({ platformId: input.platform_id, resourceLinkId, quizId: input.quiz_id, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({
      target: [ltiLinks.platformId, ltiLinks.resourceLinkId],
      set: { quizId: input.quiz_id, updatedAt: now },
    })
    .returning();
  if (!row) throw new Error("the link was not stored");
  const link = {
    resource_link_id: row.resourceLinkId,
    platform_id: row.platformId,
    quiz_id: row.quizId,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
  return { link, created: row.createdAt === now && row.updatedAt === now };
}
