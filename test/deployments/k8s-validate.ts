/**
 * Validates rendered manifests strictly against the Kubernetes OpenAPI schemas, as the API server does with
 * `fieldValidation=Strict` (`kubectl apply --validate=strict`): types, required fields and enums by the schema,
 * and every field the schema does not declare refused — a misspelt field is an error, not silently dropped.
 *
 * The schemas are kubernetes-models' (Kubernetes 1.3x), and for the custom resources Skiff renders the Gateway
 * API's, cert-manager's and prometheus-operator's (@kubernetes-models/*): each kind's validator is Ajv's code
 * compiled from the schema. Those validators read exactly the properties the schema declares (and enumerate the
 * keys of maps, whose schema admits any key), so the strict check runs the validator on a view of the object that
 * records what is read: a key of an object that the validator never read is a field the schema does not know.
 */
import { Certificate } from "@kubernetes-models/cert-manager/cert-manager.io/v1";
import { HTTPRoute } from "@kubernetes-models/gateway-api/gateway.networking.k8s.io/v1";
import { ReferenceGrant } from "@kubernetes-models/gateway-api/gateway.networking.k8s.io/v1beta1";
import { ServiceMonitor } from "@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1";
import { Deployment, StatefulSet } from "kubernetes-models/apps/v1";
import { Job } from "kubernetes-models/batch/v1";
import { Ingress, NetworkPolicy } from "kubernetes-models/networking.k8s.io/v1";
import { PodDisruptionBudget } from "kubernetes-models/policy/v1";
import { ClusterRole, ClusterRoleBinding, Role, RoleBinding } from "kubernetes-models/rbac.authorization.k8s.io/v1";
import { ConfigMap, LimitRange, Namespace, ResourceQuota, Secret, Service, ServiceAccount } from "kubernetes-models/v1";

/** A model class: its prototype's `validate()` runs the kind's compiled schema on `this`. */
type ModelClass = { prototype: { validate(): void } };

const CLASSES: Record<string, ModelClass> = {
  "apps/v1/Deployment": Deployment,
  "apps/v1/StatefulSet": StatefulSet,
  "batch/v1/Job": Job,
  "networking.k8s.io/v1/Ingress": Ingress,
  "v1/Secret": Secret,
  "v1/Service": Service,
  "gateway.networking.k8s.io/v1/HTTPRoute": HTTPRoute,
  "cert-manager.io/v1/Certificate": Certificate,
  // A tenant namespace's own objects (tenant.manifests.ts), besides Namespace, RoleBinding and NetworkPolicy.
  "v1/ResourceQuota": ResourceQuota,
  "v1/LimitRange": LimitRange,
  // Skiff's own manifests (deploy/).
  "v1/ConfigMap": ConfigMap,
  "v1/Namespace": Namespace,
  "v1/ServiceAccount": ServiceAccount,
  "policy/v1/PodDisruptionBudget": PodDisruptionBudget,
  "rbac.authorization.k8s.io/v1/Role": Role,
  "rbac.authorization.k8s.io/v1/ClusterRole": ClusterRole,
  "rbac.authorization.k8s.io/v1/RoleBinding": RoleBinding,
  "rbac.authorization.k8s.io/v1/ClusterRoleBinding": ClusterRoleBinding,
  "networking.k8s.io/v1/NetworkPolicy": NetworkPolicy,
  "gateway.networking.k8s.io/v1beta1/ReferenceGrant": ReferenceGrant,
  "monitoring.coreos.com/v1/ServiceMonitor": ServiceMonitor,
};

/**
 * A view of `value` (recursively, objects and arrays) that records in `reads` each property read of each object,
 * keyed by the original object.
 */
function recording<T>(value: T, reads: Map<object, Set<string>>, views: WeakMap<object, object>): T {
  if (value === null || typeof value !== "object") return value;
  const target = value as object;
  const known = views.get(target);
  if (known) return known as T;
  if (!reads.has(target)) reads.set(target, new Set());
  const view = new Proxy(target, {
    get(object, key, receiver) {
      if (typeof key === "string") reads.get(object)!.add(key);
      return recording(Reflect.get(object, key, receiver), reads, views);
    },
  });
  views.set(target, view);
  return view as T;
}

/** Paths (JSON pointers) of the keys under `value` that the validator did not read: fields the schema lacks. */
function unread(value: unknown, reads: Map<object, Set<string>>, path: string): string[] {
  if (value === null || typeof value !== "object") return [];
  if (Array.isArray(value)) return value.flatMap((v, i) => unread(v, reads, `${path}/${i}`));
  const read = reads.get(value) ?? new Set<string>();
  return Object.entries(value).flatMap(([key, v]) => {
    if (v === undefined) return [];
    const at = `${path}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`;
    return read.has(key) ? unread(v, reads, at) : [at];
  });
}

/**
 * Validates each manifest strictly (see the file comment).
 * @throws Error naming the manifest and the schema violations or the unknown fields (JSON pointers).
 */
export function validateManifests(manifests: Array<{ apiVersion: string; kind: string; metadata: { name: string } }>) {
  for (const m of manifests) {
    const Model = CLASSES[`${m.apiVersion}/${m.kind}`];
    if (!Model) throw new Error(`no schema for ${m.apiVersion} ${m.kind}`);
    const where = `${m.kind}/${m.metadata.name}`;
    const reads = new Map<object, Set<string>>();
    try {
      Model.prototype.validate.call(recording(m, reads, new WeakMap()));
    } catch (error) {
      throw new Error(`${where} is invalid: ${(error as Error).message}`);
    }
    const unknown = unread(m, reads, "");
    if (unknown.length > 0) throw new Error(`${where} has fields its schema does not know: ${unknown.join(", ")}`);
  }
}
