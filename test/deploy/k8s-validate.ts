/**
 * Validates rendered manifests against the Kubernetes OpenAPI schemas (kubernetes-models: one class per kind,
 * `validate()` throws with the offending paths).
 */
import { Deployment, StatefulSet } from "kubernetes-models/apps/v1";
import { Job } from "kubernetes-models/batch/v1";
import { Ingress } from "kubernetes-models/networking.k8s.io/v1";
import { PodDisruptionBudget } from "kubernetes-models/policy/v1";
import { Role, RoleBinding } from "kubernetes-models/rbac.authorization.k8s.io/v1";
import { ConfigMap, Namespace, Secret, Service, ServiceAccount } from "kubernetes-models/v1";

const CLASSES: Record<string, new (data: never) => { validate(): void }> = {
  "apps/v1/Deployment": Deployment,
  "apps/v1/StatefulSet": StatefulSet,
  "batch/v1/Job": Job,
  "networking.k8s.io/v1/Ingress": Ingress,
  "v1/Secret": Secret,
  "v1/Service": Service,
  // Skiff's own manifests (deploy/).
  "v1/ConfigMap": ConfigMap,
  "v1/Namespace": Namespace,
  "v1/ServiceAccount": ServiceAccount,
  "policy/v1/PodDisruptionBudget": PodDisruptionBudget,
  "rbac.authorization.k8s.io/v1/Role": Role,
  "rbac.authorization.k8s.io/v1/RoleBinding": RoleBinding,
};

/** Validates each manifest; @throws Error naming the manifest and the schema violation. */
export function validateManifests(manifests: Array<{ apiVersion: string; kind: string; metadata: { name: string } }>) {
  for (const m of manifests) {
    const Model = CLASSES[`${m.apiVersion}/${m.kind}`];
    if (!Model) throw new Error(`no schema for ${m.apiVersion} ${m.kind}`);
    try {
      new Model(m as never).validate();
    } catch (error) {
      throw new Error(`${m.kind}/${m.metadata.name} is invalid: ${(error as Error).message}`);
    }
  }
}
