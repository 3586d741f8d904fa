/**
 * Creating, changing and deleting an organization's projects from GraphQL (spec Role table: owners and admins manage
 * projects; members cannot create, change or delete them). The writes themselves are the shared ones of
 * src/modules/projects/project.service.ts (also used by site imports).
 */
import { z } from "zod";
import { assertCan } from "../../auth/access/policy.ts";
import { NotFoundError } from "../../shared/errors.ts";
import { nameText, optional } from "../../shared/input-fields.ts";
import { withTransaction } from "../../shared/transaction.ts";
import { parseInput } from "../../shared/validate.ts";
import { organizationAccess } from "../access/index.ts";
import type { Context } from "../context.ts";
import type { Project } from "./project.model.ts";
import {
  createProjectWithProduction,
  deleteProject as deleteProjectRow,
  updateProject as updateProjectRow,
} from "./project.service.ts";

/** A project's name: 1 to 100 characters, trimmed, NFC, no control or invisible characters. */
const projectName = nameText(100);

/** A project's description as given: at most 1000 characters, trimmed ("" when empty or only whitespace). */
const descriptionText = z.string().trim().max(1000, "At most 1000 characters");

const createInput = z.object({
  organizationId: z.string().nullish(),
  name: projectName,
  // Empty or only whitespace: no description.
  description: descriptionText.nullish().transform((d) => d || null),
});

const updateInput = z.object({
  name: optional(projectName),
  // Omitted or null: unchanged (undefined); empty or only whitespace: cleared ("").
  description: optional(descriptionText),
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
    description: input.description,
  });
  return project;
}

/**
 * `updateProject`: renames project `id` or changes its description (`raw`: omitted or null fields unchanged; an empty
 * or whitespace-only description clears it). Members are refused as by `deleteProject`. Emits `project.updated` when
 * something changed.
 * @throws NotFoundError (unknown, another organization's, not granted, or deleted meanwhile), ForbiddenError
 * (members), BadUserInputError, ConflictError (the organization has a project of the new name).
 */
export async function updateProject(ctx: Context, id: string, raw: z.input<typeof updateInput>): Promise<Project> {
  const project = await ctx.loaders.projects.byId.load(id);
  const access = project ? await ctx.scope.forOrg(project.organizationId) : null;
  if (!project || !access) throw new NotFoundError("Project", id);
  assertCan(access, "project:update");
  const input = parseInput(updateInput, raw);
  // A project deleted meanwhile is found gone inside the transaction, so that it rolls back and the audit entry
  // says refused.
  return withTransaction(ctx, async (tx) => {
    const updated = await updateProjectRow(tx, id, {
      name: input.name,
      description: input.description === "" ? null : input.description,
    });
    if (!updated) throw new NotFoundError("Project", id);
    return updated;
  });
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
