/**
 * The namespace of one organization (docs/deployments.md "Tenant namespaces"): its stable name, and the objects
 * that isolate it, rendered before anything of its applications. Pure: plain objects, no cluster access.
 * - `Namespace` `skiff-org-<id>` with Pod Security admission `restricted` (enforce, audit, warn);
 * - `RoleBinding` `skiff-deployer` giving Skiff's service account the ClusterRole `skiff-tenant` (the kinds Skiff
 *   renders; deploy/base/rbac.yaml) in this namespace only;
 * - `NetworkPolicy` `tenant-isolation` selecting every pod, both directions: ingress from the same namespace and
 *   from the ingress controller's namespace only; egress to the same namespace, to the cluster DNS (kube-system,
 *   `k8s-app: kube-dns`, port 53) and to any address outside the cluster's CIDRs (`ipBlock` 0.0.0.0/0 `except`
 *   them): no other tenant's pod or Service is reachable, whatever its name. `ipBlock` is the choice because
 *   "the internet" has no selector; the CIDRs are the operator's (pod, service and node ranges, and the cloud
 *   metadata address);
 * - `ResourceQuota` `plan` from the plan's quotas (applications and databases) times the per-plan container
 *   resources (one app pod and its rollout's surge pod per application; one pod and one 1 Gi volume per database);
 *   none for a plan with an unlimited quota;
 * - `LimitRange` `defaults`: a container without resources gets the plan's application requests/limits, none may
 *   exceed the largest the plan renders;
 * - under Gateway API routing, `ReferenceGrant` `gateway-certificates`: the Gateways of the Gateway's namespace
 *   may reference the namespace's Secrets (the `<host>-<hash>-tls` certificates of its HTTPRoutes' domains,
 *   deployment.manifests.ts `domainObjectName`).
 *
 * Build Jobs run in a second namespace of the organization, `skiff-org-<id>-build`: rootless BuildKit needs
 * seccomp and AppArmor `Unconfined` and privilege escalation (deployment.manifests.ts), which Pod Security
 * `restricted` and `baseline` both refuse, so that namespace enforces `privileged` (audit and warn stay
 * `restricted`, so every build is visible as an exception) and holds nothing else: no Service, no Secret but the
 * build's own credentials, no application pod. Its NetworkPolicy `build-isolation` admits no ingress at all and lets
 * builds out to the cluster DNS and the internet only (git, registries), not to any pod of the cluster, their own
 * tenant's included; its ResourceQuota allows one build per application of the plan, its LimitRange defaults to the
 * plan's build resources. Skiff's RoleBinding there as in the tenant namespace.
 */
import { cpuMillicores, memoryMebibytes } from "../../config.ts";
import { buildNamespaceOf, namespaceOf } from "../../shared/tenant-namespace.ts";
import { MANAGED_BY, type Manifest, OWNER_LABELS, type WorkloadResources } from "./deployment.manifests.ts";

/** The ClusterRole of the kinds Skiff renders, bound in every tenant namespace (deploy/base/rbac.yaml). */
export const TENANT_CLUSTER_ROLE = "skiff-tenant";

/** What isolates a tenant namespace, from Skiff's configuration. */
export interface TenantSettings {
  /** Namespace of the ingress controller (or Gateway) whose pods may reach the applications. */
  ingressNamespace: string;
  /** CIDRs egress may not reach (the cluster's pod, service and node ranges, the metadata address). */
  clusterCidrs: string[];
  /** Skiff's service account, bound to {@link TenantSettings.clusterRole} in each tenant namespace. */
  serviceAccount: { namespace: string; name: string };
  /** The ClusterRole of the kinds Skiff renders (deploy/base/rbac.yaml `skiff-tenant`). */
  clusterRole: string;
  /**
   * Namespace of the Gateway of the HTTPRoutes (SKIFF_ROUTING=gateway), whose Gateways a ReferenceGrant lets read the
   * namespace's certificate Secrets; null or absent under Ingress routing.
   */
  gatewayNamespace?: string | null;
}

/** The plan's quotas as {@link renderTenant} reads them (null: unlimited). */
export interface TenantQuotas {
  applications: number | null;
  databases: number | null;
}

/** The larger of two quantities of the same resource. */
function larger(a: string, b: string, of: (q: string) => number): string {
  return of(a) >= of(b) ? a : b;
}

/** Every object of the namespace of `organizationId` (see the file comment), in apply order. */
export function renderTenant(
  organizationId: string,
  settings: TenantSettings,
  quotas: TenantQuotas,
  resources: WorkloadResources,
): Manifest[] {
  const namespace = namespaceOf(organizationId);
  const labels = { ...MANAGED_BY, [OWNER_LABELS.organization]: organizationId };
  const out: Manifest[] = [
    namespaceObject(namespace, labels, "restricted"),
    roleBinding(namespace, labels, settings),
    {
      apiVersion: "networking.k8s.io/v1",
      kind: "NetworkPolicy",
      metadata: { name: "tenant-isolation", namespace, labels },
      spec: {
        podSelector: {},
        policyTypes: ["Ingress", "Egress"],
        ingress: [
          { from: [{ podSelector: {} }] },
          {
            from: [
              { namespaceSelector: { matchLabels: { "kubernetes.io/metadata.name": settings.ingressNamespace } } },
            ],
          },
        ],
        egress: [
          { to: [{ podSelector: {} }] },
          {
            to: [
              {
                namespaceSelector: { matchLabels: { "kubernetes.io/metadata.name": "kube-system" } },
                podSelector: { matchLabels: { "k8s-app": "kube-dns" } },
              },
            ],
            ports: [
              { protocol: "UDP", port: 53 },
              { protocol: "TCP", port: 53 },
            ],
          },
          { to: [{ ipBlock: { cidr: "0.0.0.0/0", except: settings.clusterCidrs } }] },
        ],
      },
    },
  ];
  const { applications: a, databases: d } = quotas;
  if (a !== null && d !== null) {
    const sum = (kind: "requests" | "limits", resource: "cpu" | "memory") => {
      const of = resource === "cpu" ? cpuMillicores : memoryMebibytes;
      const total = 2 * a * of(resources.app[kind][resource]) + d * of(resources.database[kind][resource]);
      return resource === "cpu" ? `${total}m` : `${total}Mi`;
    };
    out.push({
      apiVersion: "v1",
      kind: "ResourceQuota",
      metadata: { name: "plan", namespace, labels },
      spec: {
        hard: {
          "requests.cpu": sum("requests", "cpu"),
          "requests.memory": sum("requests", "memory"),
          "limits.cpu": sum("limits", "cpu"),
          "limits.memory": sum("limits", "memory"),
          pods: String(2 * a + d),
          persistentvolumeclaims: String(d),
          "requests.storage": `${d}Gi`,
        },
      },
    });
  }
  const maxOf = (resource: "cpu" | "memory") => {
    const of = resource === "cpu" ? cpuMillicores : memoryMebibytes;
    return [resources.app, resources.database].map((r) => r.limits[resource]).reduce((x, y) => larger(x, y, of));
  };
  out.push({
    apiVersion: "v1",
    kind: "LimitRange",
    metadata: { name: "defaults", namespace, labels },
    spec: {
      limits: [
        {
          type: "Container",
          default: { ...resources.app.limits },
          defaultRequest: { ...resources.app.requests },
          max: { cpu: maxOf("cpu"), memory: maxOf("memory") },
        },
      ],
    },
  });
  if (settings.gatewayNamespace) {
    out.push({
      apiVersion: "gateway.networking.k8s.io/v1beta1",
      kind: "ReferenceGrant",
      metadata: { name: "gateway-certificates", namespace, labels },
      spec: {
        from: [{ group: "gateway.networking.k8s.io", kind: "Gateway", namespace: settings.gatewayNamespace }],
        to: [{ group: "", kind: "Secret" }],
      },
    });
  }
  out.push(...renderBuildNamespace(organizationId, settings, a, resources));
  return out;
}

/** The Namespace `name` with Pod Security admission `enforce` (audit and warn always `restricted`). */
function namespaceObject(name: string, labels: Record<string, string>, enforce: "restricted" | "privileged"): Manifest {
  return {
    apiVersion: "v1",
    kind: "Namespace",
    metadata: {
      name,
      labels: {
        ...labels,
        "pod-security.kubernetes.io/enforce": enforce,
        "pod-security.kubernetes.io/enforce-version": "latest",
        "pod-security.kubernetes.io/audit": "restricted",
        "pod-security.kubernetes.io/warn": "restricted",
      },
    },
  };
}

/** The RoleBinding `skiff-deployer` of Skiff's service account to the tenant ClusterRole in `namespace`. */
function roleBinding(namespace: string, labels: Record<string, string>, settings: TenantSettings): Manifest {
  return {
    apiVersion: "rbac.authorization.k8s.io/v1",
    kind: "RoleBinding",
    metadata: { name: "skiff-deployer", namespace, labels },
    subjects: [{ kind: "ServiceAccount", ...settings.serviceAccount }],
    roleRef: { apiGroup: "rbac.authorization.k8s.io", kind: "ClusterRole", name: settings.clusterRole },
  };
}

/** The build namespace of `organizationId` and what isolates it (see the file comment); `applications`: its quota. */
function renderBuildNamespace(
  organizationId: string,
  settings: TenantSettings,
  applications: number | null,
  resources: WorkloadResources,
): Manifest[] {
  const namespace = buildNamespaceOf(organizationId);
  const labels = { ...MANAGED_BY, [OWNER_LABELS.organization]: organizationId };
  const out: Manifest[] = [
    namespaceObject(namespace, labels, "privileged"),
    roleBinding(namespace, labels, settings),
    {
      apiVersion: "networking.k8s.io/v1",
      kind: "NetworkPolicy",
      metadata: { name: "build-isolation", namespace, labels },
      spec: {
        podSelector: {},
        policyTypes: ["Ingress", "Egress"],
        egress: [
          {
            to: [
              {
                namespaceSelector: { matchLabels: { "kubernetes.io/metadata.name": "kube-system" } },
                podSelector: { matchLabels: { "k8s-app": "kube-dns" } },
              },
            ],
            ports: [
              { protocol: "UDP", port: 53 },
              { protocol: "TCP", port: 53 },
            ],
          },
          { to: [{ ipBlock: { cidr: "0.0.0.0/0", except: settings.clusterCidrs } }] },
        ],
      },
    },
  ];
  const build = resources.build;
  if (applications !== null) {
    const times = (q: string, of: (q: string) => number, unit: string) => `${applications * of(q)}${unit}`;
    out.push({
      apiVersion: "v1",
      kind: "ResourceQuota",
      metadata: { name: "plan", namespace, labels },
      spec: {
        hard: {
          "requests.cpu": times(build.requests.cpu, cpuMillicores, "m"),
          "requests.memory": times(build.requests.memory, memoryMebibytes, "Mi"),
          "limits.cpu": times(build.limits.cpu, cpuMillicores, "m"),
          "limits.memory": times(build.limits.memory, memoryMebibytes, "Mi"),
          pods: String(applications),
          persistentvolumeclaims: "0",
        },
      },
    });
  }
  out.push({
    apiVersion: "v1",
    kind: "LimitRange",
    metadata: { name: "defaults", namespace, labels },
    spec: {
      limits: [
        {
          type: "Container",
          default: { ...build.limits },
          defaultRequest: { ...build.requests },
          max: { ...build.limits },
        },
      ],
    },
  });
  return out;
}
