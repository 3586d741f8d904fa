/**
 * The deployment procedures on the internal procedure surface, beside the management procedures of
 * src/modules/applications/manage.rest.ts and answering as they do (docs/rest.md, Management procedures), each
 * executing its mutation in-process — same roles, queueing, events and errors as /graphql:
 * - `POST /api/application.deploy` `{ applicationId, title? }` → `deployApplication` (queued; owners, admins and
 *   members who see the application);
 * - `POST /api/deployment.cancel` `{ deploymentId }` → `cancelDeployment`.
 * Unpublished (SKIFF_PUBLIC_API_ONLY=true hides them). Success: 200 `{ result: { data } }` (`data`: the deployment);
 * errors as every procedure's (src/shared/procedure-error.ts).
 */
import { z } from "zod";
import { requiredOr } from "../../shared/input-fields.ts";
import { procedureRoute } from "../../shared/procedure-route.ts";
import type { RestRoute } from "../../shared/rest-route.ts";

/** `String` (an `ID` too: any string, the empty one included, which answers 404 as in GraphQL). */
const str = z.string(requiredOr("a string"));

/** The deployment fields a procedure answers. */
const DEPLOYMENT = "id status title trigger createdAt application { id }";

/** The deployment procedures, in registration order. */
export const deploymentRoutes: readonly RestRoute[] = [
  procedureRoute({
    name: "application.deploy",
    input: z.strictObject({ applicationId: str, title: str.nullish() }),
    operation: `mutation DeployApplication($applicationId: ID!, $title: String) {
      deployApplication(applicationId: $applicationId, title: $title) { ${DEPLOYMENT} } }`,
    variables: (input) => input,
    field: "deployApplication",
  }),
  procedureRoute({
    name: "deployment.cancel",
    input: z.strictObject({ deploymentId: str }),
    operation: `mutation CancelDeployment($id: ID!) { cancelDeployment(id: $id) { ${DEPLOYMENT} } }`,
    variables: ({ deploymentId }) => ({ id: deploymentId }),
    field: "cancelDeployment",
  }),
];
