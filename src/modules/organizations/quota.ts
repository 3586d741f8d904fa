/**
 * Plan quotas (spec: Limits — "Imports count against plan quotas for projects, applications, databases and
 * domains"). A null quota is unlimited. {@link assertQuota} is the authoritative check, made inside the
 * transaction that creates the resource; {@link quotaStatus} is the lock-free read used by previews.
 */
import type { Knex } from "knex";
import { AppError } from "../../shared/errors.ts";

/** Quota-limited resource kinds; the words are the spec's and appear in messages. */
export type QuotaKind = "projects" | "applications" | "databases" | "domains";

/** Every quota kind, in creation order. */
export const QUOTA_KINDS: readonly QuotaKind[] = ["projects", "applications", "databases", "domains"];

/** Limits (null = unlimited) and current counts of one organization. */
export interface QuotaStatus {
  plan: string;
  limits: Record<QuotaKind, number | null>;
  usage: Record<QuotaKind, number>;
}

/** Creating one more resource of `quota` would exceed the plan (code FORBIDDEN; `extensions.quota`, `limit`). */
export class QuotaExceededError extends AppError {
  constructor(quota: QuotaKind, limit: number, plan: string) {
    super("FORBIDDEN", quotaMessage(quota, limit, plan), { quota, limit });
  }
}

/** The message naming a reached quota, e.g. `Plan quota reached: projects (3 of 3 on plan "free")`. */
export function quotaMessage(quota: QuotaKind, limit: number, plan: string): string {
  return `Plan quota reached: ${quota} (${limit} of ${limit} on plan "${plan}")`;
}

const LIMIT_COLUMN: Record<QuotaKind, string> = {
  projects: "max_projects",
  applications: "max_applications",
  databases: "max_databases",
  domains: "max_domains",
};

/** The rows of one quota kind in one organization, as a query of the module that owns the table. */
export type QuotaRows = (db: Knex | Knex.Transaction, organizationId: string) => Knex.QueryBuilder;

/** Each kind's rows of one organization, handed in by the module that owns the table ({@link provideQuotaCounter}). */
const ROWS_OF: Partial<Record<QuotaKind, QuotaRows>> = {};

/**
 * Registers the query counting `kind` (called once by the owning module, next to the query: projects, applications,
 * databases), so this module counts every kind without importing the modules that own them.
 */
export function provideQuotaCounter(kind: QuotaKind, rows: QuotaRows): void {
  ROWS_OF[kind] = rows;
}

/** @throws Error when the module owning `kind` has not provided its counter (it is not loaded). */
function countOf(db: Knex | Knex.Transaction, kind: QuotaKind, organizationId: string) {
  const rows = ROWS_OF[kind];
  if (!rows) throw new Error(`No quota counter for ${kind}: the module owning it is not loaded`);
  return rows(db, organizationId).count("*");
}

/**
 * Plan limits and usage of `organizationId` in one statement, without locks. Usage is counted for the quotas the
 * current plan limits and for the kinds in `counted` (another plan's limited quotas, when moving to it); any other
 * kind reports 0.
 * @throws Error when the organization is missing.
 */
export async function quotaStatus(
  db: Knex | Knex.Transaction,
  organizationId: string,
  counted: readonly QuotaKind[] = [],
): Promise<QuotaStatus> {
  const usage = (k: QuotaKind) =>
    counted.includes(k)
      ? db.raw(`(?) as used_${k}`, [countOf(db, k, organizationId)])
      : db.raw(`case when p.${LIMIT_COLUMN[k]} is null then 0 else (?) end as used_${k}`, [
          countOf(db, k, organizationId),
        ]);
  const row = await db("organizations as o")
    .join("plans as p", "p.id", "o.plan_id")
    .where("o.id", organizationId)
    .first(
      "p.name as plan",
      ...QUOTA_KINDS.map((k) => `p.${LIMIT_COLUMN[k]} as limit_${k}`),
      ...QUOTA_KINDS.map(usage),
    );
  if (!row) throw new Error(`Organization ${organizationId} not found`);
  const r = row as Record<string, unknown>;
  const camel = (prefix: string, k: QuotaKind) => r[`${prefix}${k[0]!.toUpperCase()}${k.slice(1)}`];
  const limits = {} as QuotaStatus["limits"];
  const used = {} as QuotaStatus["usage"];
  for (const k of QUOTA_KINDS) {
    const cap = camel("limit", k);
    limits[k] = cap === null || cap === undefined ? null : Number(cap);
    used[k] = Number(camel("used", k));
  }
  return { plan: String(r.plan), limits, usage: used };
}

/**
 * Checks inside `trx` that one more `kind` fits the organization's plan. When the quota is limited it locks the
 * organization row (`for no key update`) first, so concurrent creators in one organization are serialised
 * until `trx` ends and cannot both take the last slot.
 * @throws QuotaExceededError when the quota is already reached.
 */
export async function assertQuota(trx: Knex.Transaction, organizationId: string, kind: QuotaKind): Promise<void> {
  const plan = await trx("organizations as o")
    .join("plans as p", "p.id", "o.plan_id")
    .where("o.id", organizationId)
    .first("p.name", `p.${LIMIT_COLUMN[kind]} as cap`);
  if (!plan || plan.cap === null) return;
  await trx.raw("select 1 from organizations where id = ? for no key update", [organizationId]);
  const [{ count }] = (await countOf(trx, kind, organizationId)) as [{ count: number | string }];
  if (Number(count) >= plan.cap) throw new QuotaExceededError(kind, plan.cap, plan.name);
}

/** Name of the plan of `organizationId` (`free`, `pro`, `unlimited`, …), or null when it does not exist. */
export async function planNameOf(db: Knex | Knex.Transaction, organizationId: string): Promise<string | null> {
  const row = await db("plans")
    .whereIn("id", db("organizations").where({ id: organizationId }).select("plan_id"))
    .first("name");
  return row ? String(row.name) : null;
}
