/**
 * The project procedures on the internal procedure surface, beside the management procedures of
 * src/modules/applications/manage.rest.ts and answering as they do (docs/rest.md, Management procedures), each
 * executing its mutation in-process — same roles, validation, quotas, events and errors as /graphql:
 * - `POST /api/project.create` `{ organizationId?, name, description? }` → `createProject` (no `organizationId`: the
 *   organization the request acts on);
 * - `POST /api/project.update` `{ projectId, name?, description? }` → `updateProject`;
 * - `POST /api/project.delete` `{ projectId }` → `deleteProject` (everything in the project goes with it; the
 *   cluster follows).
 * Unpublished (SKIFF_PUBLIC_API_ONLY=true hides them). Credentials: a session cookie or an account API key (agent
 * tokens: 401); the body's ids name the organization, so a row reaches what the mutation reaches over GraphQL: a
 * session every organization it belongs to, an API key its own.
 *
 * Success: 200 `{ result: { data } }` (`data`: the project; for a deletion its id). Error: 400 (BAD_USER_INPUT with
 * `fieldErrors` naming the body's field: an unknown field, a field of the wrong JSON type, or the service's rules),
 * 401, 403 (a member; a plan's project quota), 404 (an id that names nothing, another organization's or not
 * granted), 409 (name taken), 500 — with `{ error: { message, code, fieldErrors?, formErrors?, errorId? } }`.
 */
import { z } from "zod";
import { requiredOr } from "../../shared/input-fields.ts";
import { procedureRoute } from "../../shared/procedure-route.ts";
import type { RestRoute } from "../../shared/rest-route.ts";

/** `String` (an `ID` too: any string, the empty one included, which answers 404 as in GraphQL). */
const str = z.string(requiredOr("a string"));

/** The project fields a procedure answers. */
const PROJECT = "id name description createdAt organization { id }";

/** `POST /api/project.create`: `createProject` with the body as its input. */
const projectCreateRoute: RestRoute = procedureRoute({
  name: "project.create",
  input: z.strictObject({ organizationId: str.nullish(), name: str, description: str.nullish() }),
  operation: `mutation CreateProject($input: CreateProjectInput!) { createProject(input: $input) { ${PROJECT} } }`,
  variables: (input) => ({ input }),
  field: "createProject",
});

/** `POST /api/project.delete`: `deleteProject` of the body's `projectId`. */
const projectDeleteRoute: RestRoute = procedureRoute({
  name: "project.delete",
  input: z.strictObject({ projectId: str }),
  operation: "mutation DeleteProject($id: ID!) { deleteProject(id: $id) }",
  variables: ({ projectId }) => ({ id: projectId }),
  field: "deleteProject",
});

/** `POST /api/project.update`: `updateProject` with the body's `projectId` as its id and the rest as its input. */
const projectUpdateRoute: RestRoute = procedureRoute({
  name: "project.update",
  input: z.strictObject({ projectId: str, name: str.nullish(), description: str.nullish() }),
  operation: `mutation UpdateProject($id: ID!, $input: UpdateProjectInput!) {
    updateProject(id: $id, input: $input) { ${PROJECT} } }`,
  variables: ({ projectId, ...input }) => ({ id: projectId, input }),
  field: "updateProject",
});

/** The project procedures, in registration order. */
export const projectRoutes: readonly RestRoute[] = [projectCreateRoute, projectUpdateRoute, projectDeleteRoute];
