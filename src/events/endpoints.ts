import type { webhookEndpoints } from "../db/events-schema";

type EndpointRow = typeof webhookEndpoints.$inferSelect;

/** A webhook endpoint as the API shows it (and as `webhook_endpoint.*` events carry it): no secret. */
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
