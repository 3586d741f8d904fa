/**
 * The docs-host role (spec "Docs-domain lookup and theme"): hostname → owning instance
 * (`cloudUrl`) lookups for docs sites, and the synchronisation that replaces one license's registrations with an
 * instance's complete list, refusing hostnames another license holds and checking each hostname's CNAME.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { Resolver } from "node:dns/promises";
import type { Knex } from "knex";
import type { Config } from "../../config.ts";
import { BadUserInputError, UnauthenticatedError } from "../../shared/errors.ts";
import { parseInput } from "../../shared/validate.ts";
import { HOSTNAME_RE, syncInput } from "./docs-theme.input.ts";
import type { DocsDnsState, DocsHostnameEntry, DocsSyncResult } from "./docs-theme.model.ts";

/** SHA-256 of a license key, lower-case hex: the identity under which its registrations are stored. */
export function licenseDigest(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

/**
 * The digest of `licenseKey` when this docs host accepts it: listed in SKIFF_DOCS_HOST_LICENSE_SHA256, or the
 * instance's own SKIFF_LICENSE_KEY.
 * @throws UnauthenticatedError for a missing or unknown key.
 */
export function authenticateLicense(config: Config, licenseKey: string | undefined): string {
  const digest = licenseKey ? licenseDigest(licenseKey) : null;
  const accepted = config.SKIFF_DOCS_HOST_LICENSE_SHA256.split(",")
    .map((d) => d.trim().toLowerCase())
    .filter(Boolean);
  if (config.SKIFF_LICENSE_KEY) accepted.push(licenseDigest(config.SKIFF_LICENSE_KEY));
  const ok = digest && accepted.some((a) => timingSafeEqual(Buffer.from(a, "hex"), Buffer.from(digest, "hex")));
  if (!ok) throw new UnauthenticatedError("Unknown license key");
  return digest;
}

/**
 * The `cloudUrl` owning synchronised hostname `asked` (in any case, with or without the root's trailing dot), or null
 * when it is not (yet) registered.
 * @throws BadUserInputError when `asked` is not a DNS name.
 */
export async function lookupDocsHostname(knex: Knex, asked: string): Promise<string | null> {
  // The same DNS name in any case, and in its fully qualified form (`location.hostname` of `https://docs.acme.com./`).
  const hostname = asked.toLowerCase().replace(/(?<=.)\.$/, "");
  if (!HOSTNAME_RE.test(hostname)) {
    throw new BadUserInputError("Invalid hostname: a lower-case DNS name such as docs.example.com", {
      fieldErrors: { hostname: ["Must be a lower-case DNS name"] },
    });
  }
  const row = await knex("docs_host_registrations").where({ hostname }).first("cloud_url");
  return (row?.cloudUrl as string | undefined) ?? null;
}

/**
 * Whether `hostname` has a CNAME to `target` (asking SKIFF_DOCS_DNS_SERVERS, or the system's servers): `OK`,
 * `WRONG_TARGET` (no CNAME, another target, no such name), or `PENDING` when DNS could not answer (timeout).
 */
export async function checkCname(config: Config, hostname: string, target: string): Promise<DocsDnsState> {
  const resolver = new Resolver({ timeout: 3_000, tries: 2 });
  const servers = config.SKIFF_DOCS_DNS_SERVERS.split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (servers.length) resolver.setServers(servers);
  const norm = (name: string) => name.toLowerCase().replace(/\.$/, "");
  try {
    const names = await resolver.resolveCname(hostname);
    return names.some((n) => norm(n) === norm(target)) ? "OK" : "WRONG_TARGET";
  } catch (error) {
    const code = (error as { code?: string }).code;
    return code === "ENODATA" || code === "ENOTFOUND" ? "WRONG_TARGET" : "PENDING";
  }
}

/**
 * Replaces the registrations of license `licenseSha256` with `raw` (`[{ hostname, cloudUrl }]`): hostnames it no
 * longer lists are removed; a hostname registered by another license is refused (`conflict`); each accepted one is
 * stored with its CNAME state.
 * @throws BadUserInputError for an invalid list (each hostname lower-case DNS name, at most once, ≤ 1000).
 */
export async function syncDocsRegistrations(
  knex: Knex,
  config: Config,
  licenseSha256: string,
  raw: unknown,
  now: Date,
): Promise<DocsSyncResult[]> {
  const list: DocsHostnameEntry[] = parseInput(syncInput, raw, "Invalid registrations");
  const held = await knex("docs_host_registrations")
    .whereIn(
      "hostname",
      list.map((e) => e.hostname),
    )
    .whereNot({ license_sha256: licenseSha256 })
    .pluck("hostname");
  const taken = new Set<string>(held);
  const dns = await Promise.all(
    list.map((e) =>
      taken.has(e.hostname) ? "PENDING" : checkCname(config, e.hostname, config.SKIFF_DOCS_CNAME_TARGET),
    ),
  );
  return knex.transaction(async (trx) => {
    await trx("docs_host_registrations")
      .where({ license_sha256: licenseSha256 })
      .whereNotIn(
        "hostname",
        list.map((e) => e.hostname),
      )
      .delete();
    const results: DocsSyncResult[] = [];
    for (const [i, entry] of list.entries()) {
      const state = dns[i] as DocsDnsState;
      // The update applies only to this license's own row: a concurrent claim by another license wins.
      const rows = taken.has(entry.hostname)
        ? []
        : await trx("docs_host_registrations")
            .insert({
              hostname: entry.hostname,
              license_sha256: licenseSha256,
              cloud_url: entry.cloudUrl,
              dns: state,
              synced_at: now,
            })
            .onConflict("hostname")
            .merge(["cloud_url", "dns", "synced_at"])
            .where("docs_host_registrations.license_sha256", licenseSha256)
            .returning("hostname");
      const accepted = rows.length === 1;
      results.push({ hostname: entry.hostname, accepted, conflict: !accepted, dns: accepted ? state : "PENDING" });
    }
    return results;
  });
}
