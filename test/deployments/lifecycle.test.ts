/**
 * The deployment lifecycle (spec "States and transitions"), dry-run deployer, real PostgreSQL and the real job runner:
 * an import's queued deployment runs to `done` with manifests that validate against the Kubernetes schemas;
 * manual deploys by members; supersede, cancel and redeploy (checked with an API-only instance, then a worker
 * instance on the same database runs what is left); the application status follows; the agent API shows the
 * lifecycle; deploy.started and deploy.succeeded reach a loopback HTTPS receiver, signed.
 */
import { describe, expect, it } from "vitest";
import { WEBHOOK_EVENTS, webhookEvent } from "../../src/shared/events/catalogue.ts";
import { agentGet } from "../agent/agent-client.ts";
import { createTestDatabase } from "../helpers/db.ts";
import { startHttpsReceiver } from "../helpers/https-receiver.ts";
import { drainJobs } from "../helpers/jobs.ts";
import { addMember, createAgentTokenFor } from "../helpers/seed.ts";
import { gql, startTestServer, useTestServer } from "../helpers/server.ts";
import { importReadyOrg, rest } from "../site-imports/import-helpers.ts";
import { insertWebhook, receiverAccepts } from "../webhooks/webhook-helpers.ts";
import { addDomain, addVariable, deploymentsOf, seededApplication } from "./deploy-helpers.ts";
import { validateManifests } from "./k8s-validate.ts";

const t = useTestServer({ SKIFF_OUTBOUND_ALLOW: "127.0.0.1" });

const DEPLOY = `mutation($id: ID!, $title: String) { deployApplication(applicationId: $id, title: $title) { id status title trigger } }`;
const READ = `query($id: ID!) { application(id: $id) { applicationStatus deployments(first: 10) {
  id status title trigger startedAt finishedAt errorMessage manifests logs { at level text } } } }`;

interface ReadData {
  application: {
    applicationStatus: string;
    deployments: Array<{
      id: string;
      status: string;
      trigger: string;
      startedAt: string | null;
      finishedAt: string | null;
      errorMessage: string | null;
      manifests: Array<{
        apiVersion: string;
        kind: string;
        metadata: { name: string; annotations?: Record<string, string> };
      }> | null;
      logs: Array<{ level: string; text: string }>;
    }>;
  };
}

describe("deployment lifecycle (dry-run)", () => {
  it("runs an import's queued deployment to done, with valid manifests, logs and the agent API showing it", async () => {
    const org = await importReadyOrg(t.db.knex);
    const imported = await rest<{ applicationId: string; status: string }>(
      t.skiff.url,
      "POST",
      "/api/site-import",
      { apiKey: org.owner.apiKey },
      {
        organizationId: org.organizationId,
        name: "Lifecycle Shop",
        source: { type: "docker", dockerImage: "nginx:1.27" },
        database: { type: "postgres", name: "shop", user: "shop_user", password: "s3cret-pass" },
        domain: "shop-lifecycle.example.test",
      },
    );
    expect(imported.status).toBe(200);
    await drainJobs(t.db.knex);

    const read = await gql<ReadData>(
      t.skiff.url,
      READ,
      { id: imported.body.applicationId },
      { apiKey: org.owner.apiKey },
    );
    expect(read.errors).toBeUndefined();
    const app = read.data!.application;
    expect(app.applicationStatus).toBe("running");
    const [d] = app.deployments;
    expect(d).toMatchObject({ status: "done", trigger: "import", errorMessage: null });
    expect(new Date(d!.startedAt!).getTime()).toBeLessThanOrEqual(new Date(d!.finishedAt!).getTime());
    expect(d!.logs.map((l) => l.text)).toContain("dry run: nothing applied");
    const kinds = d!.manifests!.map((m) => m.kind).sort();
    expect(kinds).toEqual(["Deployment", "Ingress", "Secret", "Secret", "Service", "Service", "StatefulSet"]);
    validateManifests(d!.manifests!);
    const ingress = d!.manifests!.find((m) => m.kind === "Ingress")!;
    expect(ingress.metadata.annotations?.["cert-manager.io/cluster-issuer"]).toBeTruthy();
    // The database Service is named so that DB_HOST (<name>.<cluster domain>) resolves.
    const vars = await t.db
      .knex("databases")
      .where({
        environment_id: (await t.db.knex("applications").where({ id: imported.body.applicationId }).first())
          .environmentId,
      })
      .first();
    const dbService = d!.manifests!.find(
      (m) => m.kind === "Service" && m.metadata.name === vars.serviceHost.split(".")[0],
    );
    expect(dbService).toBeDefined();

    // The agent API shows the lifecycle.
    const token = await createAgentTokenFor(t.db.knex, org.organizationId, org.owner);
    const agent = await agentGet<Array<{ status: string; startedAt: string; finishedAt: string }>>(
      t.skiff.url,
      `/api/agent/deployments?applicationId=${imported.body.applicationId}`,
      token,
    );
    expect(agent.status).toBe(200);
    expect(agent.body[0]).toMatchObject({ status: "done" });
    expect(agent.body[0]!.startedAt).toBeTruthy();
    expect(agent.body[0]!.finishedAt).toBeTruthy();
  });

  it("lets owners, admins and members deploy; another organization's application is NOT_FOUND", async () => {
    const seeded = await seededApplication(t.db.knex);
    await addDomain(t.db.knex, seeded.organizationId, seeded.applicationId, `plain-${Date.now()}.example.test`, false);
    await addVariable(t.db.knex, seeded.applicationId, "API_KEY", "value with spaces");
    const member = await addMember(t.db.knex, seeded.organizationId, "member");
    const deployed = await gql<{ deployApplication: { id: string; status: string; title: string; trigger: string } }>(
      t.skiff.url,
      DEPLOY,
      { id: seeded.applicationId },
      { apiKey: member.apiKey },
    );
    expect(deployed.errors).toBeUndefined();
    // The answer reads the deployment after the commit, and this file's server runs a worker: on a busy machine the
    // dry-run deployment can already be running or done by then (the queued state alone: the next test, no worker).
    expect(deployed.data!.deployApplication).toMatchObject({ title: "Manual deployment", trigger: "manual" });
    expect(["queued", "running", "done"]).toContain(deployed.data!.deployApplication.status);
    await drainJobs(t.db.knex);
    const read = await gql<ReadData>(t.skiff.url, READ, { id: seeded.applicationId }, { apiKey: member.apiKey });
    const d = read.data!.application.deployments[0]!;
    expect(d.status).toBe("done");
    validateManifests(d.manifests!);
    const ingress = d.manifests!.find((m) => m.kind === "Ingress")!;
    expect(ingress.metadata.annotations).toBeUndefined(); // http only: no certificate
    expect(d.manifests!.find((m) => m.kind === "Job")).toBeUndefined(); // docker image: no build

    const other = await seededApplication(t.db.knex);
    const foreign = await gql(t.skiff.url, DEPLOY, { id: other.applicationId }, { apiKey: member.apiKey });
    expect(foreign.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
    // A title is one line of at most 200 characters; nothing is queued for a refused one.
    for (const title of ["x".repeat(201), "two\nlines"]) {
      const refused = await gql(t.skiff.url, DEPLOY, { id: seeded.applicationId, title }, { apiKey: member.apiKey });
      expect(refused.errors?.[0]?.extensions?.code, JSON.stringify(title).slice(0, 20)).toBe("BAD_USER_INPUT");
    }
    expect(
      await t.db.knex("deployments").where({ application_id: seeded.applicationId }).count("* as n").first(),
    ).toEqual({ n: 1 });
  });

  it("supersedes older queued deployments, cancels queued ones, redeploys; a worker then runs only the live one", async () => {
    // A database of its own: the file's server (with a worker) must not pick these jobs up.
    const db = await createTestDatabase();
    const seeded = await seededApplication(db.knex);
    const api = await startTestServer(db.url, { SKIFF_WORKER: "false" });
    let worker: Awaited<ReturnType<typeof startTestServer>> | undefined;
    try {
      const as = { apiKey: seeded.owner.apiKey };
      const first = await gql<{ deployApplication: { id: string } }>(
        api.url,
        DEPLOY,
        { id: seeded.applicationId, title: "one" },
        as,
      );
      const second = await gql<{ deployApplication: { id: string } }>(
        api.url,
        DEPLOY,
        { id: seeded.applicationId, title: "two" },
        as,
      );
      let rows = await deploymentsOf(db.knex, seeded.applicationId);
      expect(rows.map((r) => [r.title, r.status])).toEqual([
        ["one", "cancelled"],
        ["two", "queued"],
      ]);
      expect(rows[0].errorMessage).toMatch(/superseded/);

      const cancelled = await gql<{ cancelDeployment: { status: string } }>(
        api.url,
        `mutation($id: ID!) { cancelDeployment(id: $id) { status } }`,
        { id: second.data!.deployApplication.id },
        as,
      );
      expect(cancelled.data!.cancelDeployment.status).toBe("cancelled");
      const again = await gql(
        api.url,
        `mutation($id: ID!) { cancelDeployment(id: $id) { status } }`,
        { id: first.data!.deployApplication.id },
        as,
      );
      expect(again.errors?.[0]?.extensions?.code).toBe("CONFLICT");

      const redeploy = await gql<{ redeployDeployment: { id: string; status: string; trigger: string } }>(
        api.url,
        `mutation($id: ID!) { redeployDeployment(id: $id) { id status trigger } }`,
        { id: first.data!.deployApplication.id },
        as,
      );
      expect(redeploy.data!.redeployDeployment).toMatchObject({ status: "queued", trigger: "redeploy" });

      worker = await startTestServer(db.url);
      await drainJobs(db.knex);
      rows = await deploymentsOf(db.knex, seeded.applicationId);
      expect(rows.map((r) => r.status)).toEqual(["cancelled", "cancelled", "done"]);
      expect(rows[0].startedAt).toBeNull();
    } finally {
      await worker?.stop();
      await api.stop();
      await db.drop();
    }
  });

  it("sends deploy.started and deploy.succeeded, signed, to a loopback HTTPS endpoint", async () => {
    const receiver = await startHttpsReceiver();
    try {
      const seeded = await seededApplication(t.db.knex);
      const hook = await insertWebhook(t.db.knex, seeded.organizationId, `${receiver.url}/deploys`, [
        "deploy.started",
        "deploy.succeeded",
        "deploy.failed",
      ]);
      const deployed = await gql<{ deployApplication: { id: string } }>(
        t.skiff.url,
        DEPLOY,
        { id: seeded.applicationId, title: "Ship it" },
        { apiKey: seeded.owner.apiKey },
      );
      const requests = await receiver.waitForRequests(2, 15_000);
      const events = requests.map((r) => JSON.parse(r.body.toString()));
      expect(events.map((e) => e.event).sort()).toEqual(["deploy.started", "deploy.succeeded"]);
      for (const [i, r] of requests.entries()) {
        const sig =
          r.headers["x-webhook-signature"] ??
          r.headers["x-signature"] ??
          Object.entries(r.headers).find(([k]) => k.includes("signature"))?.[1];
        expect(receiverAccepts(hook.secret, r.body, sig as string)).toBe(true);
        const parsed = webhookEvent(events[i].event)!.data.safeParse(events[i].data);
        expect(parsed.success).toBe(true);
        expect(events[i].data).toMatchObject({
          deployment: { deployment_id: deployed.data!.deployApplication.id, title: "Ship it", trigger: "manual" },
          application: { application_id: seeded.applicationId, project_id: seeded.projectId },
        });
      }
      const succeeded = events.find((e) => e.event === "deploy.succeeded");
      expect(succeeded.data.deployment).toMatchObject({ status: "done" });
      expect(succeeded.data.deployment.finished_at).toBeTruthy();
    } finally {
      await receiver.close();
    }
  });

  it("sends nothing for what the site import API does (spec doc 1, Events), then the next deployment's events", async () => {
    const receiver = await startHttpsReceiver();
    try {
      const org = await importReadyOrg(t.db.knex);
      const everyEvent = WEBHOOK_EVENTS.map((e) => e.name);
      await insertWebhook(t.db.knex, org.organizationId, `${receiver.url}/all`, everyEvent);
      const request = (name: string) => ({
        organizationId: org.organizationId,
        name,
        source: { type: "docker", dockerImage: "nginx:1.27" },
        database: { type: "postgres", name: "quiet", user: "quiet_user", password: "s3cret-pass" },
        domain: `${name.toLowerCase()}.example.test`,
      });
      const kept = await rest<{ importId: string; applicationId: string }>(
        t.skiff.url,
        "POST",
        "/api/site-import",
        { apiKey: org.owner.apiKey },
        request("Quiet"),
      );
      const rolledBack = await rest<{ importId: string }>(
        t.skiff.url,
        "POST",
        "/api/site-import",
        { apiKey: org.owner.apiKey },
        request("Gone"),
      );
      expect([kept.status, rolledBack.status]).toEqual([200, 200]);
      await drainJobs(t.db.knex); // the imports' deployments run to done
      const deleted = await rest(
        t.skiff.url,
        "POST",
        "/api/siteImport.delete",
        { apiKey: org.owner.apiKey },
        { siteImportId: rolledBack.body.importId, rollbackResources: true },
      );
      expect(deleted.status).toBe(200);
      await drainJobs(t.db.knex);
      // What the import created is not the import: its next deployment is announced as usual.
      await gql(
        t.skiff.url,
        DEPLOY,
        { id: kept.body.applicationId, title: "After import" },
        { apiKey: org.owner.apiKey },
      );
      const requests = await receiver.waitForRequests(2, 15_000);
      await drainJobs(t.db.knex);
      const sent = await t.db.knex("webhook_deliveries").where({ organization_id: org.organizationId }).select("body");
      const bodies = sent.map((d: { body: string }) => JSON.parse(d.body));
      expect(bodies.map((b) => b.event).sort()).toEqual(["deploy.started", "deploy.succeeded"]);
      expect(bodies.every((b) => b.data.deployment.trigger === "manual")).toBe(true);
      expect(requests.map((r) => JSON.parse(r.body.toString()).event).sort()).toEqual([
        "deploy.started",
        "deploy.succeeded",
      ]);
    } finally {
      await receiver.close();
    }
  });
});
