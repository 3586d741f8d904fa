/**
 * A Skiff with the `kubernetes` deployer against the FAKE Kubernetes API server (test/helpers/kube-api.ts): the
 * fake, a kubeconfig naming it, a test database and the in-process server, started and stopped together.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RunningSkiff } from "../../src/server/start.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { type KubeApi, type KubeObject, startKubeApi } from "../helpers/kube-api.ts";
import { startTestServer } from "../helpers/server.ts";

/** A running Skiff on the fake cluster. */
export interface KubeSkiff {
  db: TestDatabase;
  skiff: RunningSkiff;
  kube: KubeApi;
  /** Path of the kubeconfig file naming the fake (current context's namespace `namespace`). */
  kubeconfig: string;
  stop(): Promise<void>;
}

/** Starts the fake API server and a Skiff (SKIFF_DEPLOYER=kubernetes, KUBECONFIG) with `env` added. */
export async function startKubeSkiff(namespace: string, env: Record<string, string> = {}): Promise<KubeSkiff> {
  const kube = await startKubeApi();
  const dir = mkdtempSync(join(tmpdir(), "skiff-kubeconfig-"));
  const kubeconfig = join(dir, "kubeconfig");
  kube.writeKubeconfig(kubeconfig, namespace);
  const db = await createTestDatabase();
  const skiff = await startTestServer(db.url, { SKIFF_DEPLOYER: "kubernetes", KUBECONFIG: kubeconfig, ...env });
  return {
    db,
    skiff,
    kube,
    kubeconfig,
    async stop() {
      await skiff.stop();
      await db.drop();
      await kube.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A controller that completes every Deployment's rollout at once (an `onApply` of the fake). */
export function completeRollouts(object: KubeObject): Record<string, unknown> | undefined {
  if (object.kind !== "Deployment") return undefined;
  const g = object.metadata.generation;
  return { observedGeneration: g, replicas: 1, updatedReplicas: 1, readyReplicas: 1, availableReplicas: 1 };
}
