/**
 * The instance side of license synchronisation (spec "Docs-domain lookup and theme"): collects every saved docs
 * hostname of this instance (`[{ hostname, cloudUrl }]`), sends the complete list to the docs host — `POST
 * {SKIFF_DOCS_HOST_URL}/api/docs/sync` through the kernel's outbound client, or in-process when this instance is its
 * own docs host (the embedded default) — and records each hostname's verdict (`docsRegistration`). A docs host that is
 * down only delays registration: saved themes are never touched then.
 */
import type { Logger } from "pino";
import { organizationNumbers } from "../organizations/index.ts";
import type { AppServices } from "../services.ts";
import { authenticateLicense, licenseDigest, syncDocsRegistrations } from "./docs-host.service.ts";
import type { DocsDnsState, DocsHostnameEntry, DocsSyncResult } from "./docs-theme.model.ts";
import { cloudUrlOf } from "./docs-theme.service.ts";

/** License identity of an instance that is its own docs host without a license key. */
const LOCAL_LICENSE = "skiff-local-instance";

/** This instance's complete list of docs hostnames with the `cloudUrl` of their organizations. */
export async function localRegistrations(services: AppServices): Promise<DocsHostnameEntry[]> {
  const rows = await services
    .knex("docs_themes as t")
    .join(organizationNumbers(services.knex, "o"), "o.id", "t.organization_id")
    .whereNotNull("t.docs_hostname")
    .orderBy("t.docs_hostname")
    .select("t.docs_hostname", "o.database_id");
  return rows.map((r) => ({
    hostname: r.docsHostname as string,
    cloudUrl: cloudUrlOf(services.config.SKIFF_BASE_URL, r.databaseId as number),
  }));
}

/** What one synchronisation did. */
export interface SyncOutcome {
  /** `skipped`: a remote docs host is configured but no SKIFF_LICENSE_KEY. */
  kind: "synced" | "skipped";
  results: DocsSyncResult[];
}

/**
 * Runs one synchronisation and stores the verdicts in `docs_themes`.
 * @throws Error when the docs host is unreachable or answers non-2xx (the job logs it and tries at the next tick).
 */
export async function syncWithDocsHost(services: AppServices, log: Logger, signal?: AbortSignal): Promise<SyncOutcome> {
  const { config } = services;
  const registrations = await localRegistrations(services);
  let results: DocsSyncResult[];
  if (!config.SKIFF_DOCS_HOST_URL) {
    const digest = config.SKIFF_LICENSE_KEY
      ? authenticateLicense(config, config.SKIFF_LICENSE_KEY)
      : licenseDigest(LOCAL_LICENSE);
    results = await syncDocsRegistrations(services.knex, config, digest, registrations, services.now());
  } else {
    if (!config.SKIFF_LICENSE_KEY) {
      log.debug("docs sync skipped: SKIFF_DOCS_HOST_URL is set but SKIFF_LICENSE_KEY is not");
      return { kind: "skipped", results: [] };
    }
    const url = new URL("api/docs/sync", config.SKIFF_DOCS_HOST_URL.replace(/\/*$/, "/"));
    const response = await services.outbound.request({
      method: "POST",
      url,
      headers: { authorization: `Bearer ${config.SKIFF_LICENSE_KEY}`, "content-type": "application/json" },
      body: JSON.stringify({ registrations }),
      timeoutMs: 15_000,
      maxBodyBytes: 1024 * 1024,
      signal,
    });
    if (response.status < 200 || response.status > 299) {
      throw new Error(`docs host answered ${response.status} to the synchronisation`);
    }
    results = (JSON.parse(response.body.toString("utf8")) as { results: DocsSyncResult[] }).results;
  }
  await recordResults(services, results);
  return { kind: "synced", results };
}

/** Stores each verdict on the theme that still holds that hostname (a hostname changed meanwhile is left PENDING). */
async function recordResults(services: AppServices, results: readonly DocsSyncResult[]): Promise<void> {
  const now = services.now();
  const states: readonly DocsDnsState[] = ["PENDING", "OK", "WRONG_TARGET"];
  for (const r of results) {
    if (typeof r?.hostname !== "string" || !states.includes(r.dns)) continue;
    await services
      .knex("docs_themes")
      .where({ docs_hostname: r.hostname })
      .update({ docs_synced_at: r.accepted ? now : null, docs_dns: r.dns, docs_conflict: !!r.conflict });
  }
}
