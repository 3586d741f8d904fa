/**
 * `updateDeploySettings` and `Application.needsDeployment` against a real server and PostgreSQL: a changed
 * `healthPath` is rendered (the Deployment's probes request it), so it marks the deployed application as needing a
 * deployment, as `updateApplication(healthPath)` does; the push filters (`autoDeploy`, `branchFilter`,
 * `watchPaths`, `requireSignature`) render nothing and leave it alone, and so does setting the path it already has.
 */
import { describe, expect, it } from "vitest";
import { gql, useTestServer } from "../helpers/server.ts";
import { seededApplication } from "./deploy-helpers.ts";

const t = useTestServer({ SKIFF_WORKER: "false" });

const DEPLOY = `mutation($id: ID!) { deployApplication(applicationId: $id) { id } }`;
const UPDATE = `mutation($id: ID!, $input: DeploySettingsInput!) {
  updateDeploySettings(applicationId: $id, input: $input) { healthPath } }`;
const READ = `query($id: ID!) { application(id: $id) { needsDeployment } }`;

describe("updateDeploySettings and needsDeployment", () => {
  it("a changed healthPath sets needsDeployment; the push filters and an unchanged path do not", async () => {
    const app = await seededApplication(t.db.knex);
    const owner = { apiKey: app.owner.apiKey };
    const run = async (query: string, variables: Record<string, unknown>) => {
      const res = await gql(t.skiff.url, query, variables, owner);
      expect(res.errors).toBeUndefined();
      return res.data;
    };
    const needsDeployment = async () =>
      ((await run(READ, { id: app.applicationId })) as { application: { needsDeployment: boolean } }).application
        .needsDeployment;
    const settings = (input: Record<string, unknown>) => run(UPDATE, { id: app.applicationId, input });

    await run(DEPLOY, { id: app.applicationId });
    expect(await needsDeployment()).toBe(false);

    await settings({ autoDeploy: true, branchFilter: "release/*", watchPaths: ["src/**"], requireSignature: true });
    expect(await needsDeployment()).toBe(false);
    await settings({ healthPath: "/" });
    expect(await needsDeployment()).toBe(false);

    await settings({ healthPath: "/hz" });
    expect(await needsDeployment()).toBe(true);

    await run(DEPLOY, { id: app.applicationId });
    expect(await needsDeployment()).toBe(false);
    await settings({ healthPath: "/hz", autoDeploy: false });
    expect(await needsDeployment()).toBe(false);
  });
});
