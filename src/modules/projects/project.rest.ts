/**
 * The project procedure on the internal procedure surface, beside the management procedures of
 * src/modules/applications/manage.rest.ts and answering as they do (docs/rest.md, Management procedures):
 * `POST /api/project.update` with `{ projectId, name?, description? }` executes `updateProject` in-process — same
 * roles, validation, event and errors as /graphql. Unpublished (SKIFF_PUBLIC_API_ONLY=true hides it). Credentials:
 * a session cookie or an account API key (agent tokens: 401); the body's `projectId` names the organization, so the
 * row reaches what the mutation reaches over GraphQL: a session every organization it belongs to, an API key its own.
 *
 * Success: 200 `{ result: { data } }` (`data`: the project). Error: 400 (BAD_USER_INPUT with `fieldErrors` naming
 * the body's field: an unknown field, a field of the wrong JSON type, or the service's rules), 401, 403 (a member),
 * 404 (an id that names nothing, another organization's or not granted), 409 (name taken), 500 — with
 * `{ error: { message, code, fieldErrors?, formErrors?, errorId? } }`.
 */
import { z } from "zod";
import { requiredOr } from "../../shared/input-fields.ts";
import { procedureRoute } from "../../shared/procedure-route.ts";
import type { RestRoute } from "../../shared/rest-route.ts";

/** `String` (an `ID` too: any string, the empty one included, which answers 404 as in GraphQL). */
const str = z.string(requiredOr("a string"));

/** `POST /api/project.update`: `updateProject` with the body's `projectId` as its id and the rest as its input. */
export const projectUpdateRoute: RestRoute = procedureRoute({
  name: "project.update",
  input: z.strictObject({ projectId: str, name: str.nullish(), description: str.nullish() }),
  operation: `mutation UpdateProject($id: ID!, $input: UpdateProjectInput!) {
    updateProject(id: $id, input: $input) { id name description createdAt organization { id } } }`,
  variables: ({ projectId, ...input }) => ({ id: projectId, input }),
  field: "updateProject",
});
