import { eq } from "drizzle-orm";
import { ltiPlatforms } from "../../db/lti-schema";
import type { Database } from "../../env";

/**
 * The LMS origins that may frame a tool page: the platform's `frame_origins` when the page is
 * about one platform, else every platform's (a page before the platform is known — a refusal of
 * the login or of an unknown state — and the player, which any registered LMS may frame).
 */
export async function frameOriginsOf(db: Database, platformId?: string): Promise<string[]> {
  const rows = await db
    .select({ frameOrigins: ltiPlatforms.frameOrigins })
    .from(ltiPlatforms)
    .where(platformId === undefined ? undefined : eq(ltiPlatforms.id, platformId));
  return [...new Set(rows.flatMap((row) => row.frameOrigins))];
}
