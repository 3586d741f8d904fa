/**
 * The organization export's read of webhook endpoints (docs/organization-transfer.md): URL, events, state,
 * description and the signing secret (decrypted for the exporter to encrypt to the bundle's recipient); never the
 * delivery log.
 */
import type { ServiceContext } from "../context.ts";

/** A webhook endpoint as the organization bundle carries it. */
export interface ExportedWebhookEndpoint {
  url: string;
  /** Subscribed event names, sorted. */
  events: string[];
  isActive: boolean;
  description: string | null;
  /** In clear: a secret, to be encrypted by the caller and never logged. */
  secret: string;
}

/** Every webhook endpoint of `organizationId`, by URL then creation. The caller checks access (owners only). */
export async function exportWebhookEndpoints(
  ctx: ServiceContext,
  organizationId: string,
): Promise<ExportedWebhookEndpoint[]> {
  const rows = await ctx
    .knex("webhook_endpoints")
    .where({ organization_id: organizationId })
    .orderBy(["url", "created_at", "id"])
    .select("url", "events", "is_active", "description", "secret_encrypted");
  return rows.map(
    (r: { url: string; events: string[]; isActive: boolean; description: string | null; secretEncrypted: string }) => ({
      url: r.url,
      events: [...r.events].sort(),
      isActive: r.isActive,
      description: r.description ?? null,
      secret: ctx.services.secrets.decrypt(r.secretEncrypted),
    }),
  );
}
