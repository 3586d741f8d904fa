/**
 * The reconcile's connection to the cluster (reconcile.ts; docs/deployments.md "Deleting"): server-side apply of
 * rendered objects (field manager `skiff`, forced), listing the objects Skiff labelled in a namespace and the
 * Namespaces it created, and deleting them (propagation `Background`, so a Deployment's ReplicaSets and Pods and a Job's Pods go with it; 404 counts
 * as deleted). The cluster is KUBECONFIG's, as for the `kubernetes` deployer, and its requests are bounded and retried as
 * the deployer's are (deployer.kubernetes.ts `withRetries`). Imported on first use only (the
 * client library's heap is not needed under the `dry-run` deployer).
 */
import type { Config } from "../../config.ts";
import { type ClusterClient, type LiveObject, MANAGED_KINDS } from "./cluster.kinds.ts";
import {
  applyServerSide,
  kubernetesErrorMessage,
  loadKubeConfig,
  objectClient,
  type RequestPolicy,
  requestTimeoutSeconds,
  withRetries,
} from "./deployer.kubernetes.ts";
import { DEPLOYMENT_ANNOTATION } from "./deployment.manifests.ts";

/** Whether `error` says the API (group, version or kind) is not served by this cluster. */
function notServed(error: unknown): boolean {
  const e = error as { code?: number; message?: string };
  return e?.code === 404 || /Unrecognized API version and kind/.test(e?.message ?? "");
}

/** Connects to the cluster of `config.KUBECONFIG`. @throws Error when no cluster is configured. */
export function connectCluster(config: Pick<Config, "KUBECONFIG" | "SKIFF_ROLLOUT_TIMEOUT">): ClusterClient {
  const kc = loadKubeConfig(config.KUBECONFIG);
  const policy: RequestPolicy = { timeoutSeconds: requestTimeoutSeconds(config) };
  const client = objectClient(kc, policy);
  const ref = (o: { kind: string; metadata: { name: string } }) => `${o.kind}/${o.metadata.name}`;
  return {
    namespace: kc.getContextObject(kc.getCurrentContext())?.namespace || "default",
    async apply(manifest, namespace) {
      // A Namespace is cluster-scoped; an object naming its namespace (a tenant's) keeps it.
      const object =
        manifest.kind === "Namespace"
          ? manifest
          : { ...manifest, metadata: { ...manifest.metadata, namespace: manifest.metadata.namespace ?? namespace } };
      await applyServerSide(client, object, policy);
    },
    async list(namespace, labelSelector) {
      const out: LiveObject[] = [];
      for (const [apiVersion, kind] of MANAGED_KINDS) {
        let items: Array<{
          metadata?: { name?: string; labels?: Record<string, string> };
          spec?: { template?: { metadata?: { annotations?: Record<string, string> } } };
        }>;
        try {
          const list = await withRetries(
            `listing ${kind} in ${namespace}`,
            () => client.list(apiVersion, kind, namespace, undefined, undefined, undefined, undefined, labelSelector),
            policy,
          );
          items = list.items;
        } catch (error) {
          if (notServed(error)) continue;
          throw new Error(`listing ${kind} in ${namespace} failed: ${kubernetesErrorMessage(error)}`);
        }
        for (const item of items) {
          if (!item.metadata?.name) continue;
          const deployment = item.spec?.template?.metadata?.annotations?.[DEPLOYMENT_ANNOTATION];
          out.push({
            apiVersion,
            kind,
            metadata: { name: item.metadata.name, namespace, labels: item.metadata.labels ?? {} },
            ...(kind === "Deployment" && deployment && { deployment }),
          });
        }
      }
      return out;
    },
    async listNamespaces(labelSelector) {
      try {
        const list = await withRetries(
          "listing namespaces",
          () => client.list("v1", "Namespace", undefined, undefined, undefined, undefined, undefined, labelSelector),
          policy,
        );
        return list.items.flatMap((item) =>
          item.metadata?.name
            ? [
                {
                  apiVersion: "v1",
                  kind: "Namespace",
                  metadata: { name: item.metadata.name, namespace: "", labels: item.metadata.labels ?? {} },
                },
              ]
            : [],
        );
      } catch (error) {
        throw new Error(`listing namespaces failed: ${kubernetesErrorMessage(error)}`);
      }
    },
    async remove(object) {
      const { namespace, ...metadata } = object.metadata;
      try {
        await withRetries(
          `deleting ${ref(object)}`,
          () =>
            client.delete(
              {
                apiVersion: object.apiVersion,
                kind: object.kind,
                metadata: object.kind === "Namespace" ? metadata : { ...metadata, namespace },
              },
              undefined,
              undefined,
              undefined,
              undefined,
              "Background",
            ),
          policy,
        );
        return true;
      } catch (error) {
        if ((error as { code?: number })?.code === 404) return false;
        throw new Error(`deleting ${ref(object)} failed: ${kubernetesErrorMessage(error)}`);
      }
    },
  };
}
