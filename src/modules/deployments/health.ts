/**
 * Application health (spec "Deploy events"): a deployed application with a domain is probed with
 * `GET https://<domain>:<SKIFF_HEALTH_PORT><healthPath>` through the kernel's outbound client (SSRF-checked, no
 * redirects followed). A 2xx or 3xx answer is a success; anything else (status ≥ 400, timeout, refused
 * connection, blocked address) a failure. One success makes it `healthy`; two consecutive failures `unhealthy`.
 * Each change emits `app.health_changed` `{ application, from, to, checked_at }` in the same transaction and sets
 * `applicationStatus` (`running` when healthy, `error` when unhealthy; untouched while `deploying`). The
 * `kubernetes` deployer feeds the same state with rollout availability ({@link recordRolloutAvailability}).
 */
import type { Logger } from "pino";
import { applicationsTable, domainsTable } from "../applications/index.ts";
import { events } from "../events.ts";
import type { AppServices } from "../services.ts";

/** Health states. */
export type Health = "healthy" | "unhealthy" | "unknown";

/** Consecutive failures that make an application unhealthy. */
export const FAILURES_FOR_UNHEALTHY = 2;

/** Result of one probe. */
export interface ProbeResult {
  ok: boolean;
  /** Status code, or the error's message. */
  detail: string;
  from: Health;
  to: Health;
}

/** One GET of `url`; true for 2xx/3xx. */
async function probeOnce(services: AppServices, url: string): Promise<{ ok: boolean; detail: string }> {
  try {
    const res = await services.outbound.request({ url, timeoutMs: 5_000, connectTimeoutMs: 3_000, maxBodyBytes: 1024 });
    return { ok: res.status < 400, detail: `HTTP ${res.status}` };
  } catch (error) {
    return { ok: false, detail: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * Probes application `applicationId` once (its oldest domain) and records the outcome (see the file comment).
 * Skips (returns null) when the application is gone, has no domain, was never deployed, or was probed less
 * than 90 % of SKIFF_HEALTH_INTERVAL ago (unless `force`).
 */
export async function probeApplicationHealth(
  services: AppServices,
  log: Logger,
  applicationId: string,
  force = false,
): Promise<ProbeResult | null> {
  const { knex, config } = services;
  const app = await applicationsTable(knex)
    .where({ id: applicationId })
    .first("id", "name", "project_id", "organization_id", "health_path", "health_checked_at", "application_status");
  if (!app || app.applicationStatus === null || app.applicationStatus === "idle") return null;
  const intervalMs = config.SKIFF_HEALTH_INTERVAL * 1000;
  if (
    !force &&
    app.healthCheckedAt &&
    services.now().getTime() - new Date(app.healthCheckedAt).getTime() < intervalMs * 0.9
  ) {
    return null;
  }
  const domain = await domainsTable(knex).where({ application_id: applicationId }).orderBy("created_at").first("host");
  if (!domain) return null;
  const path = app.healthPath?.startsWith("/") ? app.healthPath : `/${app.healthPath ?? ""}`;
  const port = config.SKIFF_HEALTH_PORT === 443 ? "" : `:${config.SKIFF_HEALTH_PORT}`;
  const probe = await probeOnce(services, `https://${domain.host}${port}${path}`);

  const outcome = await recordHealth(services, log, app, probe.ok, probe.detail, FAILURES_FOR_UNHEALTHY);
  return outcome && { ok: probe.ok, detail: probe.detail, from: outcome.from, to: outcome.to };
}

/** The application fields a health change reports. */
interface HealthSubject {
  id: string;
  name: string;
  projectId: string;
  organizationId: string;
}

/**
 * Records one health outcome of `app` in a transaction: a success makes it `healthy`; `failuresForUnhealthy`
 * consecutive failures `unhealthy`. A change emits `app.health_changed` and sets `applicationStatus` (unless
 * `deploying`). @returns `{ from, to }`, or null when the application is gone.
 */
async function recordHealth(
  services: AppServices,
  log: Logger,
  app: HealthSubject,
  ok: boolean,
  detail: string,
  failuresForUnhealthy: number,
): Promise<{ from: Health; to: Health } | null> {
  return services.knex.transaction(async (trx) => {
    const row = await applicationsTable(trx)
      .where({ id: app.id })
      .forUpdate()
      .first("health", "health_failures", "application_status");
    if (!row) return null;
    const from = row.health as Health;
    const failures = ok ? 0 : row.healthFailures + 1;
    const to: Health = ok ? "healthy" : failures >= failuresForUnhealthy ? "unhealthy" : from;
    const now = services.now();
    const patch: Record<string, unknown> = { health: to, health_failures: failures, health_checked_at: now };
    if (to !== from) {
      if (row.applicationStatus !== "deploying") patch.application_status = to === "healthy" ? "running" : "error";
      await events.emit({ knex: trx, services, log }, "app.health_changed", {
        organizationId: app.organizationId,
        data: {
          application: { application_id: app.id, name: app.name, project_id: app.projectId },
          from,
          to,
          checked_at: now.toISOString(),
        },
      });
      log.info({ applicationId: app.id, from, to, detail }, "application health changed");
    }
    await applicationsTable(trx).where({ id: app.id }).update(patch);
    return { from, to };
  });
}

/**
 * Records the rollout availability reported by the `kubernetes` deployer as a health outcome of application
 * `applicationId`: available → `healthy`; not available (rollout timed out or failed) → `unhealthy` at once (a
 * failed rollout is not a flaky probe). Same state, same `app.health_changed` event as the probes.
 * @returns `{ from, to }`, or null when the application is gone.
 */
export async function recordRolloutAvailability(
  services: AppServices,
  log: Logger,
  applicationId: string,
  available: boolean,
  detail: string,
): Promise<{ from: Health; to: Health } | null> {
  const app = await applicationsTable(services.knex)
    .where({ id: applicationId })
    .first("id", "name", "project_id", "organization_id");
  if (!app) return null;
  return recordHealth(services, log, app, available, detail, 1);
}

/** Probes one tick runs at once (each takes at most 8 s: 3 s to connect, 5 s to answer). */
export const PROBES_AT_ONCE = 16;

/**
 * One tick of health probes: probes every deployed application with a domain that is due (not probed within 90 %
 * of SKIFF_HEALTH_INTERVAL), {@link PROBES_AT_ONCE} at a time, and records each outcome.
 * @returns how many applications were probed.
 */
export async function probeDueApplications(services: AppServices, log: Logger): Promise<number> {
  const { knex, config } = services;
  const dueBefore = new Date(services.now().getTime() - config.SKIFF_HEALTH_INTERVAL * 1000 * 0.9);
  const apps = (await applicationsTable(knex, "a")
    .whereIn("a.application_status", ["running", "error"])
    .where((q) => q.whereNull("a.health_checked_at").orWhere("a.health_checked_at", "<", dueBefore))
    .whereExists(domainsTable(knex, "d").whereRaw("d.application_id = a.id"))
    .orderBy("a.health_checked_at", "asc", "first")
    .select("a.id")) as Array<{ id: string }>;
  let next = 0;
  let probed = 0;
  const lane = async () => {
    while (next < apps.length) {
      const { id } = apps[next++]!;
      try {
        if (await probeApplicationHealth(services, log, id)) probed++;
      } catch (err) {
        log.warn({ err, applicationId: id }, "health probe could not be recorded");
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(PROBES_AT_ONCE, apps.length) }, lane));
  return probed;
}

/**
 * Plans the next minute of probes: one `deployments.probe-health-tick` job per SKIFF_HEALTH_INTERVAL within the
 * minute (job keys dedupe across instances), each probing every due application ({@link probeDueApplications}):
 * a tick is one background job whatever the number of applications. Nothing when the interval is 0, or under the
 * `dry-run` deployer, which runs no application (there is nothing to probe).
 * @returns the number of ticks enqueued.
 */
export async function planHealthProbes(services: AppServices): Promise<number> {
  const interval = services.config.SKIFF_HEALTH_INTERVAL;
  if (interval === 0 || services.config.SKIFF_DEPLOYER === "dry-run") return 0;
  const perMinute = Math.max(1, Math.floor(60 / interval));
  const start = services.now().getTime();
  for (let k = 0; k < perMinute; k++) {
    await services.jobs.enqueue(
      services.knex,
      "deployments.probe-health-tick",
      {},
      { runAt: new Date(start + k * interval * 1000), jobKey: `health-tick:${k}` },
    );
  }
  return perMinute;
}
