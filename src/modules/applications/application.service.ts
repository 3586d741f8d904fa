/**
 * Application, environment variable and domain writes shared by every surface (GraphQL, REST, imports).
 * Callers own the transaction.
 */
import { randomInt } from "node:crypto";
import type { Knex } from "knex";
import { translateUniqueViolations } from "../../shared/constraint-errors.ts";
import { withTransaction } from "../../shared/transaction.ts";
import type { ServiceContext } from "../context.ts";
import { assertQuota, provideQuotaCounter } from "../organizations/index.ts";
import type { SourceInput } from "./application.input.ts";
import { Application, type ApplicationSourceSettings, Domain, EnvironmentVariable } from "./application.model.ts";

const SUFFIX_ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";

/**
 * A new platform-wide slug for an application (or a database) named `name`: lower-case `[a-z0-9-]`, at most 40
 * characters of the name with accents dropped (`Résumé` → `resume-…`; other characters become `-`), `app-` before
 * one that does not start with a letter (`1shop` → `app-1shop-…`), then `-` and 6 random characters, e.g.
 * `my-shop-7k2mq3`. Used in internal hostnames and cluster object names, so it is a
 * DNS-1035 label, as a Kubernetes Service's name must be.
 */
export function newAppName(name: string): string {
  const base =
    name
      .normalize("NFKD")
      .replace(/\p{M}/gu, "")
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 40)
      .replace(/-+$/, "") || "app";
  const named = /^[a-z]/.test(base) ? base : `app-${base}`;
  const suffix = Array.from({ length: 6 }, () => SUFFIX_ALPHABET[randomInt(SUFFIX_ALPHABET.length)]).join("");
  return `${named}-${suffix}`;
}

/** What an application is created from. */
export interface ApplicationSpec {
  organizationId: string;
  projectId: string;
  environmentId: string;
  name: string;
  appName: string;
  sourceType: Application["sourceType"];
  source: ApplicationSourceSettings;
  buildType: Application["buildType"];
  /** Container port, 1 to 65535. */
  port: number;
}

/** The columns an application stores for a validated source (`source_type`, `source` JSON, `build_type`). */
export function storedSource(source: SourceInput): Pick<ApplicationSpec, "sourceType" | "source" | "buildType"> {
  const { type, repo, branch, buildPath, buildType, dockerImage, githubId, gitlabId } = source;
  return {
    sourceType: type,
    source: {
      repo,
      branch,
      buildPath,
      dockerImage,
      gitProviderId: githubId ?? gitlabId,
      customGitUrl: source.customGitUrl,
      customGitSSHKeyId: source.customGitSSHKeyId,
    },
    buildType,
  };
}

/** The CONFLICT message of an application name the environment holds already (names are unique per environment). */
export function applicationNameTakenMessage(name: string): string {
  return `The environment already has an application named "${name}"`;
}

/**
 * Creates an application after checking the applications quota, in one transaction (the caller's when `ctx.knex`
 * is one).
 * @throws QuotaExceededError when the quota is reached; ConflictError when `appName` is taken or the environment
 * has an application of that name.
 */
export function createApplication(ctx: ServiceContext, spec: ApplicationSpec): Promise<Application> {
  return withTransaction(ctx, async ({ knex: trx }) => {
    await assertQuota(trx, spec.organizationId, "applications");
    return translateUniqueViolations(
      () =>
        Application.query(trx)
          .insert({ ...spec, applicationStatus: "idle", needsDeployment: true })
          .returning("*"),
      {
        applications_app_name_unique: `Application name ${spec.appName} is already in use`,
        applications_environment_id_name_unique: { message: applicationNameTakenMessage(spec.name), field: "name" },
      },
    );
  });
}

/** Sets `vars` (name → plain value) on an application; values are stored encrypted. One statement. */
export async function setEnvironmentVariables(
  ctx: ServiceContext,
  applicationId: string,
  vars: Readonly<Record<string, string>>,
): Promise<void> {
  const rows = Object.entries(vars).map(([key, value]) => ({
    applicationId,
    key,
    valueEncrypted: ctx.services.secrets.encrypt(value),
  }));
  if (!rows.length) return;
  await EnvironmentVariable.query(ctx.knex)
    .insert(rows)
    .onConflict(["application_id", "key"])
    .merge(["valueEncrypted"]);
}

/** The message of a domain host conflict (hosts are unique platform-wide). */
export function domainTakenMessage(host: string): string {
  return `Domain ${host} is already in use`;
}

/**
 * Routes `host` to an application after checking the domains quota, in one transaction (the caller's when
 * `ctx.knex` is one); HTTPS is requested (the certificate is issued asynchronously).
 * @throws QuotaExceededError when the quota is reached; ConflictError when the host is taken on the platform.
 */
export function createDomain(
  ctx: ServiceContext,
  input: { organizationId: string; applicationId: string; host: string; port?: number | null; https?: boolean },
): Promise<Domain> {
  return withTransaction(ctx, async ({ knex: trx }) => {
    await assertQuota(trx, input.organizationId, "domains");
    return translateUniqueViolations(
      () =>
        Domain.query(trx)
          .insert({
            organizationId: input.organizationId,
            applicationId: input.applicationId,
            host: input.host,
            port: input.port ?? null,
            https: input.https ?? true,
          })
          .returning("*"),
      { domains_host_unique: { message: domainTakenMessage(input.host), field: "host" } },
    );
  });
}

/** Query (not run) of the applications of `organizationId` (quotas). */
export function applicationsOfOrganization(db: Knex | Knex.Transaction, organizationId: string): Knex.QueryBuilder {
  return db("applications").where("organization_id", organizationId);
}

/** Query (not run) of the domains of `organizationId` (quotas). */
export function domainsOfOrganization(db: Knex | Knex.Transaction, organizationId: string): Knex.QueryBuilder {
  return db("domains").where("organization_id", organizationId);
}
provideQuotaCounter("applications", applicationsOfOrganization);
provideQuotaCounter("domains", domainsOfOrganization);

/** Query (not run) of the domain with host `host` in any organization (hosts are unique platform-wide). */
export function domainWithHost(db: Knex | Knex.Transaction, host: string): Knex.QueryBuilder {
  return db("domains").where("host", host).select(1);
}
