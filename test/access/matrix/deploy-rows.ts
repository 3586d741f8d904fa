/**
 * Isolation-matrix rows of the deployments module (schema/deployments.graphql): owners, admins and members who
 * see the application deploy, cancel and redeploy (spec role table: members deploy); members without the grant
 * and owners of B get NOT_FOUND; invalid credentials 401. Cancel targets are fresh `queued` rows inserted
 * directly (no job, so they stay queued).
 */
import { newId } from "../../../src/db/ids.ts";
import type { Fixture } from "./fixture.ts";
import type { GraphqlRow, Outcome } from "./graphql-rows.ts";

const U = "UNAUTHENTICATED" as const;
const NF = "NOT_FOUND" as const;
const visibleToGranted: Record<string, Outcome> = {
  owner: "ok",
  admin: "ok",
  granted: "ok",
  notGranted: NF,
  otherOwner: NF,
  revokedKey: U,
  anonymous: U,
  agentToken: U,
};

/** A fresh deployment of application P in `status` (no job). */
async function newDeployment(fx: Fixture, status: string): Promise<string> {
  const id = newId("deployment");
  await fx.knex("deployments").insert({ id, application_id: fx.applicationP, status, title: "matrix", trigger: "api" });
  return id;
}

/** GraphQL rows of the deployments module. */
export const deployGraphqlRows: GraphqlRow[] = [
  {
    field: "Mutation.deployApplication",
    operation: "mutation($id: ID!) { deployApplication(applicationId: $id) { id status } }",
    variables: (fx) => ({ id: fx.applicationP }),
    target: ["id"],
    expect: visibleToGranted as GraphqlRow["expect"],
  },
  {
    field: "Mutation.cancelDeployment",
    operation: "mutation($id: ID!) { cancelDeployment(id: $id) { id status } }",
    variables: async (fx) => ({ id: await newDeployment(fx, "queued") }),
    target: ["id"],
    expect: visibleToGranted as GraphqlRow["expect"],
  },
  {
    field: "Mutation.redeployDeployment",
    operation: "mutation($id: ID!) { redeployDeployment(id: $id) { id status } }",
    variables: async (fx) => ({ id: await newDeployment(fx, "done") }),
    target: ["id"],
    expect: visibleToGranted as GraphqlRow["expect"],
  },
  {
    field: "Subscription.deploymentUpdated",
    operation: "subscription($id: ID!) { deploymentUpdated(applicationId: $id) { deploymentId status } }",
    variables: (fx) => ({ id: fx.applicationP }),
    target: ["id"],
    expect: visibleToGranted as GraphqlRow["expect"],
  },
];
