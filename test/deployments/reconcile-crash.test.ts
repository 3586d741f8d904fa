/**
 * The reconcile survives a crash (docs/deployments.md "Deleting"): a real `src/main.ts` (spawned, kubernetes
 * deployer, the FAKE API server of test/helpers/kube-api.ts) is SIGKILLed after an application's row is deleted and
 * while the reconcile's DELETE of its objects is in flight (the fake holds DELETEs unanswered): the objects are
 * orphans. The next instance removes them. An orphan whose row went without any job at all (deleted by SQL) is
 * removed by the periodic reconcile (SKIFF_RECONCILE_INTERVAL=1, planned at the next minute), counted in
 * `skiff_reconcile_deleted_objects_total{trigger="periodic"}`.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { namespaceOf } from "../../src/shared/tenant-namespace.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { drainJobs } from "../helpers/jobs.ts";
import { type KubeApi, startKubeApi } from "../helpers/kube-api.ts";
import { type SkiffProcess, spawnSkiff } from "../helpers/process.ts";
import { gql } from "../helpers/server.ts";
import { seededApplication } from "./deploy-helpers.ts";
import { completeRollouts } from "./kube-skiff.ts";

const NAMESPACE = "skiff-test";

let db: TestDatabase;
let kube: KubeApi;
let dir: string;
const processes: SkiffProcess[] = [];
beforeAll(async () => {
  kube = await startKubeApi();
  kube.onApply = completeRollouts;
  dir = mkdtempSync(join(tmpdir(), "skiff-kubeconfig-"));
  kube.writeKubeconfig(join(dir, "kubeconfig"), NAMESPACE);
  db = await createTestDatabase();
});
afterAll(async () => {
  for (const p of processes) {
    if (p.child.exitCode === null && p.child.signalCode === null) {
      p.child.kill("SIGKILL");
      await p.exited;
    }
  }
  await db?.drop();
  await kube?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** Spawns `src/main.ts` on the fake cluster; @returns its URL (metrics under it). */
async function start(): Promise<{ process: SkiffProcess; url: string }> {
  const process = spawnSkiff({
    DATABASE_URL: db.url,
    SKIFF_DEPLOYER: "kubernetes",
    KUBECONFIG: join(dir, "kubeconfig"),
    SKIFF_ROLLOUT_TIMEOUT: "10",
    SKIFF_RECONCILE_INTERVAL: "1",
  });
  processes.push(process);
  const listening = await process.waitForLog((r) => String(r.msg).startsWith("Server listening at"), 60_000);
  return { process, url: String(listening.msg).replace("Server listening at ", "") };
}

/** Polls `check` every 100 ms until it is true (at most `ms`). */
async function until(what: string, check: () => boolean | Promise<boolean>, ms = 90_000) {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Deploys an application through `url` and waits for the deployment to end `done`. */
async function deploy(url: string, app: { applicationId: string; owner: { apiKey: string } }) {
  const res = await gql<{ deployApplication: { id: string } }>(
    url,
    `mutation($id: ID!) { deployApplication(applicationId: $id) { id } }`,
    { id: app.applicationId },
    { apiKey: app.owner.apiKey },
  );
  expect(res.errors).toBeUndefined();
  const id = res.data!.deployApplication.id;
  await until(`deployment ${id}`, async () => {
    const row = await db.knex("deployments").where({ id }).first();
    return row.status === "done";
  });
}

/** `skiff_reconcile_deleted_objects_total` of `trigger`, summed over kinds. */
async function deletedCount(url: string, trigger: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  let sum = 0;
  for (const m of text.matchAll(/^skiff_reconcile_deleted_objects_total\{kind="[^"]+",trigger="([^"]+)"\} (\d+)/gm)) {
    if (m[1] === trigger) sum += Number(m[2]);
  }
  return sum;
}

describe("an orphan left by a crash", () => {
  it("killing Skiff between the row delete and the cluster delete leaves an orphan the next instance removes; the periodic reconcile removes one no job was left for", async () => {
    const first = await start();
    const app = await seededApplication(db.knex);
    await deploy(first.url, app);
    expect(kube.get(namespaceOf(app.organizationId), "Deployment", app.appName)).toBeDefined();

    kube.holdDeletes = true;
    const res = await gql(
      first.url,
      `mutation($id: ID!) { deleteApplication(id: $id) }`,
      { id: app.applicationId },
      {
        apiKey: app.owner.apiKey,
      },
    );
    expect(res.errors).toBeUndefined();
    await until("the reconcile's first DELETE", () => kube.requests.some((r) => r.method === "DELETE"));
    first.process.child.kill("SIGKILL");
    expect((await first.process.exited).signal).toBe("SIGKILL");
    // The row is gone, the objects are not: orphans.
    expect(await db.knex("applications").where({ id: app.applicationId }).first()).toBeUndefined();
    expect(kube.get(namespaceOf(app.organizationId), "Deployment", app.appName)).toBeDefined();
    expect(kube.get(namespaceOf(app.organizationId), "Service", app.appName)).toBeDefined();
    kube.holdDeletes = false;

    const second = await start();
    await until(
      "the orphan's removal",
      () => kube.get(namespaceOf(app.organizationId), "Deployment", app.appName) === undefined,
    );
    expect(kube.get(namespaceOf(app.organizationId), "Service", app.appName)).toBeUndefined();
    expect(kube.get(namespaceOf(app.organizationId), "Secret", `${app.appName}-env`)).toBeUndefined();

    // A row deleted with no job at all (by SQL): only the periodic reconcile can find its objects.
    const other = await seededApplication(db.knex);
    await deploy(second.url, other);
    // The reconcile the deployment ended with runs first: then only the periodic one is left to find the objects.
    await drainJobs(db.knex, 30_000);
    await db.knex("applications").where({ id: other.applicationId }).delete();
    await until(
      "the periodic reconcile",
      () => kube.get(namespaceOf(other.organizationId), "Deployment", other.appName) === undefined,
    );
    expect(await deletedCount(second.url, "periodic")).toBeGreaterThanOrEqual(3);
  }, 240_000);
});
