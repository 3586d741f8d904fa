/**
 * What the reconcile (reconcile.ts) manages in the cluster: the kinds, the listed objects, the operations. No
 * client library here: cluster.kubernetes.ts implements {@link ClusterClient} and is imported on first use.
 */
import type { Manifest } from "./deployment.manifests.ts";

/**
 * Every kind Skiff renders into a tenant namespace (apiVersion, kind), the ones the reconcile lists and deletes
 * (deploy/base/rbac.yaml grants these). PersistentVolumeClaims are the databases' volumes, created by
 * their StatefulSets.
 */
export const MANAGED_KINDS: ReadonlyArray<readonly [apiVersion: string, kind: string]> = [
  ["v1", "Secret"],
  ["v1", "Service"],
  ["v1", "PersistentVolumeClaim"],
  ["apps/v1", "Deployment"],
  ["apps/v1", "StatefulSet"],
  ["batch/v1", "Job"],
  ["networking.k8s.io/v1", "Ingress"],
  ["gateway.networking.k8s.io/v1", "HTTPRoute"],
  ["cert-manager.io/v1", "Certificate"],
  // The tenant objects a render may stop calling for (an unlimited plan, Ingress routing again).
  ["v1", "ResourceQuota"],
  ["gateway.networking.k8s.io/v1beta1", "ReferenceGrant"],
];

/** An object as listed from the cluster (what the reconcile looks at). */
export interface LiveObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace: string; labels: Record<string, string> };
  /** Of a Deployment: the deployment its pod template names (`skiff.dev/deployment`), whose workload it runs. */
  deployment?: string;
}

/** The cluster operations of the reconcile. */
export interface ClusterClient {
  /** The namespace of the kubeconfig's current context (`default` when it names none). */
  namespace: string;
  /**
   * Server-side applies `manifest` in `namespace` (in its own `metadata.namespace` when it names one; a Namespace
   * is cluster-scoped). @throws Error with the API's message.
   */
  apply(manifest: Manifest, namespace: string): Promise<void>;
  /**
   * The objects of {@link MANAGED_KINDS} in `namespace` matching `labelSelector` (`k=v,k2=v2`); a kind the
   * cluster does not serve (no Gateway API, no cert-manager) has none. @throws Error with the API's message.
   */
  list(namespace: string, labelSelector: string): Promise<LiveObject[]>;
  /**
   * The Namespaces matching `labelSelector` (cluster-scoped: `metadata.namespace` is ""). @throws Error with the
   * API's message.
   */
  listNamespaces(labelSelector: string): Promise<LiveObject[]>;
  /**
   * Deletes `object` (a Namespace: with everything in it, which the cluster removes). @returns false when it was
   * already gone (404). @throws Error with the API's message.
   */
  remove(object: LiveObject): Promise<boolean>;
}
