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
import {
  type ApplicationSubject,
  applicationForProbe,
  applicationSubject,
  applicationsDueForProbe,
  firstDomainHost,
  lockApplicationHealth,
  setApplicationHealth,
} from "../applications/index.ts";
import { events } from "../events.ts";
import type { AppServices } from "../services.ts";

/** Health states. */
export type Health = "healthy" | "unhealthy" | "unknown";

/** The `applicationStatus` a health change makes (outside `deploying`): `healthy` → `running`, else `error`. */
export function statusOfHealth(health: Health): "running" | "error" {
  return health === "healthy" ? "running" : "error";
}

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
  const app = await applicationForProbe(knex, applicationId);
  if (!app || app.applicationStatus === null || app.applicationStatus === "idle") return null;
  const intervalMs = config.SKIFF_HEALTH_INTERVAL * 1000;
  if (
    !force &&
    app.healthCheckedAt &&
    services.now().getTime() - new Date(app.healthCheckedAt).getTime() < intervalMs * 0.9
  ) {
    return null;
  }
  const host = await firstDomainHost(knex, applicationId);
  if (!host) return null;
  const path = app.healthPath?.startsWith("/") ? app.healthPath : `/${app.healthPath ?? ""}`;
  const port = config.SKIFF_HEALTH_PORT === 443 ? "" : `:${config.SKIFF_HEALTH_PORT}`;
  const probe = await probeOnce(services, `https://${host}${port}${path}`);

  const outcome = await recordHealth(services, log, app, probe.ok, probe.detail, FAILURES_FOR_UNHEALTHY);
  return outcome && { ok: probe.ok, detail: probe.detail, from: outcome.from, to: outcome.to };
}

/**
 * Records one health outcome of `app` in a transaction: a success makes it `healthy`; `failuresForUnhealthy`
 * consecutive failures `unhealthy`. A change emits `app.health_changed` and sets `applicationStatus` (unless
 * `deploying`). @returns `{ from, to }`, or null when the application is gone.
 */
async function recordHealth(
  services: AppServices,
  log: Logger,
  app: ApplicationSubject,
  ok: boolean,
  detail: string,
  failuresForUnhealthy: number,
): Promise<{ from: Health; to: Health } | null> {
  return services.knex.transaction(async (trx) => {
    const row = await lockApplicationHealth(trx, app.id);
    if (!row) return null;
    const from: Health = row.health;
    const failures = ok ? 0 : row.healthFailures + 1;
    const to: Health = ok ? "healthy" : failures >= failuresForUnhealthy ? "unhealthy" : from;
    const now = services.now();
    const patch: Parameters<typeof setApplicationHealth>[2] = {
      health: to,
      healthFailures: failures,
      healthCheckedAt: now,
    };
    if (to !== from) {
      if (row.applicationStatus !== "deploying") patch.applicationStatus = statusOfHealth(to);
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
    await setApplicationHealth(trx, app.id, patch);
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
  const app = await applicationSubject(services.knex, applicationId);
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
  const apps = await applicationsDueForProbe(knex, dueBefore);
  let next = 0;
  let probed = 0;
  const lane = async () => {
    while (next < apps.length) {
      const id = apps[next++]!;
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
