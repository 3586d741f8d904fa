/**
 * Project writes shared by every surface (GraphQL, REST, imports). Callers own the transaction.
 */
import type { Knex } from "knex";
import { translateUniqueViolations } from "../../db/constraint-errors.ts";
import { assertQuota } from "../organizations/quota.ts";
import { Environment, Project } from "./project.model.ts";

/** Name of the environment every project starts with. */
export const PRODUCTION_ENVIRONMENT = "production";

/** The message of a project name conflict (unique per organization). */
export function projectNameTakenMessage(name: string): string {
  return `A project named "${name}" already exists in this organization`;
}

/**
 * Creates a project and its `production` environment inside `trx`, after checking the projects quota.
 * @throws ConflictError when the organization already has a project of that name (unique constraint);
 * QuotaExceededError when the plan's projects quota is reached.
 */
export async function createProjectWithProduction(
  trx: Knex.Transaction,
  input: { organizationId: string; name: string; description?: string | null },
): Promise<{ project: Project; environment: Environment }> {
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
}

/** Deletes a project (cascading to environments, applications, databases, domains, variables, deployments). */
export async function deleteProject(db: Knex | Knex.Transaction, projectId: string): Promise<boolean> {
  return (await Project.query(db).deleteById(projectId)) > 0;
}
