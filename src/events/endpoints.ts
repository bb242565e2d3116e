import { type SQL, sql } from "drizzle-orm";
import { webhookEndpoints } from "../db/events-schema";
import type { Credential } from "../env";

type EndpointRow = typeof webhookEndpoints.$inferSelect;

/** A webhook endpoint as the API shows it: no secret, no owner. */
export function serializeEndpoint(row: EndpointRow) {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: row.events,
    enabled: row.enabled,
    disabled_at: row.disabledAt,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  };
}

/**
 * A webhook endpoint as `webhook_endpoint.*` events carry it: `url` is the URL's origin only.
 * Events are readable by every `events:read` credential and delivered to every subscribed
 * endpoint, while a URL's path and query often hold the receiver's own token.
 */
export function endpointForEvent(row: EndpointRow) {
  return { ...serializeEndpoint(row), url: new URL(row.url).origin };
}

/** Who asks about endpoints: its credential's id, and whether it is admin (who sees every endpoint). */
export interface Viewer {
  id: string;
  admin: boolean;
}

export const viewerOf = (credential: Credential): Viewer => ({ id: credential.id, admin: credential.scopes.includes("admin") });

/**
 * The endpoints a viewer may see and change (undefined: all of them, for admin): those its
 * credential created. An API key's rotation successors are the same credential rotated, so the
 * endpoints of a key follow its `rotated_to` chain (a primary-key lookup per rotation); an OAuth
 * client keeps its id through secret rotations. Endpoints without a creator are admin's alone.
 */
export function visibleTo(viewer: Viewer): SQL | undefined {
  if (viewer.admin) return undefined;
  return sql`${webhookEndpoints.createdBy} IN (
    WITH RECURSIVE lineage(owner, id) AS (
      SELECT DISTINCT created_by, created_by FROM webhook_endpoints WHERE created_by IS NOT NULL
      UNION SELECT lineage.owner, api_keys.rotated_to FROM lineage JOIN api_keys ON api_keys.id = lineage.id
        WHERE api_keys.rotated_to IS NOT NULL)
    SELECT owner FROM lineage WHERE id = ${viewer.id})`;
}
