/**
 * Jobs of the organization's merchant at the payment gateway (spec "Payment gateway service"):
 * `payments.provision-merchant` polls the gateway until a new merchant is active, then stores its code and (encrypted)
 * signing key; `payments.release-merchant` releases a merchant whose last gateway service was deleted.
 */
import { z } from "zod";
import { defineJob, PermanentJobError } from "../../jobs/job-definition.ts";
import { recordSystemChange } from "../audit/index.ts";
import { gatewayClient } from "./gateway-client.ts";
import type { PaymentMerchant } from "./payment.model.ts";

/** Waits between polls (ms): about 2 minutes in all, then the job fails for good (visible in `skiff jobs`). */
const POLL_WAITS_MS = [250, 500, 1_000, 1_000, 2_000, 2_000, ...Array.from({ length: 22 }, () => 5_000)];

/** `payments.provision-merchant`: one poll of the gateway for `organizationId`'s merchant. */
export const provisionMerchantJob = defineJob({
  name: "payments.provision-merchant",
  payload: z.object({ organizationId: z.string().min(1), gatewayMerchantId: z.string().min(1) }),
  retry: { kind: "waits", waitsMs: POLL_WAITS_MS },
  async handler({ organizationId, gatewayMerchantId }, ctx) {
    const { knex, secrets, config } = ctx.services;
    const merchant = (await knex("payment_merchants").where({ organizationId }).first()) as PaymentMerchant | undefined;
    // Released (last service deleted) or replaced meanwhile: nothing to do.
    if (!merchant || merchant.gatewayMerchantId !== gatewayMerchantId || merchant.status === "active") return;
    const remote = await gatewayClient(config).getMerchant(gatewayMerchantId);
    if (remote.status === "released") throw new PermanentJobError(`merchant ${gatewayMerchantId} was released`);
    if (remote.status !== "active" || !remote.code || !remote.signingKey) {
      throw new Error(`merchant ${gatewayMerchantId} is still provisioning`);
    }
    const signingKey = remote.signingKey;
    await knex.transaction(async (trx) => {
      const activated = await trx("payment_merchants")
        .where({ organizationId, gatewayMerchantId })
        .update({ merchantCode: remote.code, signingKeySealed: secrets.encrypt(signingKey), status: "active" });
      // The organization's payment gateway services start taking payments: recorded in its audit log.
      if (activated) {
        await recordSystemChange(trx, {
          organizationId,
          action: "system.payment_merchant_activated",
          targetIds: [organizationId, gatewayMerchantId],
        });
      }
    });
    ctx.log.info({ organizationId, gatewayMerchantId }, "payment merchant active");
  },
});

/** `payments.release-merchant`: releases a merchant at the gateway (retried with backoff while it fails). */
export const releaseMerchantJob = defineJob({
  name: "payments.release-merchant",
  payload: z.object({ gatewayMerchantId: z.string().min(1) }),
  retry: { kind: "backoff", maxAttempts: 15 },
  async handler({ gatewayMerchantId }, ctx) {
    await gatewayClient(ctx.services.config).releaseMerchant(gatewayMerchantId);
    ctx.log.info({ gatewayMerchantId }, "payment merchant released");
  },
});
