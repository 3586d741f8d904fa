/**
 * The `kubernetes` deployer (SKIFF_DEPLOYER=kubernetes) against a FAKE Kubernetes API server: there is no cluster
 * on the test machine, so test/helpers/kube-api.ts implements the slice of the API the deployer uses (discovery,
 * server-side apply PATCH, GET) over real HTTPS on loopback, reached through a real kubeconfig file (test CA,
 * bearer token, namespace). The real cluster path — controllers, admission, field ownership — is NOT exercised
 * here or in CI. The fake stores what is applied and lets each test play the controllers by setting Deployment
 * and Job status. Checked: every request is an apply (`application/apply-patch+yaml`, fieldManager `skiff`,
 * force) in dependency order and every applied object validates against the Kubernetes schemas; a completed
 * rollout → `done` + `healthy` (app.health_changed); a rollout that never completes → `error` with the timeout
 * as reason + `unhealthy`; a failed build Job → `error`, nothing after it applied; an API error → `error` with
 * the API's message; a second deploy re-applies the same objects, its pod template naming it (new pods); cancelling stops the wait; an
 * unreachable API server and a refused token are readable errors.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { newId } from "../../src/db/ids.ts";
import { createSecretBox } from "../../src/db/secrets.ts";
import { createKubernetesDeployer } from "../../src/modules/deployments/deployer.kubernetes.ts";
import { REDACTED, renderManifests } from "../../src/modules/deployments/deployment.manifests.ts";
import type { RunningSkiff } from "../../src/server/start.ts";
import { buildNamespaceOf, namespaceOf } from "../../src/shared/tenant-namespace.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { drainJobs } from "../helpers/jobs.ts";
import { type KubeApi, type KubeObject, startKubeApi } from "../helpers/kube-api.ts";
import { TEST_SECRET } from "../helpers/seed.ts";
import { gql, startTestServer } from "../helpers/server.ts";
import { insertWebhook } from "../webhooks/webhook-helpers.ts";
import { addDatabase, addDomain, addVariable, seededApplication } from "./deploy-helpers.ts";
import { validateManifests } from "./k8s-validate.ts";

const NAMESPACE = "skiff-test";
const ROLLOUT_TIMEOUT = 4;

let db: TestDatabase;
let skiff: RunningSkiff;
let kube: KubeApi;
let dir: string;
beforeAll(async () => {
  kube = await startKubeApi();
  dir = mkdtempSync(join(tmpdir(), "skiff-kubeconfig-"));
  kube.writeKubeconfig(join(dir, "kubeconfig"), NAMESPACE);
  db = await createTestDatabase();
  skiff = await startTestServer(db.url, {
    SKIFF_DEPLOYER: "kubernetes",
    KUBECONFIG: join(dir, "kubeconfig"),
    SKIFF_ROLLOUT_TIMEOUT: String(ROLLOUT_TIMEOUT),
    SKIFF_BUILD_TIMEOUT: "20",
  });
});
afterAll(async () => {
  await skiff?.stop();
  await db?.drop();
  await kube?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => {
  kube.onApply = () => undefined;
  kube.failApply = null;
});

/** A controller that completes every rollout and build at once. */
function completeEverything(object: KubeObject): Record<string, unknown> | undefined {
  if (object.kind === "Deployment") {
    const g = object.metadata.generation;
    return { observedGeneration: g, replicas: 1, updatedReplicas: 1, readyReplicas: 1, availableReplicas: 1 };
  }
  if (object.kind === "Job") return { succeeded: 1 };
  return undefined;
}

/** Starts a manual deployment as the owner; @returns its id. */
async function deploy(app: { applicationId: string; owner: { apiKey: string } }): Promise<string> {
  const res = await gql<{ deployApplication: { id: string } }>(
    skiff.url,
    `mutation($id: ID!) { deployApplication(applicationId: $id) { id } }`,
    { id: app.applicationId },
    { apiKey: app.owner.apiKey },
  );
  expect(res.errors).toBeUndefined();
  return res.data!.deployApplication.id;
}

/** Polls until deployment `id` satisfies `until` (default: it ended); @returns the row and its log texts. */
async function waitForDeployment(id: string, until?: (row: Record<string, unknown>, logs: string[]) => boolean) {
  const deadline = Date.now() + 45_000;
  for (;;) {
    const row = await db.knex("deployments").where({ id }).first();
    const logs = (await db
      .knex("deployment_logs")
      .where({ deployment_id: id })
      .orderBy("id")
      .pluck("text")) as string[];
    const done = until ? until(row, logs) : ["done", "error", "cancelled"].includes(row.status);
    if (done) return { row, logs };
    if (Date.now() > deadline) throw new Error(`deployment ${id} still ${row.status}: ${logs.join(" | ")}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Password of the registries {@link addRegistry} adds. */
const REGISTRY_PASSWORD = "registry-pw-7f3a9c";

/** Gives an organization a container registry with credentials (the password stored encrypted, as the API does). */
async function addRegistry(organizationId: string) {
  await db.knex("container_registries").insert({
    id: newId("registry"),
    organization_id: organizationId,
    name: "acme",
    url: "https://registry.example.test/acme",
    username: "robot",
    password_encrypted: createSecretBox(TEST_SECRET).encrypt(REGISTRY_PASSWORD),
  });
}

/** The PATCH requests made since `from`. */
const patchesSince = (from: number) => kube.requests.slice(from).filter((r) => r.method === "PATCH");

/** Kinds of the objects of an organization's namespaces (tenant.manifests.ts), applied before its applications'. */
const TENANT_KINDS = new Set(["Namespace", "RoleBinding", "NetworkPolicy", "ResourceQuota", "LimitRange"]);
/**
 * The tenant objects applied first by every deployment: both namespaces, each with what isolates it (a
 * ResourceQuota too when the plan's quotas are limited).
 */
const TENANT_APPLIES = ["Namespace", "RoleBinding", "NetworkPolicy", "LimitRange"];

/** The PATCH requests since `from` of an application's objects (after the tenant objects, which come first). */
function appPatchesSince(from: number) {
  const patches = patchesSince(from);
  const tenant = patches.findIndex((p) => !TENANT_KINDS.has(p.body!.kind as string));
  const kinds = patches.slice(0, tenant).map((p) => p.body!.kind);
  expect(kinds.filter((k) => k !== "ResourceQuota")).toEqual([...TENANT_APPLIES, ...TENANT_APPLIES]);
  return patches.slice(tenant);
}

/** Kinds a reconcile applies (its tenant objects, then each started application's Services and routes). */
const RECONCILE_KINDS = new Set([...TENANT_KINDS, "Service", "Ingress"]);

/**
 * The first `count` of `patches` (a deployment's own applies). The reconcile each run ends with may already have
 * followed them, depending on how soon its job ran: what comes after may only be that reconcile's applies.
 */
function deploymentsOwn(patches: ReturnType<typeof appPatchesSince>, count: number) {
  const after = patches.slice(count).map((p) => p.body!.kind as string);
  expect(
    after.filter((kind) => !RECONCILE_KINDS.has(kind)),
    `after the deployment's own: ${after}`,
  ).toEqual([]);
  return patches.slice(0, count);
}

/** The application's health as GraphQL shows it. */
async function healthOf(app: { applicationId: string; owner: { apiKey: string } }) {
  const res = await gql<{ application: { health: string; healthCheckedAt: string | null; applicationStatus: string } }>(
    skiff.url,
    `query($id: ID!) { application(id: $id) { health healthCheckedAt applicationStatus } }`,
    { id: app.applicationId },
    { apiKey: app.owner.apiKey },
  );
  expect(res.errors).toBeUndefined();
  return res.data!.application;
}

describe("kubernetes deployer (fake API server)", () => {
  it("applies every object with server-side apply in dependency order; a completed rollout → done + healthy", async () => {
    const app = await seededApplication(db.knex);
    await addDomain(db.knex, app.organizationId, app.applicationId, `${app.appName}.example.test`);
    await addVariable(db.knex, app.applicationId, "API_KEY", "k-123");
    await addDatabase(db.knex, app);
    await insertWebhook(db.knex, app.organizationId, "https://192.0.2.1/hooks", ["app.health_changed"]);
    expect((await healthOf(app)).health).toBe("UNKNOWN");
    kube.onApply = completeEverything;

    const from = kube.requests.length;
    const id = await deploy(app);
    const { row, logs } = await waitForDeployment(id);
    expect(row.status, logs.join("\n")).toBe("done");

    const ns = namespaceOf(app.organizationId);
    // The deployment's own tenant objects come first (the reconcile it ends with may apply them again after).
    const all = patchesSince(from);
    const tenant = all.slice(
      0,
      all.findIndex((p) => !TENANT_KINDS.has(p.body!.kind as string)),
    );
    expect(tenant.filter((p) => p.body!.kind === "Namespace").map((p) => p.path)).toEqual([
      `/api/v1/namespaces/${ns}`,
      `/api/v1/namespaces/${buildNamespaceOf(app.organizationId)}`,
    ]);
    const patches = deploymentsOwn(appPatchesSince(from), 7);
    expect(patches.map((p) => p.body!.kind)).toEqual([
      "Secret",
      "Secret",
      "Service",
      "StatefulSet",
      "Deployment",
      "Service",
      "Ingress",
    ]);
    for (const p of patches) {
      expect(p.contentType).toBe("application/apply-patch+yaml");
      expect(p.query.get("fieldManager")).toBe("skiff");
      expect(p.query.get("force")).toBe("true");
      expect(p.path).toContain(`/namespaces/${ns}/`);
    }
    // The organization's namespace only: nothing in the kubeconfig's namespace.
    expect(kube.objects().filter((o) => o.metadata.namespace === NAMESPACE)).toEqual([]);
    // What was sent and what the fake stored both validate against the Kubernetes schemas.
    validateManifests(patches.map((p) => p.body as never));
    const stored = patches.map((p) => {
      const b = p.body as { kind: string; metadata: { name: string } };
      return kube.get(ns, b.kind, b.metadata.name)!;
    });
    validateManifests(stored);
    expect(kube.get(ns, "Secret", `${app.appName}-env`)!.stringData).toEqual({ API_KEY: "k-123" });
    // The cluster got the values; the deployment stores the same objects without them.
    const kept = row.manifests as Array<{ kind: string; stringData?: Record<string, string> }>;
    expect(kept.filter((m) => m.kind === "Secret").map((m) => m.stringData)).toEqual([
      { API_KEY: REDACTED },
      { password: REDACTED },
    ]);
    expect(JSON.stringify(kept)).not.toContain("k-123");

    expect(logs).toContain(`applied Deployment/${app.appName}`);
    expect(logs).toContain(`rollout of Deployment/${app.appName} complete`);
    const health = await healthOf(app);
    expect(health).toMatchObject({ health: "HEALTHY", applicationStatus: "running" });
    expect(new Date(health.healthCheckedAt!).getTime()).toBeGreaterThan(Date.now() - 60_000);
    const events = await db
      .knex("webhook_deliveries")
      .where({ organization_id: app.organizationId, event: "app.health_changed" });
    expect(events.map((e) => JSON.parse(e.body).data).map((d) => [d.from, d.to])).toEqual([["unknown", "healthy"]]);

    // A second deploy re-applies the same objects: nothing new is stored; the pod template names the deployment, so
    // it rolls out new pods (the Deployment's next generation).
    // (The reconcile each run ends with applies the Services and routes again: after the deployment's own.)
    await drainJobs(db.knex, 30_000, { background: true });
    const count = kube.objects().length;
    const again = kube.requests.length;
    const second = await waitForDeployment(await deploy(app));
    expect(second.row.status, second.logs.join("\n")).toBe("done");
    expect(
      appPatchesSince(again)
        .map((p) => p.body!.kind)
        .slice(0, 7),
    ).toEqual(patches.map((p) => p.body!.kind));
    expect(kube.objects()).toHaveLength(count);
    expect(kube.get(ns, "Deployment", app.appName)!.metadata.generation).toBe(2);
  });

  it("a deployment's requests and its reconcile's share keep-alive connections: a few TLS handshakes, not one each", async () => {
    const app = await seededApplication(db.knex);
    await addDomain(db.knex, app.organizationId, app.applicationId, `${app.appName}.example.test`);
    await addDatabase(db.knex, app);
    kube.onApply = completeEverything;
    await drainJobs(db.knex, 30_000, { background: true });
    const requests = kube.requests.length;
    const connections = kube.connections;

    const { row, logs } = await waitForDeployment(await deploy(app));
    expect(row.status, logs.join("\n")).toBe("done");
    await drainJobs(db.knex, 30_000); // the reconcile the deployment ends with
    expect(kube.requests.length - requests).toBeGreaterThan(20);
    // One client per deployment and per reconcile, each on one connection while its requests follow one another.
    expect(kube.connections - connections).toBeLessThanOrEqual(4);
  });

  it("a rollout that never completes ends error with the timeout as reason, and the application unhealthy", async () => {
    const app = await seededApplication(db.knex);
    await insertWebhook(db.knex, app.organizationId, "https://192.0.2.1/hooks", [
      "app.health_changed",
      "deploy.failed",
    ]);
    kube.onApply = (o) =>
      o.kind === "Deployment"
        ? { observedGeneration: o.metadata.generation, replicas: 1, updatedReplicas: 1, availableReplicas: 0 }
        : undefined;
    const started = Date.now();
    const { row, logs } = await waitForDeployment(await deploy(app));
    expect(row.status).toBe("error");
    expect(row.errorMessage).toBe(
      `rollout of Deployment/${app.appName} timed out after ${ROLLOUT_TIMEOUT} s (0/1 replicas available)`,
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(ROLLOUT_TIMEOUT * 1000);
    expect(logs.at(-1)).toBe(`deployment failed: ${row.errorMessage}`);
    expect(await healthOf(app)).toMatchObject({ health: "UNHEALTHY", applicationStatus: "error" });
    const failed = await db
      .knex("webhook_deliveries")
      .where({ organization_id: app.organizationId, event: "deploy.failed" })
      .first();
    expect(JSON.parse(failed.body).data.error_message).toBe(row.errorMessage);
  });

  it("waits for a git source's build Job: success → the Deployment is applied after it; failure → error", async () => {
    const git = { source_type: "github", source: JSON.stringify({ repo: "acme/shop", branch: "main" }) };
    const ok = await seededApplication(db.knex, { ...git, build_type: "dockerfile" });
    // Without a registry to push to, the deployment applies nothing (the reconcile it ends with applies the
    // Service, as for any application whose deployment started, and nothing else).
    await drainJobs(db.knex, 30_000);
    const before0 = kube.requests.length;
    const noRegistry = await waitForDeployment(await deploy(ok));
    expect(noRegistry.row.status).toBe("error");
    expect(noRegistry.row.errorMessage).toMatch(/^no container registry to push the build to/);
    await drainJobs(db.knex, 30_000);
    const appKinds = patchesSince(before0)
      .filter((p) => p.path.includes(`/namespaces/${namespaceOf(ok.organizationId)}/`))
      .map((p) => p.body!.kind as string)
      .filter((k) => !TENANT_KINDS.has(k));
    expect(appKinds).toEqual(["Service"]);
    await addRegistry(ok.organizationId);
    const ns = namespaceOf(ok.organizationId);
    const builds = buildNamespaceOf(ok.organizationId);

    kube.onApply = (o) => {
      if (o.kind === "Job") {
        // Play the Job controller: a pod whose build container prints BuildKit's plain progress, then success.
        kube.addPod(
          builds,
          `${o.metadata.name}-x7k2p`,
          { "job-name": o.metadata.name },
          {
            build: ["#1 [internal] load git source", "#2 exporting to image", "#2 pushing layers done"],
          },
        );
        setTimeout(() => kube.setStatus(builds, "Job", o.metadata.name, { succeeded: 1 }), 1_200);
        return { active: 1 };
      }
      return completeEverything(o);
    };
    const from = kube.requests.length;
    const built = await waitForDeployment(await deploy(ok));
    expect(built.row.status, built.logs.join("\n")).toBe("done");
    const applied = deploymentsOwn(appPatchesSince(from), 5);
    expect(applied.map((p) => p.body!.kind)).toEqual(["Secret", "Secret", "Job", "Deployment", "Service"]);
    // The build and its registry Secret in the build namespace (Pod Security privileged), the rest in the tenant's.
    expect(applied.map((p) => p.path.split("/namespaces/")[1]!.split("/")[0])).toEqual([ns, builds, builds, ns, ns]);
    const jobName = applied[2]!.body!.metadata as { name: string };
    // The build's output is in the deployment log, in order, before the build's outcome.
    const buildLines = built.logs.filter((l) => l.startsWith("[build] "));
    expect(buildLines).toEqual([
      "[build] #1 [internal] load git source",
      "[build] #2 exporting to image",
      "[build] #2 pushing layers done",
    ]);
    expect(built.logs.indexOf(buildLines[2]!)).toBeLessThan(built.logs.indexOf(`build Job/${jobName.name} succeeded`));
    // Registry credentials reach the cluster as a dockerconfigjson Secret mounted into the build, never the store.
    const registrySecret = kube.get(builds, "Secret", `${jobName.name}-registry`)!;
    expect(registrySecret.type).toBe("kubernetes.io/dockerconfigjson");
    const config = JSON.parse((registrySecret.stringData as Record<string, string>)[".dockerconfigjson"]!);
    expect(Buffer.from(config.auths["registry.example.test"].auth, "base64").toString()).toBe(
      `robot:${REGISTRY_PASSWORD}`,
    );
    expect(JSON.stringify(built.row.manifests)).not.toContain(config.auths["registry.example.test"].auth);
    const jobReads = kube.requests
      .slice(from)
      .filter((r) => r.method === "GET" && r.path.endsWith(`/jobs/${jobName.name}`));
    expect(jobReads.length).toBeGreaterThanOrEqual(2); // polled while active, then saw it succeed
    expect(built.logs).toContain(`build Job/${jobName.name} succeeded`);

    const image = kube.get(ns, "Deployment", ok.appName)!.spec as {
      template: { spec: { containers: Array<{ image: string }> } };
    };
    expect(image.template.spec.containers[0]!.image).toMatch(
      new RegExp(`^registry\\.example\\.test/acme/${ok.appName}:`),
    );

    const bad = await seededApplication(db.knex, { ...git, build_type: "nixpacks" });
    await addRegistry(bad.organizationId);
    kube.onApply = (o) =>
      o.kind === "Job"
        ? {
            failed: 1,
            conditions: [
              {
                type: "Failed",
                status: "True",
                reason: "BackoffLimitExceeded",
                message: "Job has reached the specified backoff limit",
              },
            ],
          }
        : completeEverything(o);
    await drainJobs(db.knex, 30_000);
    const before = kube.requests.length;
    const failed = await waitForDeployment(await deploy(bad));
    expect(failed.row.status).toBe("error");
    expect(failed.row.errorMessage).toMatch(
      new RegExp(`^build Job/${bad.appName}-build-[a-z0-9-]+ failed: Job has reached the specified backoff limit$`),
    );
    // Nothing after the build (the reconcile the run ends with may follow, with no workload: none ran).
    const kinds = appPatchesSince(before).map((p) => p.body!.kind);
    expect(kinds.slice(0, 3)).toEqual(["Secret", "Secret", "Job"]);
    expect(kinds).not.toContain("Deployment");
  });

  it("an API error ends the deployment error with the API's message", async () => {
    const app = await seededApplication(db.knex);
    await addDomain(db.knex, app.organizationId, app.applicationId, `${app.appName}.example.test`);
    kube.onApply = completeEverything;
    kube.failApply = {
      kind: "Ingress",
      code: 422,
      message: 'Ingress.networking.k8s.io "x" is invalid: spec.ingressClassName: Invalid value',
    };
    const { row } = await waitForDeployment(await deploy(app));
    expect(row.status).toBe("error");
    expect(row.errorMessage).toMatch(
      /^applying Ingress\/[a-z0-9-]+ failed: HTTP 422: Ingress\.networking\.k8s\.io "x" is invalid: spec\.ingressClassName: Invalid value$/,
    );
  });

  it("cancelling a running deployment stops the rollout wait", async () => {
    const app = await seededApplication(db.knex);
    kube.onApply = (o) => (o.kind === "Deployment" ? { observedGeneration: 0 } : undefined);
    const id = await deploy(app);
    await waitForDeployment(id, (_row, logs) => logs.some((l) => l.startsWith("waiting for rollout")));
    const res = await gql<{ cancelDeployment: { status: string } }>(
      skiff.url,
      `mutation($id: ID!) { cancelDeployment(id: $id) { status } }`,
      { id },
      { apiKey: app.owner.apiKey },
    );
    expect(res.data?.cancelDeployment.status).toBe("cancelled");
    const { row, logs } = await waitForDeployment(id, (_r, l) => l.some((t) => t.startsWith("deployment cancelled")));
    expect(row.status).toBe("cancelled");
    expect(logs.join("\n")).toContain(`cancelled while waiting for rollout of Deployment/${app.appName}`);
    expect(logs.join("\n")).not.toContain("timed out");
    const status = await db.knex("applications").where({ id: app.applicationId }).first("application_status");
    expect(status.applicationStatus).not.toBe("deploying");
  });

  it("reports an unreachable API server and a refused credential as readable errors", async () => {
    const manifests = renderManifests({
      deploymentId: "dpl_direct",
      application: {
        appName: "direct",
        sourceType: "docker",
        buildType: null,
        port: 80,
        source: { dockerImage: "nginx" },
      },
      domains: [],
      env: {},
      databases: [],
      registry: null,
    });
    const run = {
      deploymentId: "dpl_direct",
      log: async () => {},
      signal: new AbortController().signal,
      reportAvailability: async () => {},
    };
    const options = { SKIFF_ROLLOUT_TIMEOUT: 2, SKIFF_BUILD_TIMEOUT: 2 };

    // A port nobody listens on any more.
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, "127.0.0.1", () => r()));
    const closedPort = (probe.address() as { port: number }).port;
    await new Promise<void>((r) => probe.close(() => r()));
    const kubeconfig = JSON.parse(readFileSync(join(dir, "kubeconfig"), "utf8"));
    kubeconfig.clusters[0].cluster.server = `https://127.0.0.1:${closedPort}`;
    writeFileSync(join(dir, "unreachable"), JSON.stringify(kubeconfig));
    const unreachable = createKubernetesDeployer({ ...options, KUBECONFIG: join(dir, "unreachable") });
    await expect(unreachable.apply(manifests, run)).rejects.toThrow(
      /^applying Secret\/direct-env failed: .*ECONNREFUSED/,
    );

    kubeconfig.clusters[0].cluster.server = kube.url;
    kubeconfig.users[0].user.token = "not-the-token";
    writeFileSync(join(dir, "refused"), JSON.stringify(kubeconfig));
    const refused = createKubernetesDeployer({ ...options, KUBECONFIG: join(dir, "refused") });
    await expect(refused.apply(manifests, run)).rejects.toThrow(
      /^applying Secret\/direct-env failed: HTTP 401: Unauthorized/,
    );
  });
});
