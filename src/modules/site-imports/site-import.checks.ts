/**
 * The checks shared by preview and import (spec: Site import rule 5 — name conflicts, domain availability,
 * source configuration — plus prerequisites and plan quotas). `checkImport` runs them all without writing;
 * an import runs it before creating anything, so a request that previews valid imports successfully when
 * nothing changed in between. Each step then re-checks its own part authoritatively inside its transaction
 * (unique constraints, quota locks, the applications module's `checkApplicationPrerequisites`).
 */
import { checkApplicationPrerequisites, domainTakenMessage, domainWithHost } from "../applications/index.ts";
import type { ServiceContext } from "../context.ts";
import { databaseEnvVars } from "../databases/index.ts";
import { type QuotaKind, quotaMessage, quotaStatus } from "../organizations/index.ts";
import { projectNamed, projectNameTakenMessage } from "../projects/index.ts";
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
