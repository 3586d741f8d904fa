/**
 * Prerequisites of an application outside its own input (spec: "Prerequisites outside the request"), checked by
 * site imports and by the management mutations that create an application or change its source.
 */
import { BadUserInputError } from "../../shared/errors.ts";
import type { ServiceContext } from "../context.ts";
import { gitProviderType, registriesOfOrganization, sshKeyOfOrganization } from "../providers/index.ts";
import type { SourceInput } from "./application.input.ts";

const PROVIDER_LABEL = { github: "GitHub", gitlab: "GitLab" } as const;

/** A prerequisite that is not met: its message and the input field it concerns (absent: the organization's setup). */
interface PrerequisiteProblem {
  field?: string;
  message: string;
}

/**
 * Prerequisites of the application step (spec: "Prerequisites outside the request"): the git provider named
 * by `source.githubId` / `source.gitlabId` exists in the organization and is of that kind; the SSH key named
 * by `source.customGitSSHKeyId` is stored in the organization; a container registry is configured for the
 * organization or as the platform default (SKIFF_DEFAULT_REGISTRY_URL). One SQL statement.
 */
async function prerequisiteProblems(
  ctx: ServiceContext,
  organizationId: string,
  source: SourceInput,
): Promise<PrerequisiteProblem[]> {
  const { knex: db } = ctx;
  const problems: PrerequisiteProblem[] = [];
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
      problems.push({
        field,
        message: `${PROVIDER_LABEL[providerKind]} provider ${providerId} is not configured in this organization (${field})`,
      });
    } else if (facts.providerType !== providerKind) {
      const actual = PROVIDER_LABEL[facts.providerType as keyof typeof PROVIDER_LABEL] ?? facts.providerType;
      problems.push({
        field,
        message: `Git provider ${providerId} is a ${actual} provider; ${field} needs a ${PROVIDER_LABEL[providerKind]} provider`,
      });
    }
  }
  if (source.customGitSSHKeyId && !facts.sshKey) {
    const field = "source.customGitSSHKeyId";
    problems.push({
      field,
      message: `SSH key ${source.customGitSSHKeyId} is not stored in this organization (${field})`,
    });
  }
  if (!facts.registry && !ctx.services.config.SKIFF_DEFAULT_REGISTRY_URL) {
    problems.push({
      message:
        "No container registry: add one to the organization (mutation createContainerRegistry) or set SKIFF_DEFAULT_REGISTRY_URL",
    });
  }
  return problems;
}

/**
 * The application step's prerequisites as a site import reports them ({@link prerequisiteProblems}).
 * @returns problem messages, each naming its field, empty when all are met.
 */
export async function checkApplicationPrerequisites(
  ctx: ServiceContext,
  organizationId: string,
  source: SourceInput,
): Promise<string[]> {
  return (await prerequisiteProblems(ctx, organizationId, source)).map((p) => p.message);
}

/**
 * The prerequisites of `source` for the management mutations (createApplication, updateApplication's new source;
 * {@link prerequisiteProblems}).
 * @throws BadUserInputError with each problem under its field in `fieldErrors` (`source.githubId`,
 *   `source.gitlabId`, `source.customGitSSHKeyId`) and a missing container registry in `formErrors`.
 */
export async function ensureApplicationPrerequisites(
  ctx: ServiceContext,
  organizationId: string,
  source: SourceInput,
): Promise<void> {
  const problems = await prerequisiteProblems(ctx, organizationId, source);
  if (!problems.length) return;
  const fieldErrors: Record<string, string[]> = {};
  const formErrors: string[] = [];
  for (const { field, message } of problems) {
    if (field) fieldErrors[field] = [...(fieldErrors[field] ?? []), message];
    else formErrors.push(message);
  }
  throw new BadUserInputError(problems.map((p) => p.message).join("; "), { fieldErrors, formErrors });
}
