/**
 * Routes of hosts whose readable names are one (`qa-x.example.com`, `qa.x-example.com`), through the `kubernetes`
 * deployer and the reconcile against the FAKE Kubernetes API server (test/helpers/kube-api.ts): a deployment
 * applies one Ingress per host, with a TLS Secret per host (neither overwrites the other); removing one domain
 * deletes its Ingress alone; and an Ingress of the organization named as routes were before the host's hash
 * (`<app>-<host with dashes>`) is deleted by the reconcile, which finds objects by their labels and keeps only
 * what the render names.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningSkiff } from "../../src/server/start.ts";
import { namespaceOf } from "../../src/shared/tenant-namespace.ts";
import type { TestDatabase } from "../helpers/db.ts";
import { drainJobs } from "../helpers/jobs.ts";
import type { KubeApi, KubeObject } from "../helpers/kube-api.ts";
import { gql } from "../helpers/server.ts";
import { addDomain, seededApplication } from "./deploy-helpers.ts";
import { completeRollouts, type KubeSkiff, startKubeSkiff } from "./kube-skiff.ts";

let t: KubeSkiff;
let db: TestDatabase;
let skiff: RunningSkiff;
let kube: KubeApi;
beforeAll(async () => {
  t = await startKubeSkiff("skiff-test", { SKIFF_ROLLOUT_TIMEOUT: "10", SKIFF_RECONCILE_INTERVAL: "0" });
  ({ db, skiff, kube } = t);
  kube.onApply = completeRollouts;
});
afterAll(() => t?.stop());

type Owner = { owner: { apiKey: string } };

/** Runs a GraphQL operation as `who`'s owner and waits for every job it caused; fails the test on errors. */
async function run<T = Record<string, unknown>>(who: Owner, query: string, variables: Record<string, unknown>) {
  const res = await gql<T>(skiff.url, query, variables, { apiKey: who.owner.apiKey });
  expect(res.errors).toBeUndefined();
  await drainJobs(db.knex, 60_000, { background: true });
  return res.data!;
}

/** The Ingresses of organization `organizationId`'s namespace. */
function ingressesOf(organizationId: string): KubeObject[] {
  const ns = namespaceOf(organizationId);
  return kube.objects().filter((o) => o.metadata.namespace === ns && o.kind === "Ingress");
}

// biome-ignore lint/suspicious/noExplicitAny: stored objects inspected field by field.
const spec = (o: KubeObject) => o.spec as any;

describe("routes of look-alike hosts", () => {
  it("one Ingress and TLS Secret per host; a removed domain's Ingress and one named the old way are deleted", async () => {
    const app = await seededApplication(db.knex);
    const hosts = [`qa-x.${app.appName}.test`, `qa.x-${app.appName}.test`];
    for (const host of hosts) await addDomain(db.knex, app.organizationId, app.applicationId, host);
    await run(app, `mutation($id: ID!) { deployApplication(applicationId: $id) { id } }`, { id: app.applicationId });

    const applied = ingressesOf(app.organizationId);
    expect(applied.map((i) => spec(i).rules[0].host).sort()).toEqual([...hosts].sort());
    expect(new Set(applied.map((i) => i.metadata.name)).size).toBe(2);
    expect(new Set(applied.map((i) => spec(i).tls[0].secretName)).size).toBe(2);

    // An Ingress of this application applied before route names carried the host's hash, with its labels.
    const ns = namespaceOf(app.organizationId);
    const old = applied.find((i) => spec(i).rules[0].host === hosts[0])!;
    const oldName = `${app.appName}-qa-x-${app.appName}-test`;
    kube.put({ ...structuredClone(old), metadata: { ...structuredClone(old.metadata), name: oldName, namespace: ns } });

    const from = kube.deleted.length;
    await run(app, `mutation($a: ID!, $h: String!) { removeDomain(applicationId: $a, host: $h) { id } }`, {
      a: app.applicationId,
      h: hosts[1],
    });
    const removed = applied.find((i) => spec(i).rules[0].host === hosts[1])!;
    expect(kube.deleted.slice(from).sort()).toEqual(
      [`${ns}/Ingress/${oldName}`, `${ns}/Ingress/${removed.metadata.name}`].sort(),
    );
    expect(ingressesOf(app.organizationId).map((i) => i.metadata.name)).toEqual([old.metadata.name]);
  });
});
