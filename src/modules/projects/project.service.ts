/**
 * Project writes shared by every surface (GraphQL, REST, imports). Callers own the transaction.
 */
import type { Knex } from "knex";
import { translateUniqueViolations } from "../../shared/constraint-errors.ts";
import { withTransaction } from "../../shared/transaction.ts";
import type { ServiceContext } from "../context.ts";
import { assertQuota, provideQuotaCounter } from "../organizations/index.ts";
import { Environment, Project } from "./project.model.ts";

/** Name of the environment every project starts with. */
export const PRODUCTION_ENVIRONMENT = "production";

/** The message of a project name conflict (unique per organization). */
export function projectNameTakenMessage(name: string): string {
  return `A project named "${name}" already exists in this organization`;
}

/**
 * Creates a project and its `production` environment in one transaction (the caller's when `ctx.knex` is one),
 * after checking the projects quota.
 * @throws ConflictError when the organization already has a project of that name (unique constraint);
 * QuotaExceededError when the plan's projects quota is reached.
 */
export function createProjectWithProduction(
  ctx: ServiceContext,
  input: { organizationId: string; name: string; description?: string | null },
): Promise<{ project: Project; environment: Environment }> {
  return withTransaction(ctx, async ({ knex: trx }) => {
    await assertQuota(trx, input.organizationId, "projects");
    const project = await translateUniqueViolations(
      () =>
        Project.query(trx)
          .insert({
            organizationId: input.organizationId,
            name: input.name,
            description: input.description ?? null,
          })
          .returning("*"),
      { projects_organization_id_name_unique: projectNameTakenMessage(input.name) },
    );
    const environment = await Environment.query(trx)
      .insert({ projectId: project.id, name: PRODUCTION_ENVIRONMENT })
      .returning("*");
    return { project, environment };
  });
}

/** Deletes a project (cascading to environments, applications, databases, domains, variables, deployments). */
export async function deleteProject(ctx: ServiceContext, projectId: string): Promise<boolean> {
  return (await Project.query(ctx.knex).deleteById(projectId)) > 0;
}

/** Query (not run) of the projects of `organizationId`; other modules compose it (quotas, import checks). */
export function projectsOfOrganization(db: Knex | Knex.Transaction, organizationId: string): Knex.QueryBuilder {
  return db("projects").where("organization_id", organizationId);
}
provideQuotaCounter("projects", projectsOfOrganization);

/** Query (not run) of the project named `name` in `organizationId` (names are unique per organization). */
export function projectNamed(db: Knex | Knex.Transaction, organizationId: string, name: string): Knex.QueryBuilder {
  return projectsOfOrganization(db, organizationId).where("name", name).select(1);
}
