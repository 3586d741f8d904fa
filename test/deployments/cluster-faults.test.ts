/**
 * The `kubernetes` deployer and the reconcile against an unreliable, strict FAKE Kubernetes API server
 * (test/helpers/kube-api.ts: names validated as the API server does, faults injected): names made from
 * applications and databases whose names start with a digit are valid object names (new rows and rows stored
 * before); a domain's explicit port 80 reaches container port 80; transient errors (500, 503, 429 with Retry-After,
 * 409, a reset connection) are retried within the step while a 422 ends it; a request that never answers fails
 * the step after the per-request timeout, and cancelling frees the application's queue at once; one refused object
 * does not stop the reconcile from deleting what no row calls for.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId } from "../../src/db/ids.ts";
import { createSecretBox } from "../../src/db/secrets.ts";
import { namespaceOf } from "../../src/shared/tenant-namespace.ts";
import { drainJobs } from "../helpers/jobs.ts";
import type { KubeObject } from "../helpers/kube-api.ts";
import { TEST_SECRET } from "../helpers/seed.ts";
import { gql } from "../helpers/server.ts";
import { addVariable, seededApplication } from "./deploy-helpers.ts";
import { completeRollouts, type KubeSkiff, startKubeSkiff } from "./kube-skiff.ts";

/** SKIFF_ROLLOUT_TIMEOUT of the first server: its per-request timeout too (below the 30 s ceiling). */
const ROLLOUT_TIMEOUT = 5;

let t: KubeSkiff;
beforeAll(async () => {
  t = await startKubeSkiff("skiff-test", {
    SKIFF_ROLLOUT_TIMEOUT: String(ROLLOUT_TIMEOUT),
    SKIFF_RECONCILE_INTERVAL: "0",
    SKIFF_DEFAULT_REGISTRY_URL: "https://registry.example.test/default",
  });
  t.kube.onApply = completeRollouts;
});
afterAll(() => t?.stop());

type Owner = { owner: { apiKey: string } };

/** Runs a GraphQL operation on `on` as `who`'s owner; fails the test on errors. */
async function run<T = Record<string, unknown>>(
  who: Owner,
  query: string,
  variables: Record<string, unknown>,
  on: KubeSkiff = t,
): Promise<T> {
  const res = await gql<T>(on.skiff.url, query, variables, { apiKey: who.owner.apiKey });
  expect(res.errors).toBeUndefined();
  return res.data!;
}

/** Queues a deployment of `applicationId`; @returns its id. */
async function deploy(who: Owner, applicationId: string, on: KubeSkiff = t): Promise<string> {
  const data = await run<{ deployApplication: { id: string } }>(
    who,
    `mutation($id: ID!) { deployApplication(applicationId: $id) { id } }`,
    { id: applicationId },
    on,
  );
  return data.deployApplication.id;
}

/** Polls deployment `id` until `until` holds (default: it ended); @returns the row and its log texts. */
async function waitForDeployment(
  id: string,
  until?: (row: Record<string, unknown>, logs: string[]) => boolean,
  on: KubeSkiff = t,
  timeoutMs = 45_000,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const row = await on.db.knex("deployments").where({ id }).first();
    const logs = (await on.db
      .knex("deployment_logs")
      .where({ deployment_id: id })
      .orderBy("id")
      .pluck("text")) as string[];
    if (until ? until(row, logs) : ["done", "error", "cancelled"].includes(row.status)) return { row, logs };
    if (Date.now() > deadline) throw new Error(`deployment ${id} still ${row.status}: ${logs.join(" | ")}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The value of `key` in the stored Secret (`stringData`, else base64 `data`). */
function secretValue(object: KubeObject | undefined, key: string): string | undefined {
  const s = object as { stringData?: Record<string, string>; data?: Record<string, string> } | undefined;
  return s?.stringData?.[key] ?? (s?.data?.[key] ? Buffer.from(s.data[key]!, "base64").toString() : undefined);
}

/** DNS-1035 label: what a Service's name must be. */
const DNS1035 = /^[a-z]([-a-z0-9]{0,61}[a-z0-9])?$/;

describe("object names", () => {
  it("applications and databases named from a digit get valid Service names; DB_HOST names the Service", async () => {
    const org = await seededApplication(t.db.knex);
    const ns = namespaceOf(org.organizationId);
    const names = ["1shop", "2024"];
    const ids: string[] = [];
    for (const name of names) {
      const { createApplication } = await run<{ createApplication: { id: string; appName: string } }>(
        org,
        `mutation($e: ID!, $n: String!) { createApplication(input: { environmentId: $e, name: $n,
          source: { type: docker, dockerImage: "nginx:1.27" } }) { id appName } }`,
        { e: org.environmentId, n: name },
      );
      expect(createApplication.appName).toMatch(DNS1035);
      ids.push(createApplication.id);
    }
    const { createDatabase } = await run<{ createDatabase: { database: { serviceHost: string } } }>(
      org,
      `mutation($i: CreateDatabaseInput!) { createDatabase(input: $i) { database { serviceHost } } }`,
      {
        i: { environmentId: org.environmentId, type: "postgres", name: "2024_data", user: "shop", applicationIds: ids },
      },
    );
    const host = createDatabase.database.serviceHost;
    expect(host.split(".")[0]).toMatch(DNS1035);
    for (const id of ids) {
      const { row, logs } = await waitForDeployment(await deploy(org, id));
      expect(row.status, logs.join("\n")).toBe("done");
    }
    const services = t.kube.objects().filter((o) => o.kind === "Service" && o.metadata.namespace === ns);
    expect(services.length).toBeGreaterThanOrEqual(3);
    for (const s of services) expect(s.metadata.name).toMatch(DNS1035);
    const app = await t.db.knex("applications").where({ id: ids[0] }).first();
    expect(secretValue(t.kube.get(ns, "Secret", `${app.appName}-env`), "DB_HOST")).toBe(host);
    expect(t.kube.get(ns, "Service", host.split(".")[0]!)).toBeDefined();
  });

  it("rows stored with digit-first names deploy under a prefixed name; DB_HOST follows; valid names are kept", async () => {
    const stored = `1shop-${Date.now().toString(36)}`;
    const org = await seededApplication(t.db.knex, { app_name: stored });
    const ns = namespaceOf(org.organizationId);
    const label = `2024-data-${Date.now().toString(36)}-db`;
    const storedHost = `${label}.${ns}.svc.cluster.local`;
    await t.db.knex("databases").insert({
      id: newId("database"),
      organization_id: org.organizationId,
      project_id: org.projectId,
      environment_id: org.environmentId,
      type: "postgres",
      name: "data",
      username: "shop",
      password_encrypted: createSecretBox(TEST_SECRET).encrypt("pw-1"),
      service_host: storedHost,
    });
    await addVariable(t.db.knex, org.applicationId, "DB_HOST", storedHost);
    await addVariable(t.db.knex, org.applicationId, "DATABASE_URL", `postgres://shop:pw-1@${storedHost}:5432/data`);
    const { row, logs } = await waitForDeployment(await deploy(org, org.applicationId));
    expect(row.status, logs.join("\n")).toBe("done");
    const appName = `app-${stored}`;
    expect(t.kube.get(ns, "Service", appName)).toBeDefined();
    expect(t.kube.get(ns, "Deployment", appName)).toBeDefined();
    expect(t.kube.get(ns, "Service", `app-${label}`)).toBeDefined();
    const env = t.kube.get(ns, "Secret", `${appName}-env`);
    expect(secretValue(env, "DB_HOST")).toBe(`app-${label}.${ns}.svc.cluster.local`);
    expect(secretValue(env, "DATABASE_URL")).toBe(
      `postgres://shop:pw-1@app-${label}.${ns}.svc.cluster.local:5432/data`,
    );

    const valid = await seededApplication(t.db.knex);
    await waitForDeployment(await deploy(valid, valid.applicationId));
    expect(t.kube.get(namespaceOf(valid.organizationId), "Service", valid.appName)).toBeDefined();
  });
});

describe("domain ports", () => {
  it("a domain's explicit port 80 reaches container port 80, the default one the application's port", async () => {
    const org = await seededApplication(t.db.knex, { port: 8080 });
    const ns = namespaceOf(org.organizationId);
    for (const [host, port] of [
      [`p80-${org.appName}.example.test`, 80],
      [`p9000-${org.appName}.example.test`, 9000],
      [`app-${org.appName}.example.test`, null],
    ] as const) {
      await run(org, `mutation($i: AddDomainInput!) { addDomain(input: $i) { id } }`, {
        i: { applicationId: org.applicationId, host, ...(port && { port }) },
      });
    }
    const { row } = await waitForDeployment(await deploy(org, org.applicationId));
    expect(row.status).toBe("done");
    const service = t.kube.get(ns, "Service", org.appName)!;
    const ports = (service.spec as { ports: Array<{ port: number; targetPort: number }> }).ports;
    const targetOf = (servicePort: number) => ports.find((p) => p.port === servicePort)?.targetPort;
    const routed = (host: string) => {
      const ingress = t.kube
        .objects()
        .find(
          (o) =>
            o.kind === "Ingress" &&
            o.metadata.namespace === ns &&
            (o.spec as { rules: Array<{ host: string }> }).rules[0]!.host === host,
        )!;
      const backend = (
        ingress.spec as {
          rules: Array<{ http: { paths: Array<{ backend: { service: { port: { number: number } } } }> } }>;
        }
      ).rules[0]!.http.paths[0]!.backend.service;
      return targetOf(backend.port.number);
    };
    expect(routed(`p80-${org.appName}.example.test`)).toBe(80);
    expect(routed(`p9000-${org.appName}.example.test`)).toBe(9000);
    expect(routed(`app-${org.appName}.example.test`)).toBe(8080);
    expect(targetOf(80)).toBe(8080);
  });
});

describe("transient and refused API errors", () => {
  it("500, 503, 429 (Retry-After), 409 and a reset connection are retried; the deployment ends done", async () => {
    const org = await seededApplication(t.db.knex);
    t.kube.faults = [
      { method: "PATCH", kind: "Secret", times: 1, status: 500 },
      { method: "PATCH", kind: "Deployment", times: 1, status: 409 },
      { method: "PATCH", kind: "Service", times: 1, status: 429, retryAfter: 1 },
      { method: "GET", kind: "Deployment", times: 1, status: 503 },
      { method: "PATCH", kind: "LimitRange", times: 1, reset: true },
    ];
    const { row, logs } = await waitForDeployment(await deploy(org, org.applicationId));
    expect(t.kube.faults).toEqual([]);
    expect(row.status, logs.join("\n")).toBe("done");
    expect(logs.join("\n")).toMatch(/retrying/);
  });

  it("a 422 ends the deployment at once, without a retry", async () => {
    const org = await seededApplication(t.db.knex);
    t.kube.faults = [{ method: "PATCH", kind: "Deployment", times: 2, status: 422 }];
    const { row, logs } = await waitForDeployment(await deploy(org, org.applicationId));
    t.kube.faults = [];
    expect(row.status).toBe("error");
    expect(row.errorMessage).toMatch(/^applying Deployment\/.* failed: HTTP 422/);
    expect(logs.join("\n")).not.toMatch(/retrying/);
  });

  it("a request that never answers fails the step after the per-request timeout", async () => {
    const org = await seededApplication(t.db.knex);
    t.kube.faults = [{ method: "PATCH", kind: "Deployment", times: 1, hang: true }];
    const started = Date.now();
    const { row } = await waitForDeployment(await deploy(org, org.applicationId));
    expect(row.status).toBe("error");
    expect(row.errorMessage).toMatch(
      new RegExp(`^applying Deployment/${org.appName} failed: no answer within ${ROLLOUT_TIMEOUT} s`),
    );
    expect(Date.now() - started).toBeLessThan(40_000);
    // The queue is free: the next deployment runs.
    const next = await waitForDeployment(await deploy(org, org.applicationId));
    expect(next.row.status).toBe("done");
  });
});

describe("cancelling a deployment whose request hangs", () => {
  let slow: KubeSkiff;
  beforeAll(async () => {
    // Rollout timeout 600 s: the per-request timeout is its 30 s ceiling, far beyond what this test waits.
    slow = await startKubeSkiff("skiff-test", {
      SKIFF_ROLLOUT_TIMEOUT: "600",
      SKIFF_RECONCILE_INTERVAL: "0",
      SKIFF_DEFAULT_REGISTRY_URL: "https://registry.example.test/default",
    });
    slow.kube.onApply = completeRollouts;
  });
  afterAll(() => slow?.stop());

  it("frees the application's queue at once: the next deployment runs", async () => {
    const org = await seededApplication(slow.db.knex);
    slow.kube.faults = [{ method: "PATCH", kind: "Service", times: 1, hang: true }];
    const id = await deploy(org, org.applicationId, slow);
    await waitForDeployment(id, (_r, logs) => logs.some((l) => l.startsWith("applied Deployment/")), slow);
    const cancelledAt = Date.now();
    await run(org, `mutation($id: ID!) { cancelDeployment(id: $id) { status } }`, { id }, slow);
    const next = await deploy(org, org.applicationId, slow);
    const { row, logs } = await waitForDeployment(next, undefined, slow, 20_000);
    expect(row.status, logs.join("\n")).toBe("done");
    expect(Date.now() - cancelledAt).toBeLessThan(20_000);
    const first = await waitForDeployment(id, (_r, l) => l.some((x) => x.startsWith("deployment cancelled")), slow);
    expect(first.row.status).toBe("cancelled");
  });
});

describe("the reconcile", () => {
  it("deletes what no row calls for although another object is refused, then fails (and is retried)", async () => {
    const org = await seededApplication(t.db.knex);
    const ns = namespaceOf(org.organizationId);
    const { createApplication } = await run<{ createApplication: { id: string; appName: string } }>(
      org,
      `mutation($e: ID!) { createApplication(input: { environmentId: $e, name: "second",
        source: { type: docker, dockerImage: "nginx:1.27" } }) { id appName } }`,
      { e: org.environmentId },
    );
    for (const id of [org.applicationId, createApplication.id]) {
      expect((await waitForDeployment(await deploy(org, id))).row.status).toBe("done");
    }
    await drainJobs(t.db.knex, 45_000);
    const second = createApplication.appName;
    expect(t.kube.get(ns, "Deployment", second)).toBeDefined();
    // The first application's Service is refused from now on.
    t.kube.failApply = { kind: "Service", name: org.appName, code: 422, message: "refused" };
    try {
      await run(org, `mutation($id: ID!) { deleteApplication(id: $id) }`, { id: createApplication.id });
      const deadline = Date.now() + 45_000;
      const job = () =>
        t.db
          .knex("graphile_worker.jobs")
          .where({ task_identifier: "deployments.reconcile", key: `reconcile:${org.organizationId}` })
          .first("attempts", "last_error");
      for (;;) {
        const row = await job();
        if (row?.lastError || row?.last_error) break;
        if (Date.now() > deadline) throw new Error(`reconcile did not fail: ${JSON.stringify(row)}`);
        await new Promise((r) => setTimeout(r, 100));
      }
      for (const kind of ["Deployment", "Service"]) expect(t.kube.get(ns, kind, second)).toBeUndefined();
      expect(t.kube.get(ns, "Secret", `${second}-env`)).toBeUndefined();
      const failed = await job();
      expect(String(failed.lastError ?? failed.last_error)).toContain(`applying Service/${org.appName} failed`);
    } finally {
      t.kube.failApply = null;
    }
  });
});
