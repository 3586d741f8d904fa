/**
 * Isolation-matrix rows of the deployments module (schema/deployments.graphql): owners, admins and members who
 * see the application deploy, cancel and redeploy (spec role table: members deploy); members without the grant
 * and owners of B get NOT_FOUND; invalid credentials 401. Cancel targets are fresh `queued` rows inserted
 * directly (no job, so they stay queued).
 */
import { newId } from "../../../src/db/ids.ts";
import { createSecretBox } from "../../../src/db/secrets.ts";
import { deployTokenHash, newDeployToken } from "../../../src/modules/deployments/deploy-token.ts";
import { TEST_SECRET } from "../../helpers/seed.ts";
import type { Fixture } from "./fixture.ts";
import type { GraphqlRow, Outcome } from "./graphql-rows.ts";
import type { RestRow } from "./rest-rows.ts";

const box = createSecretBox(TEST_SECRET);

const U = "UNAUTHENTICATED" as const;
const NF = "NOT_FOUND" as const;
const F = "FORBIDDEN" as const;
const ownersAndAdmins: Record<string, Outcome> = {
  owner: "ok",
  admin: "ok",
  granted: F,
  notGranted: NF,
  otherOwner: NF,
  revokedKey: U,
  anonymous: U,
  agentToken: U,
};
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

/** What a deployment procedure answers each persona: those who see application P deploy (200). */
const deployersAnswer = {
  owner: 200,
  admin: 200,
  granted: 200,
  notGranted: 404,
  otherOwner: 404,
  revokedKey: 401,
  anonymous: 401,
  agentToken: 401,
};

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
    field: "Mutation.regenerateDeployToken",
    operation: "mutation($id: ID!) { regenerateDeployToken(applicationId: $id) }",
    variables: (fx) => ({ id: fx.applicationP }),
    target: ["id"],
    expect: ownersAndAdmins as GraphqlRow["expect"],
  },
  {
    field: "Mutation.regenerateDeployWebhookSecret",
    operation: "mutation($id: ID!) { regenerateDeployWebhookSecret(applicationId: $id) }",
    variables: (fx) => ({ id: fx.applicationP }),
    target: ["id"],
    expect: ownersAndAdmins as GraphqlRow["expect"],
  },
  {
    field: "Mutation.updateDeploySettings",
    operation:
      "mutation($id: ID!, $input: DeploySettingsInput!) { updateDeploySettings(applicationId: $id, input: $input) { autoDeploy } }",
    variables: (fx) => ({ id: fx.applicationP, input: { autoDeploy: false } }),
    target: ["id"],
    expect: ownersAndAdmins as GraphqlRow["expect"],
  },
  {
    field: "Subscription.deploymentUpdated",
    operation: "subscription($id: ID!) { deploymentUpdated(applicationId: $id) { deploymentId status } }",
    variables: (fx) => ({ id: fx.applicationP }),
    target: ["id"],
    expect: visibleToGranted as GraphqlRow["expect"],
  },
];

/** A fresh deploy token of application P (the previous one stops working). */
async function freshToken(fx: Fixture): Promise<string> {
  const token = newDeployToken();
  await fx
    .knex("applications")
    .where({ id: fx.applicationP })
    .update({ deploy_token_hash: deployTokenHash(token), deploy_token_encrypted: box.encrypt(token) });
  return token;
}

/**
 * REST rows of the deployments module. The deploy trigger's credential is the token in the path: every persona's
 * session or key is ignored, a valid token answers 202 and a nonexistent one 404 with the same body as any
 * unknown token.
 */
export const deployRestRows: RestRow[] = [
  {
    route: "POST /api/deploy/:token",
    call: async (fx) => ({ url: `/api/deploy/${await freshToken(fx)}` }),
    expect: {
      owner: 202,
      admin: 202,
      granted: 202,
      notGranted: 202,
      otherOwner: 202,
      revokedKey: 202,
      anonymous: 202,
      agentToken: 202,
    },
  },
  // The deployment procedures answer as their mutations: who sees application P deploys and cancels.
  {
    route: "POST /api/application.deploy",
    call: (fx) => ({
      url: "/api/application.deploy",
      body: { applicationId: fx.applicationP },
      target: fx.applicationP,
    }),
    expect: deployersAnswer,
  },
  {
    route: "POST /api/deployment.cancel",
    call: async (fx) => {
      const id = await newDeployment(fx, "queued");
      return { url: "/api/deployment.cancel", body: { deploymentId: id }, target: id };
    },
    expect: deployersAnswer,
  },
];
