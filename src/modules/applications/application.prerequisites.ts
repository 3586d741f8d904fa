/**
 * Prerequisites of an application outside its own input (spec: "Prerequisites outside the request"), checked by
 * site imports and by the management mutations that create an application or change its source.
 */
import type { ServiceContext } from "../context.ts";
import { gitProviderType, registriesOfOrganization, sshKeyOfOrganization } from "../providers/index.ts";
import type { SourceInput } from "./application.input.ts";

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
  source: SourceInput,
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
