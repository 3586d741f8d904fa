/**
 * Payment gateway services of projects (spec: Payment gateway service; States and transitions → gateway service):
 * create, update, delete, method toggles, and the organization's one merchant behind them. Access:
 * visibility of the project first (NOT_FOUND), then `payment:manage` (owners and admins; FORBIDDEN).
 */
import type { Knex } from "knex";
import { assertCan } from "../../auth/access/policy.ts";
import type { OrgAccess } from "../../auth/access/standing.ts";
import { newId } from "../../db/ids.ts";
import { OutboundError } from "../../http/outbound-errors.ts";
import { visibleRowsById } from "../../reads/index.ts";
import { BadUserInputError, NotFoundError } from "../../shared/errors.ts";
import { URL_TEXT, URL_TEXT_MESSAGE } from "../../shared/input-fields.ts";
import { withTransaction } from "../../shared/transaction.ts";
import { noteAuditTarget, writeWithAuditEntry } from "../audit/index.ts";
import { type ServiceContext, sqlCallerOf } from "../context.ts";
import { lockOrganization } from "../organizations/index.ts";
import { projectTable } from "../projects/index.ts";
import { type GatewayMethod, gatewayClient } from "./gateway-client.ts";
import { provisionMerchantJob, releaseMerchantJob } from "./merchant.jobs.ts";
import type { PaymentGatewayService, PaymentGatewayServiceRow, PaymentMerchant } from "./payment.model.ts";
import { paymentServiceTable } from "./payment.tables.ts";

const SERVICES = "payment_gateway_services";
const MERCHANTS = "payment_merchants";
const MAX_NAME = 100;
const MAX_URL = 2048;

/** Path of the event relay endpoint on Skiff (see event-relay.ts). */
export const EVENTS_PATH = "/api/payment-gateway/events";

/** The organization's merchant row, if any. */
export async function merchantOf(db: Knex, organizationId: string): Promise<PaymentMerchant | undefined> {
  return db(MERCHANTS).where({ organizationId }).first();
}

/**
 * Loads a service the caller can see (its project visible to it).
 * @throws NotFoundError when it does not exist or is invisible (another organization, project not granted).
 */
async function visibleService(
  ctx: ServiceContext,
  id: string,
): Promise<{ service: PaymentGatewayService; access: OrgAccess }> {
  const caller = await sqlCallerOf(ctx.scope, ctx.services.now());
  const [service] = await visibleRowsById<PaymentGatewayService & PaymentGatewayServiceRow>(
    ctx.knex,
    caller,
    paymentServiceTable,
    [id],
  );
  const access = service ? await ctx.scope.forOrg(service.organizationId) : null;
  if (!service || !access) throw new NotFoundError("PaymentGatewayService", id);
  return { service, access };
}

/** Trimmed name, 1 to 100 characters. @throws BadUserInputError otherwise. */
function checkName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed || trimmed.length > MAX_NAME) {
    throw new BadUserInputError(`name must be 1 to ${MAX_NAME} characters`, {
      fieldErrors: { name: [`1 to ${MAX_NAME} characters`] },
    });
  }
  return trimmed;
}

/**
 * Save-time check of a webhook URL through the outbound client (same rules as at relay time): http(s), no
 * credentials, not loopback, private, link-local, `*.internal`, `*.local` or cluster-internal, including the
 * addresses the name resolves to. @returns the URL as given (trimmed). @throws BadUserInputError (400) otherwise.
 */
async function checkWebhookUrl(ctx: ServiceContext, url: string): Promise<string> {
  const trimmed = url.trim();
  const refuse = (reason: string) =>
    new BadUserInputError(`webhookUrl refused: ${reason}`, { fieldErrors: { webhookUrl: [reason] } });
  if (trimmed.length > MAX_URL) throw refuse(`at most ${MAX_URL} characters`);
  if (!URL_TEXT.test(trimmed)) throw refuse(URL_TEXT_MESSAGE.toLowerCase());
  try {
    await ctx.services.outbound.checkUrl(trimmed);
  } catch (err) {
    if (err instanceof OutboundError) throw refuse(err.message);
    throw err;
  }
  return trimmed;
}

/**
 * Creates a gateway service in project `projectId` (owners and admins). The organization's first one creates its
 * merchant at the gateway (status `provisioning`) and enqueues `payments.provision-merchant` in the same
 * transaction; later ones share that merchant.
 * @throws NotFoundError (project invisible), ForbiddenError (role), BadUserInputError (name, webhook URL, gateway
 *   not configured), GatewayError (gateway unreachable: masked 500).
 */
export async function createPaymentGatewayService(
  ctx: ServiceContext,
  input: { projectId: string; name: string; webhookUrl?: string | null },
): Promise<PaymentGatewayService> {
  const caller = await sqlCallerOf(ctx.scope, ctx.services.now());
  const [project] = await visibleRowsById<{ id: string; organizationId: string }>(ctx.knex, caller, projectTable, [
    input.projectId,
  ]);
  const access = project ? await ctx.scope.forOrg(project.organizationId) : null;
  if (!project || !access) throw new NotFoundError("Project", input.projectId);
  assertCan(access, "payment:manage");
  const name = checkName(input.name);
  const webhookUrl = input.webhookUrl ? await checkWebhookUrl(ctx, input.webhookUrl) : null;
  const gateway = gatewayClient(ctx.services.config);
  return withTransaction(ctx, async (tx) => {
    // Serialises first creations of one organization: exactly one merchant per organization.
    const org = await lockOrganization(tx.knex, project.organizationId);
    if (!org) throw new NotFoundError("Project", input.projectId);
    if (!(await merchantOf(tx.knex, project.organizationId))) {
      const base = ctx.services.config.SKIFF_BASE_URL?.replace(/\/+$/, "");
      const remote = await gateway.createMerchant({
        name: org.name,
        ...(base ? { eventsUrl: `${base}${EVENTS_PATH}` } : {}),
      });
      await tx.knex(MERCHANTS).insert({
        organizationId: project.organizationId,
        gatewayMerchantId: remote.id,
        status: "provisioning",
      });
      // The organization's merchant is made with its first service: the call's entry names it, as its activation's does.
      noteAuditTarget(tx, remote.id);
      await ctx.services.jobs.enqueue(tx.knex, provisionMerchantJob, {
        organizationId: project.organizationId,
        gatewayMerchantId: remote.id,
      });
    }
    const [service] = await tx
      .knex(SERVICES)
      .insert({
        id: newId("paymentGatewayService"),
        organizationId: project.organizationId,
        projectId: project.id,
        name,
        webhookUrl,
      })
      .returning("*");
    return service as PaymentGatewayService;
  });
}

/**
 * Renames a service and/or changes its webhook URL (`webhookUrl` undefined: unchanged; null or "": cleared).
 * @throws NotFoundError, ForbiddenError, BadUserInputError as {@link createPaymentGatewayService}.
 */
export async function updatePaymentGatewayService(
  ctx: ServiceContext,
  id: string,
  input: { name?: string | null; webhookUrl?: string | null },
): Promise<PaymentGatewayService> {
  const { access } = await visibleService(ctx, id);
  assertCan(access, "payment:manage");
  const patch: Partial<PaymentGatewayService> = {};
  if (input.name !== undefined && input.name !== null) patch.name = checkName(input.name);
  if (input.webhookUrl !== undefined) {
    patch.webhookUrl = input.webhookUrl ? await checkWebhookUrl(ctx, input.webhookUrl) : null;
  }
  if (Object.keys(patch).length === 0) return (await visibleService(ctx, id)).service;
  const [service] = await writeWithAuditEntry(ctx, ctx.knex(SERVICES).where({ id }).update(patch).returning("*"));
  if (!service) throw new NotFoundError("PaymentGatewayService", id);
  return service as PaymentGatewayService;
}

/**
 * Deletes a service (spec: States and transitions → gateway service): the binding is cleared; while other gateway
 * services of the organization remain the merchant is kept; after the last one the merchant row (and its signing
 * key) is removed and `payments.release-merchant` releases it at the gateway (enqueued in the same transaction).
 * @returns true. @throws NotFoundError, ForbiddenError.
 */
export async function deletePaymentGatewayService(ctx: ServiceContext, id: string): Promise<boolean> {
  const { service, access } = await visibleService(ctx, id);
  assertCan(access, "payment:manage");
  return withTransaction(ctx, async (tx) => {
    await lockOrganization(tx.knex, service.organizationId);
    const deleted = await tx.knex(SERVICES).where({ id }).delete();
    if (!deleted) throw new NotFoundError("PaymentGatewayService", id);
    const remaining = await tx.knex(SERVICES).where({ organizationId: service.organizationId }).first("id");
    if (!remaining) {
      const merchant = await merchantOf(tx.knex, service.organizationId);
      if (merchant) {
        await tx.knex(MERCHANTS).where({ organizationId: service.organizationId }).delete();
        await ctx.services.jobs.enqueue(tx.knex, releaseMerchantJob, {
          gatewayMerchantId: merchant.gatewayMerchantId,
        });
      }
    }
    return true;
  });
}

/**
 * Turns payment method `method` on or off at the gateway for the organization's merchant (owners and admins).
 * @throws NotFoundError, ForbiddenError; BadUserInputError while the merchant is provisioning or for an unknown
 *   method; GatewayError when the gateway fails.
 */
export async function setPaymentMethodEnabled(
  ctx: ServiceContext,
  serviceId: string,
  method: string,
  enabled: boolean,
): Promise<GatewayMethod> {
  const { service, access } = await visibleService(ctx, serviceId);
  assertCan(access, "payment:manage");
  const merchant = await merchantOf(ctx.knex, service.organizationId);
  if (merchant?.status !== "active") {
    throw new BadUserInputError("The merchant is still being provisioned at the gateway; try again in a moment", {
      formErrors: ["Merchant provisioning"],
    });
  }
  return gatewayClient(ctx.services.config).setMethodEnabled(merchant.gatewayMerchantId, method, enabled);
}

/**
 * The gateway's method list with the toggles of the merchant of a service's row; empty while the merchant is
 * provisioning (or when there is none).
 */
export async function paymentMethodsOf(
  ctx: ServiceContext,
  row: Pick<PaymentGatewayServiceRow, "merchantStatus" | "gatewayMerchantId">,
) {
  if (row.merchantStatus !== "active" || !row.gatewayMerchantId) return [];
  return gatewayClient(ctx.services.config).listMethods(row.gatewayMerchantId);
}
