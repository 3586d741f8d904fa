/**
 * The descriptor of the payments module's gateway services (src/reads/tables.ts): each service with its
 * organization's merchant as one row, visible when its project is granted (not only seen through an application).
 */

import { visibleServiceSql } from "../../auth/access/policy.ts";
import { defineTable } from "../../reads/index.ts";
import { projectTable } from "../projects/index.ts";

/**
 * Gateway services with their organization's merchant (null columns: none yet) as one row each: `merchant_code`,
 * `merchant_status`, `signing_key_sealed`, `gateway_merchant_id` (see `PaymentGatewayServiceRow`).
 */
const SERVICE_ROWS = `(select s.*, m.merchant_code, m.status as merchant_status, m.signing_key_sealed,
    m.gateway_merchant_id
  from payment_gateway_services s left join payment_merchants m on m.organization_id = s.organization_id)`;

/** The `payment_gateway_services` rows (with their merchant): `PaymentGatewayService`, visible as services of their project. */
export const paymentServiceTable = defineTable(
  "PaymentGatewayService",
  SERVICE_ROWS,
  [
    "id",
    "organization_id",
    "project_id",
    "name",
    "webhook_url",
    "created_at",
    "merchant_code",
    "merchant_status",
    "signing_key_sealed",
    "gateway_merchant_id",
  ],
  (sql, alias) => sql.condition(visibleServiceSql(sql.caller.orgs, `${alias}.organization_id`, `${alias}.project_id`)),
  { shows: { project_id: projectTable } },
);
