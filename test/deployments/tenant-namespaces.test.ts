/**
 * One namespace per organization, end to end (docs/deployments.md "Tenant namespaces"; docs/operations.md
 * "Migrating from skiff-apps"): a real Skiff with the `kubernetes` deployer against the FAKE Kubernetes API server
 * (test/helpers/kube-api.ts, real HTTPS on loopback; no controllers, no admission). Checked: a deployment creates
 * the organization's namespaces with what isolates them and puts every object in them, `DB_HOST` names the
 * organization's namespace; two organizations' objects never share a namespace and no NetworkPolicy of B admits a
 * pod of A; deleting the last resource leaves the namespaces, still isolated; objects an older Skiff left in
 * `skiff-apps` are recreated in the organization's namespace and deleted from `skiff-apps`, a database's only once
 * the operator confirms its data is restored (or its row is gone).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId } from "../../src/db/ids.ts";
import { createSecretBox } from "../../src/db/secrets.ts";
import { domainObjectName } from "../../src/modules/deployments/deployment.manifests.ts";
import { buildNamespaceOf, namespaceOf } from "../../src/shared/tenant-namespace.ts";
import { drainJobs } from "../helpers/jobs.ts";
import type { KubeApi, KubeObject } from "../helpers/kube-api.ts";
import { createPlan, TEST_SECRET } from "../helpers/seed.ts";
import { gql } from "../helpers/server.ts";
import { addDomain, addVariable, seededApplication } from "./deploy-helpers.ts";
import { completeRollouts, type KubeSkiff, startKubeSkiff } from "./kube-skiff.ts";

const LEGACY = "skiff-apps";

let t: KubeSkiff;
let kube: KubeApi;
beforeAll(async () => {
  t = await startKubeSkiff("skiff-test", {
    SKIFF_ROLLOUT_TIMEOUT: "10",
    SKIFF_RECONCILE_INTERVAL: "0",
    SKIFF_TENANT_INGRESS_NAMESPACE: "traefik",
  });
  kube = t.kube;
  kube.onApply = completeRollouts;
});
afterAll(() => t?.stop());

type Owner = { owner: { apiKey: string } };

/** Runs a GraphQL operation as `who`'s owner; fails the test on errors. */
async function run<T = Record<string, unknown>>(who: Owner, query: string, variables: Record<string, unknown>) {
  const res = await gql<T>(t.skiff.url, query, variables, { apiKey: who.owner.apiKey });
  expect(res.errors).toBeUndefined();
  return res.data!;
}

/** Deploys application `applicationId` and waits for it and every job it caused. */
async function deployed(who: Owner, applicationId: string) {
  const { deployApplication } = await run<{ deployApplication: { id: string } }>(
    who,
    `mutation($id: ID!) { deployApplication(applicationId: $id) { id } }`,
    { id: applicationId },
  );
  await drainJobs(t.db.knex, 45_000, { background: true });
  const row = await t.db.knex("deployments").where({ id: deployApplication.id }).first();
  expect(row.status).toBe("done");
}

/** Runs the reconcile of `organizationId` as its job; @returns `namespace/Kind/name` of what it deleted. */
async function reconciled(organizationId: string): Promise<string[]> {
  const from = kube.deleted.length;
  await t.skiff.services.jobs.enqueue(t.skiff.services.knex, "deployments.reconcile", {
    organizationId,
    trigger: "change",
  });
  await drainJobs(t.db.knex, 30_000, { background: true });
  return kube.deleted.slice(from).sort();
}

const labelsOf = (o: KubeObject) => (o.metadata.labels ?? {}) as Record<string, string>;

/** `Kind/name` of the objects in `namespace` labelled with organization `organizationId`, tenant objects aside. */
function objectsIn(namespace: string, organizationId: string): string[] {
  return kube
    .objects()
    .filter((o) => o.metadata.namespace === namespace && labelsOf(o)["skiff.dev/organization"] === organizationId)
    .filter((o) => !["RoleBinding", "NetworkPolicy", "ResourceQuota", "LimitRange"].includes(o.kind))
    .map((o) => `${o.kind}/${o.metadata.name}`)
    .sort();
}

/** An application with a domain and a postgres database created through the API (its variables generated). */
async function applicationWithDatabase() {
  const app = await seededApplication(t.db.knex);
  await addDomain(t.db.knex, app.organizationId, app.applicationId, `${app.appName}.example.test`);
  const { createDatabase } = await run<{ createDatabase: { database: { id: string; serviceHost: string } } }>(
    app,
    `mutation($input: CreateDatabaseInput!) { createDatabase(input: $input) { database { id serviceHost } } }`,
    {
      input: {
        environmentId: app.environmentId,
        type: "postgres",
        name: "shop",
        user: "shop_user",
        applicationIds: [app.applicationId],
      },
    },
  );
  await drainJobs(t.db.knex, 30_000, { background: true });
  return { ...app, database: createDatabase.database };
}

/** The variables Secret of application `appName` in `namespace`, as applied. */
const envOf = (namespace: string, appName: string) =>
  kube.get(namespace, "Secret", `${appName}-env`)!.stringData as Record<string, string>;

describe("one namespace per organization", () => {
  it("a deployment creates the organization's namespaces, isolated, and puts every object in them; DB_HOST names it", async () => {
    const app = await applicationWithDatabase();
    const ns = namespaceOf(app.organizationId);
    expect(app.database.serviceHost).toMatch(new RegExp(`^[a-z0-9-]+-db\\.${ns}\\.svc\\.cluster\\.local$`));
    await deployed(app, app.applicationId);

    expect(kube.namespaces()).toEqual(expect.arrayContaining([ns, buildNamespaceOf(app.organizationId)]));
    expect(labelsOf(kube.get("", "Namespace", ns)!)).toMatchObject({
      "pod-security.kubernetes.io/enforce": "restricted",
      "skiff.dev/organization": app.organizationId,
    });
    const binding = kube.get(ns, "RoleBinding", "skiff-deployer")!;
    expect(binding.roleRef).toMatchObject({ kind: "ClusterRole", name: "skiff-tenant" });
    expect(binding.subjects).toEqual([{ kind: "ServiceAccount", namespace: "skiff", name: "skiff" }]);
    expect(kube.get(ns, "NetworkPolicy", "tenant-isolation")).toBeDefined();
    // Stored as rendered: fields the client library's models rename (`from`, `default`) reach the API server.
    const policy = kube.get(ns, "NetworkPolicy", "tenant-isolation")!.spec as { ingress: Array<{ from?: unknown[] }> };
    expect(policy.ingress.map((r) => r.from?.length)).toEqual([1, 1]);
    const limits = kube.get(ns, "LimitRange", "defaults")!.spec as { limits: Array<{ default?: unknown }> };
    expect(limits.limits[0]!.default).toBeDefined();

    const dbService = app.database.serviceHost.split(".")[0]!;
    expect(objectsIn(ns, app.organizationId)).toEqual(
      [
        `Deployment/${app.appName}`,
        `Ingress/${domainObjectName(`${app.appName}-${app.appName}.example.test`, `${app.appName}.example.test`)}`,
        `Secret/${app.appName}-env`,
        `Secret/${dbService}-password`,
        `Service/${app.appName}`,
        `Service/${dbService}`,
        `StatefulSet/${dbService}`,
      ].sort(),
    );
    // The database's Service is the one DB_HOST names: `<service>.<namespace>.svc.cluster.local`.
    const env = envOf(ns, app.appName);
    expect(env.DB_HOST).toBe(`${dbService}.${ns}.svc.cluster.local`);
    expect(env.DATABASE_URL).toContain(`@${dbService}.${ns}.svc.cluster.local:5432/`);
    // Nothing of the organization anywhere else.
    for (const o of kube.objects()) {
      if (labelsOf(o)["skiff.dev/organization"] === app.organizationId && o.kind !== "Namespace") {
        expect([ns, buildNamespaceOf(app.organizationId)]).toContain(o.metadata.namespace);
      }
    }
  });

  it("isolates tenants: A's objects never in B's namespace; no NetworkPolicy of B admits a pod of A", async () => {
    const a = await applicationWithDatabase();
    const b = await applicationWithDatabase();
    await deployed(a, a.applicationId);
    await deployed(b, b.applicationId);
    const nsA = namespaceOf(a.organizationId);
    const nsB = namespaceOf(b.organizationId);
    expect(nsA).not.toBe(nsB);
    for (const ns of [nsB, buildNamespaceOf(b.organizationId)]) {
      const inB = kube.objects().filter((o) => o.metadata.namespace === ns);
      expect(inB.length).toBeGreaterThan(0);
      expect(inB.every((o) => labelsOf(o)["skiff.dev/organization"] === b.organizationId)).toBe(true);
    }
    // The policies as the cluster stores them: every peer admitting traffic into B's namespaces names B's own
    // namespace (a bare podSelector) or the ingress controller's, never A's.
    type Peer = { podSelector?: unknown; namespaceSelector?: { matchLabels?: Record<string, string> } };
    const policies = kube
      .objects()
      .filter(
        (o) => o.kind === "NetworkPolicy" && [nsB, buildNamespaceOf(b.organizationId)].includes(o.metadata.namespace),
      );
    expect(policies).toHaveLength(2);
    for (const policy of policies) {
      const spec = policy.spec as { podSelector: unknown; policyTypes: string[]; ingress?: Array<{ from: Peer[] }> };
      expect(spec.podSelector).toEqual({});
      expect(spec.policyTypes).toEqual(["Ingress", "Egress"]);
      for (const rule of spec.ingress ?? []) {
        // A rule without peers would admit every pod of the cluster.
        expect(rule.from.length).toBeGreaterThan(0);
        for (const peer of rule.from) {
          if (!peer.namespaceSelector) continue; // same namespace only
          expect(peer.namespaceSelector.matchLabels).toEqual({ "kubernetes.io/metadata.name": "traefik" });
        }
      }
    }
    // A's reconcile touches nothing of B.
    const deleted = await reconciled(a.organizationId);
    expect(deleted.filter((k) => k.startsWith(`${nsB}/`))).toEqual([]);
  });

  it("the ResourceQuotas follow the plan: applied for a limited plan, deleted when it becomes unlimited", async () => {
    const app = await seededApplication(t.db.knex);
    const limited = await createPlan(t.db.knex, { applications: 4, databases: 2 });
    await t.db.knex("organizations").where({ id: app.organizationId }).update({ plan_id: limited });
    await deployed(app, app.applicationId);
    const ns = namespaceOf(app.organizationId);
    const builds = buildNamespaceOf(app.organizationId);
    const hard = (namespace: string) =>
      (kube.get(namespace, "ResourceQuota", "plan")?.spec as { hard: Record<string, string> } | undefined)?.hard;
    expect(hard(ns)).toMatchObject({ pods: "10", persistentvolumeclaims: "2" });
    expect(hard(builds)).toMatchObject({ pods: "4" });

    const unlimited = await createPlan(t.db.knex, {});
    await t.db.knex("organizations").where({ id: app.organizationId }).update({ plan_id: unlimited });
    const deleted = await reconciled(app.organizationId);
    expect(deleted).toEqual([`${builds}/ResourceQuota/plan`, `${ns}/ResourceQuota/plan`].sort());
    expect(objectsIn(ns, app.organizationId)).toContain(`Deployment/${app.appName}`);
    expect(kube.get(ns, "LimitRange", "defaults")).toBeDefined();
  });

  it("changePlan alone brings the namespaces' ResourceQuotas to the new plan, with no other change", async () => {
    const app = await seededApplication(t.db.knex);
    const small = await createPlan(t.db.knex, { applications: 4, databases: 2 });
    await t.db.knex("organizations").where({ id: app.organizationId }).update({ plan_id: small });
    await deployed(app, app.applicationId);
    const ns = namespaceOf(app.organizationId);
    const hard = () => (kube.get(ns, "ResourceQuota", "plan")!.spec as { hard: Record<string, string> }).hard;
    expect(hard()).toMatchObject({ persistentvolumeclaims: "2" });

    const larger = await createPlan(t.db.knex, { applications: 8, databases: 5 });
    await run(app, `mutation($o: ID!, $p: String!) { changePlan(organizationId: $o, plan: $p) { id } }`, {
      o: app.organizationId,
      p: larger,
    });
    await drainJobs(t.db.knex, 30_000, { background: true });
    expect(hard()).toMatchObject({ persistentvolumeclaims: "5" });
  });

  it("deleting the last application and database leaves the namespaces and what isolates them", async () => {
    const app = await applicationWithDatabase();
    await deployed(app, app.applicationId);
    const ns = namespaceOf(app.organizationId);
    await run(app, `mutation($id: ID!) { deleteDatabase(id: $id) { id } }`, { id: app.database.id });
    await run(app, `mutation($id: ID!) { deleteApplication(id: $id) }`, { id: app.applicationId });
    await drainJobs(t.db.knex, 30_000, { background: true });
    expect(objectsIn(ns, app.organizationId)).toEqual([]);
    expect(kube.namespaces()).toContain(ns);
    for (const kind of ["RoleBinding", "NetworkPolicy", "LimitRange"]) {
      expect(kube.objects().some((o) => o.kind === kind && o.metadata.namespace === ns)).toBe(true);
    }
  });
});

describe("migrating from skiff-apps", () => {
  /**
   * An application deployed by an older Skiff: its objects (and its database's volume) in `skiff-apps`, its
   * database's host and DB_HOST naming `skiff-apps`, nothing in the organization's namespaces.
   */
  async function legacyApplication() {
    const app = await seededApplication(t.db.knex);
    await addDomain(t.db.knex, app.organizationId, app.applicationId, `${app.appName}.example.test`);
    const host = `${app.appName}-db.${LEGACY}.svc.cluster.local`;
    const databaseId = newId("database");
    await t.db.knex("databases").insert({
      id: databaseId,
      organization_id: app.organizationId,
      project_id: app.projectId,
      environment_id: app.environmentId,
      type: "postgres",
      name: "shop",
      username: "shop_user",
      password_encrypted: createSecretBox(TEST_SECRET).encrypt("s3cret-pass"),
      service_host: host,
    });
    await addVariable(t.db.knex, app.applicationId, "DB_HOST", host);
    await deployed(app, app.applicationId);
    // Move what the deployment applied to skiff-apps, as an older Skiff had it.
    const ns = namespaceOf(app.organizationId);
    for (const o of kube.objects().filter((o) => o.metadata.namespace === ns)) {
      if (labelsOf(o)["skiff.dev/organization"] !== app.organizationId) continue;
      kube.put({ ...o, metadata: { ...o.metadata, namespace: LEGACY } });
    }
    const sts = kube.get(LEGACY, "StatefulSet", `${app.appName}-db`)!;
    const template = (sts.spec as { volumeClaimTemplates: Array<{ metadata: { labels: Record<string, string> } }> })
      .volumeClaimTemplates[0]!;
    kube.put({
      apiVersion: "v1",
      kind: "PersistentVolumeClaim",
      metadata: { name: `data-${app.appName}-db-0`, namespace: LEGACY, labels: template.metadata.labels },
      spec: { accessModes: ["ReadWriteOnce"] },
    });
    // Nothing in the organization's namespaces yet (they did not exist).
    for (const o of kube.objects()) {
      const own = [ns, buildNamespaceOf(app.organizationId)];
      if (own.includes(o.metadata.namespace) || (o.kind === "Namespace" && own.includes(o.metadata.name))) {
        kube.drop(o.metadata.namespace, o.kind, o.metadata.name);
      }
    }
    return { ...app, databaseId, host };
  }

  it("the reconcile recreates the objects in the organization's namespace, deletes them from skiff-apps, and keeps the database's until confirmed", async () => {
    const app = await legacyApplication();
    const ns = namespaceOf(app.organizationId);
    const db = `${app.appName}-db`;
    const appObjects = [
      `Deployment/${app.appName}`,
      `Ingress/${domainObjectName(`${app.appName}-${app.appName}.example.test`, `${app.appName}.example.test`)}`,
      `Secret/${app.appName}-env`,
      `Service/${app.appName}`,
    ];
    const databaseObjects = [`Secret/${db}-password`, `Service/${db}`, `StatefulSet/${db}`];
    expect(objectsIn(LEGACY, app.organizationId)).toEqual(
      [...appObjects, ...databaseObjects, `PersistentVolumeClaim/data-${db}-0`].sort(),
    );

    const deleted = await reconciled(app.organizationId);
    // Recreated in the organization's namespace (workloads included), DB_HOST following the database's Service.
    expect(objectsIn(ns, app.organizationId)).toEqual([...appObjects, ...databaseObjects].sort());
    expect(envOf(ns, app.appName).DB_HOST).toBe(`${db}.${ns}.svc.cluster.local`);
    // Gone from skiff-apps: the application's objects; kept: the database's, with its volume (its row exists).
    expect(deleted).toEqual(appObjects.map((o) => `${LEGACY}/${o}`).sort());
    expect(objectsIn(LEGACY, app.organizationId)).toEqual(
      [...databaseObjects, `PersistentVolumeClaim/data-${db}-0`].sort(),
    );
    // Another reconcile without the operator's confirmation still keeps them.
    expect(await reconciled(app.organizationId)).toEqual([]);

    // The operator restored the dump in the new database and confirms: the legacy database goes.
    const sts = kube.get(LEGACY, "StatefulSet", db)!;
    kube.put({ ...sts, metadata: { ...sts.metadata, labels: { ...labelsOf(sts), "skiff.dev/migrated": "true" } } });
    const confirmed = await reconciled(app.organizationId);
    expect(confirmed).toEqual(
      [...databaseObjects, `PersistentVolumeClaim/data-${db}-0`].map((o) => `${LEGACY}/${o}`).sort(),
    );
    expect(objectsIn(LEGACY, app.organizationId)).toEqual([]);
    // The new database is untouched.
    expect(kube.get(ns, "StatefulSet", db)).toBeDefined();
  });

  it("a legacy database whose row is deleted goes without confirmation", async () => {
    const app = await legacyApplication();
    await reconciled(app.organizationId);
    const db = `${app.appName}-db`;
    expect(kube.get(LEGACY, "StatefulSet", db)).toBeDefined();
    await run(app, `mutation($id: ID!) { deleteDatabase(id: $id) { id } }`, { id: app.databaseId });
    await drainJobs(t.db.knex, 30_000, { background: true });
    expect(objectsIn(LEGACY, app.organizationId)).toEqual([]);
    expect(objectsIn(namespaceOf(app.organizationId), app.organizationId)).not.toContain(`StatefulSet/${db}`);
  });

  it("the periodic reconcile finds organizations that only have objects in skiff-apps", async () => {
    const app = await legacyApplication();
    const from = kube.deleted.length;
    await t.skiff.services.jobs.enqueue(t.skiff.services.knex, "deployments.reconcile-all", {});
    await drainJobs(t.db.knex, 75_000, { background: true });
    expect(kube.deleted.slice(from)).toContain(`${LEGACY}/Deployment/${app.appName}`);
    expect(kube.get(namespaceOf(app.organizationId), "Deployment", app.appName)).toBeDefined();
  }, 90_000);
});
