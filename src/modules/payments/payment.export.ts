/**
 * The organization export's read of payment gateway services (docs/organization-transfer.md): each service's
 * project, name and webhook URL. The merchant at the gateway and its signing key stay with the instance.
 */
import type { ServiceContext } from "../context.ts";

/** A payment gateway service as the organization bundle carries it (project id: for the exporter to link it). */
export interface ExportedPaymentGatewayService {
  projectId: string;
  name: string;
  webhookUrl: string | null;
}

/** Every payment gateway service of `organizationId`, by name. The caller checks access (owners only). */
export async function exportPaymentGatewayServices(
  ctx: ServiceContext,
  organizationId: string,
): Promise<ExportedPaymentGatewayService[]> {
  const rows = await ctx
    .knex("payment_gateway_services")
    .where({ organization_id: organizationId })
    .orderBy(["name", "created_at", "id"])
    .select("project_id", "name", "webhook_url");
  return rows.map((r: ExportedPaymentGatewayService) => ({
    projectId: r.projectId,
    name: r.name,
    webhookUrl: r.webhookUrl ?? null,
  }));
}
