/**
 * Deleting deletes (docs/deployments.md "Deleting"): the action table — each row an action on the rows, the objects
 * it found in the cluster, the objects the reconcile deleted — against the FAKE Kubernetes API server
 * (test/helpers/kube-api.ts, real HTTPS on loopback; no controllers: the test plays the StatefulSet controller by
 * adding the PersistentVolumeClaim it would create). Every action goes through the real surface (GraphQL, the
 * import REST row), the reconcile runs as the job the change enqueued (or the periodic one), and each row checks
 * exactly which objects went and which stayed. Under the dry-run deployer the reconcile touches nothing.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { newId } from "../../src/db/ids.ts";
import { domainObjectName } from "../../src/modules/deployments/deployment.manifests.ts";
import type { RunningSkiff } from "../../src/server/start.ts";
import { buildNamespaceOf, namespaceOf } from "../../src/shared/tenant-namespace.ts";
import type { TestDatabase } from "../helpers/db.ts";
import { drainJobs } from "../helpers/jobs.ts";
import type { KubeApi, KubeObject } from "../helpers/kube-api.ts";
import { addMember, createOrg, createProjects } from "../helpers/seed.ts";
import { gql, startTestServer } from "../helpers/server.ts";
import { failInsertsWhen, importReadyOrg, rest } from "../site-imports/import-helpers.ts";
import { addDatabase, addDomain, addVariable, seededApplication } from "./deploy-helpers.ts";
import { completeRollouts, type KubeSkiff, startKubeSkiff } from "./kube-skiff.ts";

const NAMESPACE = "skiff-test";

let t: KubeSkiff;
let db: TestDatabase;
let skiff: RunningSkiff;
let kube: KubeApi;
beforeAll(async () => {
  t = await startKubeSkiff(NAMESPACE, {
    SKIFF_ROLLOUT_TIMEOUT: "10",
    // Only the reconciles a test enqueues run (the periodic one is enqueued by hand in its row).
    SKIFF_RECONCILE_INTERVAL: "0",
  });
  ({ db, skiff, kube } = t);
  kube.onApply = completeRollouts;
});
afterAll(() => t?.stop());
beforeEach(() => {
  kube.failApply = null;
});

type Owner = { owner: { apiKey: string } };

/** Runs a GraphQL operation as `who`'s owner; fails the test on errors. */
async function run<T = Record<string, unknown>>(who: Owner, query: string, variables: Record<string, unknown>) {
  const res = await gql<T>(skiff.url, query, variables, { apiKey: who.owner.apiKey });
  expect(res.errors).toBeUndefined();
  return res.data!;
}

/** Deploys application `applicationId` and waits until the deployment and every job it caused are done. */
async function deployed(who: Owner, applicationId: string) {
  const { deployApplication } = await run<{ deployApplication: { id: string } }>(
    who,
    `mutation($id: ID!) { deployApplication(applicationId: $id) { id } }`,
    { id: applicationId },
  );
  await drainJobs(db.knex, 45_000);
  const row = await db.knex("deployments").where({ id: deployApplication.id }).first();
  expect(row.status).toBe("done");
}

/** Kinds of the objects that isolate an organization's namespaces (tenant.manifests.ts). */
const TENANT_KINDS = new Set(["Namespace", "RoleBinding", "NetworkPolicy", "ResourceQuota", "LimitRange"]);

/**
 * `Kind/name` of every object of organization `organizationId`'s namespace (its applications' and databases', not
 * the tenant objects), sorted. Checks on the way that no object labelled with the organization is anywhere but in
 * its two namespaces, and that its namespace holds nothing of another organization.
 */
function objectsOf(organizationId: string): string[] {
  const ns = namespaceOf(organizationId);
  const own = [ns, buildNamespaceOf(organizationId)];
  const org = (o: KubeObject) => (o.metadata.labels as Record<string, string> | undefined)?.["skiff.dev/organization"];
  for (const o of kube.objects()) {
    if (org(o) === organizationId && o.kind !== "Namespace") expect(own).toContain(o.metadata.namespace);
    if (own.includes(o.metadata.namespace)) expect(org(o)).toBe(organizationId);
  }
  return kube
    .objects()
    .filter((o) => o.metadata.namespace === ns && !TENANT_KINDS.has(o.kind))
    .map((o) => `${o.kind}/${o.metadata.name}`)
    .sort();
}

/** Runs `action` and waits for the reconcile it enqueued; @returns `Kind/name` of the objects deleted meanwhile. */
async function deletedBy(action: () => Promise<unknown>): Promise<string[]> {
  const from = kube.deleted.length;
  await action();
  // The serial background queue also holds the periodic jobs' ticks: on a loaded 2-core machine it takes a while.
  await drainJobs(db.knex, 120_000, { background: true });
  return kube.deleted
    .slice(from)
    .map((k) => k.split("/").slice(1).join("/"))
    .sort();
}

/** Plays the StatefulSet controller: the volume of database StatefulSet `namespace/name`, with the template's labels. */
function addVolumeOf(namespace: string, name: string) {
  const sts = kube.get(namespace, "StatefulSet", name)!;
  const template = (sts.spec as { volumeClaimTemplates: Array<{ metadata: { labels: Record<string, string> } }> })
    .volumeClaimTemplates[0]!;
  kube.put({
    apiVersion: "v1",
    kind: "PersistentVolumeClaim",
    metadata: { name: `data-${name}-0`, namespace, labels: template.metadata.labels },
    spec: { accessModes: ["ReadWriteOnce"] },
  });
}

/** A deployed docker application with a variable, a domain and a postgres database (and its volume). */
async function deployedApplication() {
  const app = await seededApplication(db.knex);
  await addVariable(db.knex, app.applicationId, "API_KEY", "k-1");
  await addDomain(db.knex, app.organizationId, app.applicationId, `${app.appName}.example.test`);
  await addDatabase(db.knex, app);
  await deployed(app, app.applicationId);
  addVolumeOf(namespaceOf(app.organizationId), `${app.appName}-db`);
  const database = await db.knex("databases").where({ environment_id: app.environmentId }).first();
  return { ...app, databaseId: database.id as string, host: `${app.appName}.example.test` };
}

/** Name of the Ingress of a {@link deployedApplication}'s domain `<appName>.example.test`. */
const routeOf = (appName: string) => domainObjectName(`${appName}-${appName}.example.test`, `${appName}.example.test`);

/** `Kind/name` of the objects of a {@link deployedApplication} (the database's included). */
function allObjects(appName: string) {
  const route = routeOf(appName);
  return [
    `Deployment/${appName}`,
    `Ingress/${route}`,
    `PersistentVolumeClaim/data-${appName}-db-0`,
    `Secret/${appName}-db-password`,
    `Secret/${appName}-env`,
    `Service/${appName}`,
    `Service/${appName}-db`,
    `StatefulSet/${appName}-db`,
  ].sort();
}

/** The objects of the application itself (not its database's). */
const appObjects = (appName: string) => [
  `Deployment/${appName}`,
  `Ingress/${routeOf(appName)}`,
  `Secret/${appName}-env`,
  `Service/${appName}`,
];
/** The objects of the database of a {@link deployedApplication}. */
const databaseObjects = (appName: string) => [
  `PersistentVolumeClaim/data-${appName}-db-0`,
  `Secret/${appName}-db-password`,
  `Service/${appName}-db`,
  `StatefulSet/${appName}-db`,
];

describe("the action table: action → objects created → objects deleted", () => {
  it("application delete: its Deployment, Service, route and variables Secret go; its environment's database stays", async () => {
    const app = await deployedApplication();
    expect(objectsOf(app.organizationId)).toEqual(allObjects(app.appName));
    const deleted = await deletedBy(() =>
      run(app, `mutation($id: ID!) { deleteApplication(id: $id) }`, { id: app.applicationId }),
    );
    expect(deleted).toEqual(appObjects(app.appName).sort());
    expect(objectsOf(app.organizationId)).toEqual(databaseObjects(app.appName).sort());
  });

  it("database delete: its StatefulSet, Service, password Secret and volume go; the application stays", async () => {
    const app = await deployedApplication();
    const deleted = await deletedBy(() =>
      run(app, `mutation($id: ID!) { deleteDatabase(id: $id) { id } }`, { id: app.databaseId }),
    );
    expect(deleted).toEqual(databaseObjects(app.appName).sort());
    expect(objectsOf(app.organizationId)).toEqual(appObjects(app.appName).sort());
  });

  it("domain remove: its Ingress goes, nothing else", async () => {
    const app = await deployedApplication();
    const deleted = await deletedBy(() =>
      run(app, `mutation($a: ID!, $h: String!) { removeDomain(applicationId: $a, host: $h) { id } }`, {
        a: app.applicationId,
        h: app.host,
      }),
    );
    expect(deleted).toEqual([`Ingress/${routeOf(app.appName)}`]);
    expect(objectsOf(app.organizationId)).toHaveLength(allObjects(app.appName).length - 1);
  });

  it("a domain and a database removed while a deployment runs: deleted again once it ends, though it applied them", async () => {
    const app = await deployedApplication();
    const route = `Ingress/${routeOf(app.appName)}`;
    // The deployment renders (domain and database included), then waits 4 s on its first Secret.
    kube.faults.push({
      method: "PATCH",
      kind: "Secret",
      name: `${app.appName}-env`,
      times: 1,
      status: 503,
      retryAfter: 4,
    });
    const from = kube.deleted.length;
    const { deployApplication } = await run<{ deployApplication: { id: string } }>(
      app,
      `mutation($id: ID!) { deployApplication(applicationId: $id) { id } }`,
      { id: app.applicationId },
    );
    await expect.poll(() => kube.faults.length, { timeout: 20_000 }).toBe(0);
    await run(app, `mutation($a: ID!, $h: String!) { removeDomain(applicationId: $a, host: $h) { id } }`, {
      a: app.applicationId,
      h: app.host,
    });
    await run(app, `mutation($id: ID!) { deleteDatabase(id: $id) { id } }`, { id: app.databaseId });
    // The removals' reconcile ran while the deployment waited.
    const gone = () => kube.deleted.slice(from).map((k) => k.split("/").slice(1).join("/"));
    await expect.poll(gone, { timeout: 20_000 }).toContain(route);
    await drainJobs(db.knex, 60_000, { background: true });
    expect((await db.knex("deployments").where({ id: deployApplication.id }).first()).status).toBe("done");
    // It applied its render again, and the reconcile it ended with deleted what no row calls for.
    expect(
      kube.requests.filter((r) => r.method === "PATCH" && r.path.endsWith(`/${routeOf(app.appName)}`)).length,
    ).toBeGreaterThan(1);
    expect(objectsOf(app.organizationId)).toEqual(appObjects(app.appName).filter((o) => o !== route));
  });

  it("variable change: nothing is deleted; the deployment it queues applies the Secret without the variable", async () => {
    const app = await deployedApplication();
    const deleted = await deletedBy(() =>
      run(
        app,
        `mutation($a: ID!) { unsetEnvironmentVariable(applicationId: $a, key: "API_KEY", deploy: true) { id } }`,
        {
          a: app.applicationId,
        },
      ),
    );
    expect(deleted).toEqual([]);
    expect(kube.get(namespaceOf(app.organizationId), "Secret", `${app.appName}-env`)!.stringData).toEqual({});
    expect(objectsOf(app.organizationId)).toEqual(allObjects(app.appName));
  });

  it("environment delete: objects left in the cluster under that environment go", async () => {
    const org = await createOrg(db.knex);
    const [projectId] = await createProjects(db.knex, org.organizationId, 1, {
      environments: 2,
      applicationsPerEnvironment: 1,
    });
    const staging = await db.knex("environments").where({ project_id: projectId, name: "env-1" }).first();
    const app = await db.knex("applications").where({ environment_id: staging.id }).first();
    await deployed(org, app.id);
    const left = objectsOf(org.organizationId);
    expect(left).toEqual([`Deployment/${app.appName}`, `Secret/${app.appName}-env`, `Service/${app.appName}`]);
    // The application's row goes without its event (as a crash would lose it): its objects are left behind.
    await db.knex("applications").where({ id: app.id }).delete();
    const deleted = await deletedBy(() =>
      run(org, `mutation($id: ID!) { deleteEnvironment(id: $id) }`, { id: staging.id }),
    );
    expect(deleted).toEqual(left);
    expect(objectsOf(org.organizationId)).toEqual([]);
  });

  it("project delete: everything of the project goes (cascade), the database's volume included", async () => {
    const app = await deployedApplication();
    const deleted = await deletedBy(() =>
      run(app, `mutation($id: ID!) { deleteProject(id: $id) }`, { id: app.projectId }),
    );
    expect(deleted).toEqual(allObjects(app.appName));
    expect(objectsOf(app.organizationId)).toEqual([]);
  });

  it("organization delete: the periodic reconcile deletes every object of an organization without rows", async () => {
    const app = await deployedApplication();
    const other = await deployedApplication();
    // No API deletes an organization: its rows go by SQL (an operator's cleanup), with no event at all.
    await db.knex("projects").where({ organization_id: app.organizationId }).delete();
    await db.knex("organizations").where({ id: app.organizationId }).delete();
    const deleted = await deletedBy(() =>
      skiff.services.jobs.enqueue(skiff.services.knex, "deployments.reconcile-all", {}),
    );
    // Its two Namespaces go, and the cluster removes what they held.
    expect(deleted).toEqual(
      [`Namespace/${namespaceOf(app.organizationId)}`, `Namespace/${buildNamespaceOf(app.organizationId)}`].sort(),
    );
    expect(objectsOf(app.organizationId)).toEqual([]);
    expect(kube.namespaces()).not.toContain(namespaceOf(app.organizationId));
    expect(objectsOf(other.organizationId)).toEqual(allObjects(other.appName));
    const metrics = await (await fetch(skiff.metricsUrl)).text();
    expect(metrics).toMatch(/skiff_reconcile_deleted_objects_total\{kind="Namespace",trigger="periodic"\} [1-9]/);
  }, 150_000);

  it("import rollback: deleting an import with rollbackResources deletes what it deployed", async () => {
    const org = await importReadyOrg(db.knex);
    const name = `site-${Date.now().toString(36)}`;
    const imported = await rest<{ status: string; projectId: string; applicationId: string }>(
      skiff.url,
      "POST",
      "/api/site-import",
      { apiKey: org.owner.apiKey },
      { organizationId: org.organizationId, name, source: { type: "docker", dockerImage: "nginx:1.27" } },
    );
    expect(imported.body.status).toBe("success");
    await drainJobs(db.knex, 45_000);
    const created = objectsOf(org.organizationId);
    expect(created.filter((o) => o.startsWith("Deployment/"))).toHaveLength(1);
    const importId = (imported.body as unknown as { importId: string }).importId;
    const deleted = await deletedBy(() =>
      run(org, `mutation($id: ID!) { deleteSiteImport(id: $id, rollbackResources: true) { id } }`, { id: importId }),
    );
    expect(deleted).toEqual(created);
    expect(objectsOf(org.organizationId)).toEqual([]);
  });

  it("retry cleanup: the project a failed import left is deleted before the retry, its objects with it", async () => {
    const org = await importReadyOrg(db.knex);
    await failInsertsWhen(db.knex, "deployments", "title", "fail-at-deploy");
    const first = await rest<{ status: string; importId: string; applicationId: string }>(
      skiff.url,
      "POST",
      "/api/site-import",
      { apiKey: org.owner.apiKey },
      {
        organizationId: org.organizationId,
        name: `fail-at-deploy-${Date.now().toString(36)}`,
        source: { type: "docker", dockerImage: "nginx:1.27" },
      },
    );
    expect(first.body.status).toBe("partial");
    await db.knex.raw("drop trigger test_fail_deployments on deployments");
    // The application the failed import left was deployed by hand meanwhile.
    await deployed(org, first.body.applicationId);
    const left = objectsOf(org.organizationId);
    expect(left.filter((o) => o.startsWith("Deployment/"))).toHaveLength(1);
    const deleted = await deletedBy(() =>
      run(org, `mutation($id: ID!) { retrySiteImport(id: $id) { status } }`, { id: first.body.importId }),
    );
    expect(deleted).toEqual(left);
    // The retry's own application is deployed under its new name.
    const now = objectsOf(org.organizationId);
    expect(now.filter((o) => o.startsWith("Deployment/"))).toHaveLength(1);
    expect(now.some((o) => left.includes(o))).toBe(false);
  });
});

describe("what the reconcile does not delete", () => {
  it("an application's objects stay while its rows call for them (a reconcile of an unchanged organization deletes nothing)", async () => {
    const app = await deployedApplication();
    const deleted = await deletedBy(() =>
      skiff.services.jobs.enqueue(skiff.services.knex, "deployments.reconcile", {
        organizationId: app.organizationId,
        trigger: "change",
      }),
    );
    expect(deleted).toEqual([]);
    expect(objectsOf(app.organizationId)).toEqual(allObjects(app.appName));
  });
});

describe("what the reconcile creates again", () => {
  it("a workload and its Secrets deleted by hand come back at the next reconcile, with the rows' values", async () => {
    const app = await deployedApplication();
    const ns = namespaceOf(app.organizationId);
    const before = kube.get(ns, "Deployment", app.appName)!;
    const gone = [
      ["Deployment", app.appName],
      ["Secret", `${app.appName}-env`],
      ["StatefulSet", `${app.appName}-db`],
      ["Secret", `${app.appName}-db-password`],
    ] as const;
    for (const [kind, name] of gone) kube.drop(ns, kind, name);
    expect(objectsOf(app.organizationId)).not.toContain(`Deployment/${app.appName}`);
    const deleted = await deletedBy(() =>
      skiff.services.jobs.enqueue(skiff.services.knex, "deployments.reconcile", {
        organizationId: app.organizationId,
        trigger: "periodic",
      }),
    );
    expect(deleted).toEqual([]);
    expect(objectsOf(app.organizationId)).toEqual(allObjects(app.appName));
    // The same deployment's pod template (no new rollout), the variable as its row holds it.
    const restored = kube.get(ns, "Deployment", app.appName)!;
    expect(JSON.stringify((restored.spec as { template: unknown }).template)).toBe(
      JSON.stringify((before.spec as { template: unknown }).template),
    );
    const env = kube.get(ns, "Secret", `${app.appName}-env`)! as {
      stringData?: Record<string, string>;
      data?: Record<string, string>;
    };
    const value = env.stringData?.API_KEY ?? Buffer.from(env.data?.API_KEY ?? "", "base64").toString();
    expect(value).toBe("k-1");
  });

  it("a database created after the deployment gets its workload from the next deployment, not from the reconcile", async () => {
    const app = await deployedApplication();
    await db.knex("databases").insert({
      id: newId("database"),
      organization_id: app.organizationId,
      project_id: app.projectId,
      environment_id: app.environmentId,
      type: "postgres",
      name: "later",
      username: "later_user",
      password_encrypted: skiff.services.secrets.encrypt("later-pass"),
      service_host: `${app.appName}-later.svc.cluster.local`,
    });
    const deleted = await deletedBy(() =>
      skiff.services.jobs.enqueue(skiff.services.knex, "deployments.reconcile", {
        organizationId: app.organizationId,
        trigger: "periodic",
      }),
    );
    expect(deleted).toEqual([]);
    // Its Service is the reconcile's, as every Service; no StatefulSet, no password Secret.
    expect(objectsOf(app.organizationId)).toEqual([...allObjects(app.appName), `Service/${app.appName}-later`].sort());
  });

  it("an application whose only deployment failed before its workload ran gets no workload from the reconcile", async () => {
    const app = await seededApplication(db.knex);
    await addVariable(db.knex, app.applicationId, "API_KEY", "k-2");
    kube.failApply = { kind: "Deployment", code: 422, message: "refused" };
    const { deployApplication } = await run<{ deployApplication: { id: string } }>(
      app,
      `mutation($id: ID!) { deployApplication(applicationId: $id) { id } }`,
      { id: app.applicationId },
    );
    await drainJobs(db.knex, 45_000);
    kube.failApply = null;
    expect((await db.knex("deployments").where({ id: deployApplication.id }).first()).status).toBe("error");
    const left = objectsOf(app.organizationId);
    await deletedBy(() =>
      skiff.services.jobs.enqueue(skiff.services.knex, "deployments.reconcile", {
        organizationId: app.organizationId,
        trigger: "periodic",
      }),
    );
    expect(left).not.toContain(`Deployment/${app.appName}`);
    // Its Service is the reconcile's as for any started deployment; no workload, and the Secret as it was.
    const notService = (o: string) => !o.startsWith("Service/");
    expect(objectsOf(app.organizationId).filter(notService)).toEqual(left.filter(notService));
  });
});

describe("what a reconcile reports", () => {
  /** `Organization.clusterSync` of `organizationId` as read with `apiKey`. */
  async function clusterSync(organizationId: string, apiKey: string) {
    const res = await gql<{ organization: { clusterSync: Record<string, unknown> | null } }>(
      skiff.url,
      "query($id: ID!) { organization(id: $id) { clusterSync { status checkedAt syncedAt failingSince failures } } }",
      { id: organizationId },
      { apiKey },
    );
    expect(res.errors).toBeUndefined();
    return res.data!.organization.clusterSync;
  }

  it("Organization.clusterSync: FAILING naming the object the cluster refuses, since its first failure; SYNCED again after; null for members", async () => {
    const app = await deployedApplication();
    const { reconcileOrganization } = await import("../../src/modules/deployments/reconcile.ts");
    const reconcile = () => reconcileOrganization(skiff.services, skiff.services.log, app.organizationId, "change");
    await reconcile();
    const synced = await clusterSync(app.organizationId, app.owner.apiKey);
    expect(synced).toMatchObject({ status: "SYNCED", failingSince: null, failures: [] });
    expect(synced!.syncedAt).toBe(synced!.checkedAt);

    kube.failApply = { kind: "Ingress", code: 422, message: "host already claimed" };
    await expect(reconcile()).rejects.toThrow(/host already claimed/);
    const failing = await clusterSync(app.organizationId, app.owner.apiKey);
    expect(failing).toMatchObject({ status: "FAILING", syncedAt: synced!.syncedAt });
    expect(failing!.failingSince).toBe(failing!.checkedAt);
    const failures = failing!.failures as string[];
    expect(failures).toHaveLength(1);
    expect(failures[0]).toContain(routeOf(app.appName));
    expect(failures[0]).toContain("host already claimed");
    // Failing again: still failing since the first failure.
    await expect(reconcile()).rejects.toThrow();
    const still = await clusterSync(app.organizationId, app.owner.apiKey);
    expect(still).toMatchObject({ status: "FAILING", failingSince: failing!.failingSince });
    expect(Date.parse(still!.checkedAt as string)).toBeGreaterThan(Date.parse(failing!.checkedAt as string));

    kube.failApply = null;
    await reconcile();
    const again = await clusterSync(app.organizationId, app.owner.apiKey);
    expect(again).toMatchObject({ status: "SYNCED", failingSince: null, failures: [] });
    expect(Date.parse(again!.syncedAt as string)).toBeGreaterThan(Date.parse(synced!.syncedAt as string));

    // A member reads null (the messages name every application's objects); another organization's owner, nothing.
    const member = await addMember(db.knex, app.organizationId, "member");
    expect(await clusterSync(app.organizationId, member.apiKey)).toBeNull();
    const other = await createOrg(db.knex);
    const hidden = await gql(
      skiff.url,
      "query($id: ID!) { organization(id: $id) { clusterSync { status } } }",
      { id: app.organizationId },
      { apiKey: other.owner.apiKey },
    );
    expect(hidden.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
  });
});

describe("a cluster's message no text column can hold (a NUL)", () => {
  it("fails the reconcile's attempt and a deployment as any refusal: retried, ended, said (U+FFFD for the NUL)", async () => {
    const app = await deployedApplication();
    kube.failApply = { kind: "Ingress", code: 422, message: "refused \u0000 here" };
    const { enqueueReconcile } = await import("../../src/modules/deployments/reconcile.ts");
    await enqueueReconcile(skiff.services, skiff.services.knex, app.organizationId, "change");
    // The attempt failed and was recorded (not left locked): due again later.
    const failed = async () =>
      (
        await db.knex.raw(
          `select attempts, last_error as "lastError", locked_at as "lockedAt" from graphile_worker.jobs
           where key = ?`,
          [`reconcile:${app.organizationId}`],
        )
      ).rows[0] as { attempts: number; lastError: string | null; lockedAt: Date | null } | undefined;
    await expect
      .poll(async () => (await failed())?.lastError ?? null, { timeout: 30_000 })
      .toContain("refused \ufffd here");
    expect((await failed())!.lockedAt).toBeNull();

    // A deployment the cluster refuses so ends `error`, its reason said.
    kube.failApply = { kind: "Deployment", code: 422, message: "no \u0000 way" };
    const { deployApplication } = await run<{ deployApplication: { id: string } }>(
      app,
      `mutation($id: ID!) { deployApplication(applicationId: $id) { id } }`,
      { id: app.applicationId },
    );
    await expect
      .poll(async () => (await db.knex("deployments").where({ id: deployApplication.id }).first()).status, {
        timeout: 30_000,
      })
      .toBe("error");
    const row = await db.knex("deployments").where({ id: deployApplication.id }).first();
    expect(row.errorMessage).toContain("no \ufffd way");
    kube.failApply = null;
    await db.knex.raw("select graphile_worker.remove_job(?)", [`reconcile:${app.organizationId}`]);
  });
});

describe("under the dry-run deployer", () => {
  it("a reconcile touches no cluster", async () => {
    const dry = await startTestServer(db.url, {
      KUBECONFIG: t.kubeconfig,
      SKIFF_WORKER: "false",
    });
    try {
      const app = await deployedApplication();
      const requests = kube.requests.length;
      const { reconcileOrganization } = await import("../../src/modules/deployments/reconcile.ts");
      await db.knex("applications").where({ id: app.applicationId }).delete();
      expect(await reconcileOrganization(dry.services, dry.services.log, app.organizationId, "change")).toBeNull();
      expect(kube.requests.length).toBe(requests);
    } finally {
      await dry.stop();
    }
  });
});
