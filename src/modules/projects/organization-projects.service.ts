/**
 * Creating and deleting an organization's projects from GraphQL (spec Role table: owners and admins manage
 * projects; members cannot create or delete them). The writes themselves are the shared ones of
 * src/modules/projects/project.service.ts (also used by site imports).
 */
import { z } from "zod";
import { assertCan } from "../../auth/access/policy.ts";
import { NotFoundError } from "../../shared/errors.ts";
import { nameText } from "../../shared/input-fields.ts";
import { withTransaction } from "../../shared/transaction.ts";
import { parseInput } from "../../shared/validate.ts";
import { organizationAccess } from "../access/index.ts";
import type { Context } from "../context.ts";
import { createProjectWithProduction, deleteProject as deleteProjectRow } from "./project.service.ts";

const createInput = z.object({
  organizationId: z.string().nullish(),
  name: nameText(100),
  description: z.string().trim().max(1000, "At most 1000 characters").nullish(),
});

/**
 * `createProject`: a project with its `production` environment.
 * @throws NotFoundError (organization), ForbiddenError (members; plan quota), BadUserInputError, ConflictError.
 */
export async function createProject(ctx: Context, raw: z.input<typeof createInput>) {
  const access = await organizationAccess(ctx.scope, { organizationId: raw.organizationId || null });
  assertCan(access, "project:create");
  const input = parseInput(createInput, raw);
  const { project } = await createProjectWithProduction(ctx, {
    organizationId: access.organizationId,
    name: input.name,
    description: input.description ?? null,
  });
  return project;
}

/**
 * `deleteProject`: the project and everything in it. @returns the id.
 * @throws NotFoundError (unknown, another organization's, or not granted), ForbiddenError (members).
 */
export async function deleteProject(ctx: Context, id: string): Promise<string> {
  const project = await ctx.loaders.projects.byId.load(id);
  const access = project ? await ctx.scope.forOrg(project.organizationId) : null;
  if (!project || !access) throw new NotFoundError("Project", id);
  assertCan(access, "project:delete");
  // Of concurrent deletes of one project, the one whose statement removed the row answers; the others find it gone,
  // inside their transaction, so that it rolls back and their audit entry says refused rather than ok.
  return withTransaction(ctx, async (tx) => {
    if (!(await deleteProjectRow(tx, id))) throw new NotFoundError("Project", id);
    return id;
  });
}
