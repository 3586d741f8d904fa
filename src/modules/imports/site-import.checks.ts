/**
 * The checks shared by preview and import (spec: Site import rule 5 — name conflicts, domain availability,
 * source configuration — plus prerequisites and plan quotas). `checkImport` runs them all without writing;
 * an import runs it before creating anything, so a request that previews valid imports successfully when
 * nothing changed in between. Each step then re-checks its own part authoritatively inside its transaction
 * (unique constraints, quota locks, {@link checkApplicationPrerequisites}).
 */
import { domainTakenMessage, domainWithHost } from "../applications/index.ts";
import type { ServiceContext } from "../context.ts";
import { databaseEnvVars } from "../databases/index.ts";
import { type QuotaKind, quotaMessage, quotaStatus } from "../organizations/index.ts";
import { projectNamed, projectNameTakenMessage } from "../projects/index.ts";
import { gitProviderType, registriesOfOrganization, sshKeyOfOrganization } from "../providers/index.ts";
import type { ImportStep } from "./site-import.model.ts";
import type { SiteImportRequest } from "./site-import.schema.ts";

/** A blocking problem and the step it belongs to. */
export interface ImportProblem {
  step: ImportStep;
  message: string;
}

/** Outcome of {@link checkImport}: blocking problems (in step order) and non-blocking warnings. */
export interface ImportCheck {
  problems: ImportProblem[];
  warnings: string[];
}

const STEP_ORDER: readonly ImportStep[] = [
  "project_creation",
  "database_creation",
  "application_creation",
  "domain_creation",
  "deployment",
];

const QUOTA_STEP: Record<QuotaKind, ImportStep> = {
  projects: "project_creation",
  databases: "database_creation",
  applications: "application_creation",
  domains: "domain_creation",
};

const PROVIDER_LABEL = { github: "GitHub", gitlab: "GitLab" } as const;

/**
 * Prerequisites of the application step (spec: "Prerequisites outside the request"): the git provider named
 * by `source.githubId` / `source.gitlabId` exists in the organization and is of that kind; the SSH key named
 * by `source.customGitSSHKeyId` is stored in the organization; a container registry is configured for the
 * organization or as the platform default (SKIFF_DEFAULT_REGISTRY_URL). One SQL statement.
 * @returns problem messages, empty when all are met.
 */
export async function checkApplicationPrerequisites(
  ctx: ServiceContext,
  organizationId: string,
  source: SiteImportRequest["source"],
): Promise<string[]> {
  const { knex: db } = ctx;
  const problems: string[] = [];
  const providerKind = source.type === "github" || source.type === "gitlab" ? source.type : null;
  const providerId = providerKind === "github" ? source.githubId : providerKind === "gitlab" ? source.gitlabId : null;
  const facts: { providerType: string | null; sshKey: boolean; registry: boolean } = await db
    .select(
      db.raw("(?) as provider_type", [gitProviderType(db, providerId ?? "", organizationId)]),
      db.raw("exists(?) as ssh_key", [sshKeyOfOrganization(db, source.customGitSSHKeyId ?? "", organizationId)]),
      db.raw("exists(?) as registry", [registriesOfOrganization(db, organizationId)]),
    )
    .first();
  if (providerKind && providerId) {
    const field = `source.${providerKind}Id`;
    if (!facts.providerType) {
      problems.push(
        `${PROVIDER_LABEL[providerKind]} provider ${providerId} is not configured in this organization (${field})`,
      );
    } else if (facts.providerType !== providerKind) {
      const actual = PROVIDER_LABEL[facts.providerType as keyof typeof PROVIDER_LABEL] ?? facts.providerType;
      problems.push(
        `Git provider ${providerId} is a ${actual} provider; ${field} needs a ${PROVIDER_LABEL[providerKind]} provider`,
      );
    }
  }
  if (source.customGitSSHKeyId && !facts.sshKey) {
    problems.push(`SSH key ${source.customGitSSHKeyId} is not stored in this organization (source.customGitSSHKeyId)`);
  }
  if (!facts.registry && !ctx.services.config.SKIFF_DEFAULT_REGISTRY_URL) {
    problems.push(
      "No container registry: add one to the organization (mutation createContainerRegistry) or set SKIFF_DEFAULT_REGISTRY_URL",
    );
  }
  return problems;
}

/** Non-blocking remarks about a valid request. */
function warningsFor(input: SiteImportRequest): string[] {
  const warnings: string[] = [];
  if (input.database) {
    const generated = databaseEnvVars(input.database, "host");
    for (const key of Object.keys(input.envVars)) {
      if (key in generated) warnings.push(`envVars.${key} overrides the generated value`);
    }
  }
  const { source } = input;
  if (source.type === "git") {
    const ssh = !source.customGitUrl?.startsWith("https://");
    if (ssh && !source.customGitSSHKeyId) {
      warnings.push("SSH clone URL without source.customGitSSHKeyId: cloning works only if no key is needed");
    }
    if (!ssh && source.customGitSSHKeyId) {
      warnings.push("source.customGitSSHKeyId is used only with SSH clone URLs; this HTTPS URL is cloned without it");
    }
  }
  if (input.domain) {
    warnings.push(
      `The HTTPS certificate for ${input.domain} is issued asynchronously once its DNS points at the cluster ingress`,
    );
  }
  return warnings;
}

/**
 * Runs every check of an import of `input` into `organizationId` without writing: project name conflict,
 * domain availability (hosts are unique platform-wide), application prerequisites and plan quotas.
 */
export async function checkImport(
  ctx: ServiceContext,
  organizationId: string,
  input: SiteImportRequest,
): Promise<ImportCheck> {
  const { knex: db } = ctx;
  const [quotas, taken, prerequisites] = await Promise.all([
    quotaStatus(db, organizationId),
    db
      .select(
        db.raw("exists(?) as name_taken", [projectNamed(db, organizationId, input.name)]),
        db.raw("exists(?) as host_taken", [domainWithHost(db, input.domain ?? "")]),
      )
      .first() as Promise<{ nameTaken: boolean; hostTaken: boolean }>,
    checkApplicationPrerequisites(ctx, organizationId, input.source),
  ]);
  const { nameTaken, hostTaken } = taken;
  const problems: ImportProblem[] = [];
  if (nameTaken) problems.push({ step: "project_creation", message: projectNameTakenMessage(input.name) });
  if (hostTaken && input.domain) problems.push({ step: "domain_creation", message: domainTakenMessage(input.domain) });
  for (const message of prerequisites) problems.push({ step: "application_creation", message });
  const needed: Record<QuotaKind, boolean> = {
    projects: true,
    applications: true,
    databases: input.database !== undefined,
    domains: input.domain !== undefined,
  };
  for (const kind of Object.keys(needed) as QuotaKind[]) {
    const limit = quotas.limits[kind];
    if (needed[kind] && limit !== null && quotas.usage[kind] + 1 > limit) {
      problems.push({ step: QUOTA_STEP[kind], message: quotaMessage(kind, limit, quotas.plan) });
    }
  }
  problems.sort((a, b) => STEP_ORDER.indexOf(a.step) - STEP_ORDER.indexOf(b.step));
  return { problems, warnings: warningsFor(input) };
}
