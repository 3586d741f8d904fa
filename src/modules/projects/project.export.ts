/**
 * The organization export's read of projects and environments (docs/organization-transfer.md): configuration only,
 * ordered by name so that two exports of the same organization are equal.
 */
import type { ServiceContext } from "../context.ts";

/** A project as the organization bundle carries it, with its environments (ids: for the exporter to link rows). */
export interface ExportedProject {
  id: string;
  name: string;
  description: string | null;
  environments: Array<{ id: string; name: string }>;
}

/** Every project of `organizationId` with its environments, by name. The caller checks access (owners only). */
export async function exportProjects(ctx: ServiceContext, organizationId: string): Promise<ExportedProject[]> {
  const projects = await ctx
    .knex("projects")
    .where({ organization_id: organizationId })
    .orderBy("name")
    .select("id", "name", "description");
  const environments = await ctx
    .knex("environments")
    .whereIn(
      "project_id",
      projects.map((p: { id: string }) => p.id),
    )
    .orderBy("name")
    .select("id", "project_id", "name");
  return projects.map((p: { id: string; name: string; description: string | null }) => ({
    id: p.id,
    name: p.name,
    description: p.description ?? null,
    environments: environments
      .filter((e: { projectId: string }) => e.projectId === p.id)
      .map((e: { id: string; name: string }) => ({ id: e.id, name: e.name })),
  }));
}
