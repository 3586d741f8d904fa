/**
 * What the running workload carries decides what the reconcile applies, and every deployment rolls out
 * (docs/deployments.md "Deployers", "Deleting"), against the FAKE Kubernetes API server (test/helpers/kube-api.ts)
 * with a real Skiff and PostgreSQL, every change through GraphQL and every reconcile the job the change enqueued:
 * - a port or health path changed without a deployment leaves the Service on the running port (the Deployment's
 *   `containerPort`); a domain added meanwhile is routed at once, to that port; the deployment moves both;
 * - a variable change or a database password rotation, deployed, changes the Deployment's pod template (new pods),
 *   and the rotation the database StatefulSet's too (its start sets the password) — with no secret in either.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  DEPLOYMENT_ANNOTATION,
  domainObjectName,
  PASSWORD_VERSION_ANNOTATION,
} from "../../src/modules/deployments/deployment.manifests.ts";
import { namespaceOf } from "../../src/shared/tenant-namespace.ts";
import { drainJobs } from "../helpers/jobs.ts";
import type { KubeObject } from "../helpers/kube-api.ts";
import { gql } from "../helpers/server.ts";
import { addDatabase, seededApplication } from "./deploy-helpers.ts";
import { completeRollouts, type KubeSkiff, startKubeSkiff } from "./kube-skiff.ts";

let t: KubeSkiff;
beforeAll(async () => {
  t = await startKubeSkiff("skiff-test", { SKIFF_ROLLOUT_TIMEOUT: "10", SKIFF_RECONCILE_INTERVAL: "0" });
  t.kube.onApply = completeRollouts;
});
afterAll(() => t?.stop());

type App = Awaited<ReturnType<typeof seededApplication>>;

/** Runs a GraphQL operation as `app`'s owner; fails the test on errors. */
async function run<T = Record<string, unknown>>(app: App, query: string, variables: Record<string, unknown>) {
  const res = await gql<T>(t.skiff.url, query, variables, { apiKey: app.owner.apiKey });
  expect(res.errors).toBeUndefined();
  return res.data!;
}

/** Waits for every job (deployments, reconciles) to finish. */
const settled = () => drainJobs(t.db.knex, 60_000, { background: true });

/** Deploys `app` and waits until the deployment, and the reconcile it enqueues, are done. */
async function deploy(app: App) {
  await run(app, `mutation($id: ID!) { deployApplication(applicationId: $id) { id } }`, { id: app.applicationId });
  await settled();
  const last = await t.db
    .knex("deployments")
    .where({ application_id: app.applicationId })
    .orderBy("created_at", "desc")
    .first();
  expect(last.status).toBe("done");
  return last.id as string;
}

type Pod = {
  metadata: { annotations?: Record<string, string> };
  spec: {
    containers: Array<{ ports: Array<{ containerPort: number }>; readinessProbe: { httpGet: { path: string } } }>;
  };
};
const template = (o: KubeObject | undefined) => (o!.spec as { template: Pod }).template;
const ns = (app: App) => namespaceOf(app.organizationId);
const servicePorts = (app: App) =>
  (t.kube.get(ns(app), "Service", app.appName)!.spec as { ports: Array<{ port: number; targetPort: number }> }).ports;
const runningPort = (app: App) =>
  template(t.kube.get(ns(app), "Deployment", app.appName)).spec.containers[0]!.ports[0]!.containerPort;

describe("the reconcile renders Services and routes as the running deployment carries them", () => {
  it("a port changed without a deployment leaves the Service on the running port; a new domain goes there too", async () => {
    const app = await seededApplication(t.db.knex, { port: 8080, health_path: "/healthz" });
    await deploy(app);
    expect(servicePorts(app)).toEqual([{ name: "http", port: 80, targetPort: 8080 }]);

    const applied = t.kube.requests.length;
    await run(app, `mutation($id: ID!) { updateApplication(id: $id, input: { port: 9090 }) { id needsDeployment } }`, {
      id: app.applicationId,
    });
    const host = `${app.appName}.example.test`;
    await run(app, `mutation($a: ID!, $h: String!) { addDomain(input: { applicationId: $a, host: $h }) { id } }`, {
      a: app.applicationId,
      h: host,
    });
    await settled();
    // The reconciles ran: they applied the Service and the new domain's Ingress.
    const patched = t.kube.requests
      .slice(applied)
      .filter((r) => r.method === "PATCH")
      .map((r) => r.path);
    expect(patched.some((u) => u.endsWith(`/services/${app.appName}`))).toBe(true);
    expect(runningPort(app)).toBe(8080);
    expect(servicePorts(app)).toEqual([{ name: "http", port: 80, targetPort: 8080 }]);
    const ingress = t.kube.get(ns(app), "Ingress", domainObjectName(`${app.appName}-${host}`, host))!;
    expect(JSON.stringify(ingress.spec)).toContain(`"service":{"name":"${app.appName}","port":{"number":80}}`);
    // The running probes keep their path too (what the reconcile renders of the Deployment is the running one).
    expect(
      template(t.kube.get(ns(app), "Deployment", app.appName)).spec.containers[0]!.readinessProbe.httpGet.path,
    ).toBe("/healthz");

    await deploy(app);
    expect(runningPort(app)).toBe(9090);
    expect(servicePorts(app)).toEqual([{ name: "http", port: 80, targetPort: 9090 }]);
  });

  it("a failed deployment leaves the Service on the port of the last one done", async () => {
    const app = await seededApplication(t.db.knex, { port: 8080 });
    await deploy(app);
    await run(app, `mutation($id: ID!) { updateApplication(id: $id, input: { port: 9090 }) { id } }`, {
      id: app.applicationId,
    });
    // The next deployment fails before its workload is applied (the API refuses its Deployment).
    t.kube.failApply = { kind: "Deployment", code: 422, message: "refused" };
    try {
      await run(app, `mutation($id: ID!) { deployApplication(applicationId: $id) { id } }`, { id: app.applicationId });
      await settled();
    } finally {
      t.kube.failApply = null;
    }
    const last = await t.db
      .knex("deployments")
      .where({ application_id: app.applicationId })
      .orderBy("created_at", "desc")
      .first();
    expect(last.status).toBe("error");
    expect(runningPort(app)).toBe(8080);
    expect(servicePorts(app)).toEqual([{ name: "http", port: 80, targetPort: 8080 }]);

    // One whose rollout times out has applied its Deployment: the Service stays with it, as the deployment left it.
    t.kube.onApply = (o) =>
      o.kind === "Deployment"
        ? { observedGeneration: o.metadata.generation, replicas: 1, availableReplicas: 0 }
        : undefined;
    try {
      await run(app, `mutation($id: ID!) { deployApplication(applicationId: $id) { id } }`, { id: app.applicationId });
      await settled();
      await run(app, `mutation($id: ID!) { updateApplication(id: $id, input: { healthPath: "/up" }) { id } }`, {
        id: app.applicationId,
      });
      await settled();
    } finally {
      t.kube.onApply = completeRollouts;
    }
    const timedOut = await t.db
      .knex("deployments")
      .where({ application_id: app.applicationId })
      .orderBy("created_at", "desc")
      .first();
    expect(timedOut.errorMessage).toMatch(/timed out/);
    expect(runningPort(app)).toBe(9090);
    expect(servicePorts(app)).toEqual([{ name: "http", port: 80, targetPort: 9090 }]);
  }, 60_000);
});

describe("every deployment rolls out", () => {
  it("a deployed variable change and a deployed password rotation change the pod templates, with no secret in them", async () => {
    const app = await seededApplication(t.db.knex);
    await addDatabase(t.db.knex, app);
    const first = await deploy(app);
    const deployment = () => t.kube.get(ns(app), "Deployment", app.appName)!;
    const database = () => t.kube.get(ns(app), "StatefulSet", `${app.appName}-db`)!;
    expect(template(deployment()).metadata.annotations).toEqual({ [DEPLOYMENT_ANNOTATION]: first });
    const generation = deployment().metadata.generation!;
    const version = template(database()).metadata.annotations![PASSWORD_VERSION_ANNOTATION];
    expect(version).toMatch(/^[0-9a-f]{16}$/);

    await run(
      app,
      `mutation($a: ID!) { setEnvironmentVariable(applicationId: $a, key: "FEATURE", value: "on", deploy: true) { id } }`,
      { a: app.applicationId },
    );
    await settled();
    const second = (
      await t.db.knex("deployments").where({ application_id: app.applicationId }).orderBy("created_at", "desc").first()
    ).id;
    expect(second).not.toBe(first);
    expect(t.kube.get(ns(app), "Secret", `${app.appName}-env`)!.stringData).toMatchObject({ FEATURE: "on" });
    expect(template(deployment()).metadata.annotations).toEqual({ [DEPLOYMENT_ANNOTATION]: second });
    expect(deployment().metadata.generation).toBeGreaterThan(generation);
    // The database is not restarted by a deployment that does not change its password.
    expect(template(database()).metadata.annotations![PASSWORD_VERSION_ANNOTATION]).toBe(version);

    const databaseId = (await t.db.knex("databases").where({ environment_id: app.environmentId }).first()).id;
    const password = "rotated-Pa55word-4f1c9e";
    await run(
      app,
      `mutation($id: ID!, $p: String) { rotateDatabasePassword(id: $id, password: $p) { database { id } } }`,
      {
        id: databaseId,
        p: password,
      },
    );
    const third = await deploy(app);
    expect(template(deployment()).metadata.annotations).toEqual({ [DEPLOYMENT_ANNOTATION]: third });
    const rotated = template(database()).metadata.annotations![PASSWORD_VERSION_ANNOTATION];
    expect(rotated).toMatch(/^[0-9a-f]{16}$/);
    expect(rotated).not.toBe(version);
    expect(t.kube.get(ns(app), "Secret", `${app.appName}-db-password`)!.stringData).toEqual({ password });
    for (const o of [deployment(), database()]) expect(JSON.stringify(o)).not.toContain(password);
  });
});
