/**
 * The namespace of an organization (src/modules/deployments/tenant.manifests.ts): a stable name per organization,
 * Pod Security `restricted`, a ResourceQuota and LimitRange from the plan, every object strictly valid
 * (k8s-validate.ts), and tenant isolation checked by evaluating the rendered NetworkPolicies the way the
 * NetworkPolicy API defines them (a pod is admitted when some policy selecting it has a rule whose peer matches;
 * a pod selected by no policy of a direction is unrestricted in it): a pod of organization A reaches nothing of
 * organization B, in either direction, by any policy rendered. They apply server-side (the reconcile's cluster
 * client) to the FAKE API server (test/helpers/kube-api.ts), which records the Namespace.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { newId } from "../../src/db/ids.ts";
import { type Manifest, resourcesForPlan } from "../../src/modules/deployments/deployment.manifests.ts";
import { renderTenant, type TenantSettings } from "../../src/modules/deployments/tenant.manifests.ts";
import { buildNamespaceOf, namespaceOf } from "../../src/shared/tenant-namespace.ts";
import { startKubeApi } from "../helpers/kube-api.ts";
import { validateManifests } from "./k8s-validate.ts";

const SETTINGS: TenantSettings = {
  ingressNamespace: "traefik",
  clusterCidrs: ["10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "169.254.169.254/32"],
  serviceAccount: { namespace: "skiff", name: "skiff" },
  clusterRole: "skiff-tenant",
};

/** A pod as the policies see it: its namespace (with the namespace's labels), its labels, its IP. */
interface Pod {
  namespace: string;
  labels: Record<string, string>;
  ip: string;
}

type Selector = { matchLabels?: Record<string, string> };
type Peer = { podSelector?: Selector; namespaceSelector?: Selector; ipBlock?: { cidr: string; except?: string[] } };
type Rule = { from?: Peer[]; to?: Peer[] };
type Policy = {
  metadata: { namespace: string };
  spec: { podSelector: Selector; policyTypes: string[]; ingress?: Rule[]; egress?: Rule[] };
};

const matches = (selector: Selector | undefined, labels: Record<string, string>) =>
  Object.entries(selector?.matchLabels ?? {}).every(([k, v]) => labels[k] === v);

/** Whether IPv4 `ip` is in `cidr`. */
function inCidr(ip: string, cidr: string): boolean {
  const [base, bits] = cidr.split("/") as [string, string];
  const n = (a: string) => a.split(".").reduce((x, o) => x * 256 + Number(o), 0);
  const size = 2 ** (32 - Number(bits));
  return Math.floor(n(ip) / size) === Math.floor(n(base) / size);
}

/** Whether `peer` (of a policy in `policyNamespace`) matches `pod`. */
function peerMatches(peer: Peer, policyNamespace: string, pod: Pod): boolean {
  if (peer.ipBlock) {
    return inCidr(pod.ip, peer.ipBlock.cidr) && !(peer.ipBlock.except ?? []).some((c) => inCidr(pod.ip, c));
  }
  const namespaceLabels = { "kubernetes.io/metadata.name": pod.namespace };
  const inNamespace = peer.namespaceSelector
    ? matches(peer.namespaceSelector, namespaceLabels)
    : pod.namespace === policyNamespace;
  return inNamespace && matches(peer.podSelector, pod.labels);
}

/** Whether the policies allow `from` → `to` (both directions must: egress of `from`, ingress of `to`). */
function allowed(policies: Policy[], from: Pod, to: Pod): boolean {
  const direction = (pod: Pod, type: "Ingress" | "Egress", other: Pod) => {
    const selecting = policies.filter(
      (p) =>
        p.metadata.namespace === pod.namespace &&
        p.spec.policyTypes.includes(type) &&
        matches(p.spec.podSelector, pod.labels),
    );
    if (selecting.length === 0) return true; // not isolated in this direction
    return selecting.some((p) =>
      (type === "Ingress" ? p.spec.ingress : p.spec.egress)?.some((rule) =>
        (type === "Ingress" ? rule.from : rule.to)?.some((peer) => peerMatches(peer, p.metadata.namespace, other)),
      ),
    );
  };
  return direction(from, "Egress", to) && direction(to, "Ingress", from);
}

const policiesOf = (objects: Manifest[]) => objects.filter((o) => o.kind === "NetworkPolicy") as unknown as Policy[];
const quotas = { applications: 5, databases: 2 };

describe("the namespace of an organization", () => {
  const orgA = newId("organization");
  const orgB = newId("organization");
  const a = renderTenant(orgA, SETTINGS, quotas, resourcesForPlan("free"));
  const b = renderTenant(orgB, SETTINGS, quotas, resourcesForPlan("free"));

  it("has a stable DNS-label name per organization", () => {
    expect(namespaceOf(orgA)).toBe(namespaceOf(orgA));
    expect(namespaceOf(orgA)).not.toBe(namespaceOf(orgB));
    expect(namespaceOf(orgA)).toMatch(/^skiff-org-[0-9a-z]{26}$/);
    expect(() => namespaceOf("org_NOT VALID")).toThrow(/not an organization id/);
  });

  it("builds get their own namespace: Pod Security privileged enforced (restricted audited), no ingress, no pod of the cluster reachable", () => {
    const builds = buildNamespaceOf(orgA);
    expect(builds).toBe(`${namespaceOf(orgA)}-build`);
    const ns = a.find((o) => o.kind === "Namespace" && o.metadata.name === builds)!;
    expect(ns.metadata.labels).toMatchObject({
      "pod-security.kubernetes.io/enforce": "privileged",
      "pod-security.kubernetes.io/audit": "restricted",
      "pod-security.kubernetes.io/warn": "restricted",
    });
    const policies = [...policiesOf(a), ...policiesOf(b)];
    const build: Pod = { namespace: builds, labels: { "app.kubernetes.io/name": "shop" }, ip: "10.42.0.7" };
    const podA: Pod = { namespace: namespaceOf(orgA), labels: { "app.kubernetes.io/name": "shop" }, ip: "10.42.0.5" };
    const dbB: Pod = { namespace: namespaceOf(orgB), labels: { "app.kubernetes.io/name": "shop-db" }, ip: "10.42.1.9" };
    const ingress: Pod = { namespace: "traefik", labels: {}, ip: "10.42.2.2" };
    const internet: Pod = { namespace: "", labels: {}, ip: "93.184.216.34" };
    expect(allowed(policies, build, internet)).toBe(true);
    expect(allowed(policies, build, podA)).toBe(false);
    expect(allowed(policies, build, dbB)).toBe(false);
    expect(allowed(policies, ingress, build)).toBe(false);
    expect(allowed(policies, podA, build)).toBe(false);
  });

  it("enforces Pod Security restricted and binds Skiff's ClusterRole in it only", () => {
    const ns = a.find((o) => o.kind === "Namespace")!;
    expect(ns.metadata.labels).toMatchObject({
      "pod-security.kubernetes.io/enforce": "restricted",
      "pod-security.kubernetes.io/audit": "restricted",
      "pod-security.kubernetes.io/warn": "restricted",
      "skiff.dev/organization": orgA,
    });
    const binding = a.find((o) => o.kind === "RoleBinding")!;
    expect(binding.metadata.namespace).toBe(namespaceOf(orgA));
    expect(binding.roleRef).toEqual({
      apiGroup: "rbac.authorization.k8s.io",
      kind: "ClusterRole",
      name: "skiff-tenant",
    });
    expect(binding.subjects).toEqual([{ kind: "ServiceAccount", namespace: "skiff", name: "skiff" }]);
  });

  it("every object validates strictly, on every plan, unlimited included", () => {
    for (const plan of ["free", "pro", "unlimited"]) {
      validateManifests(renderTenant(orgA, SETTINGS, quotas, resourcesForPlan(plan)));
    }
    validateManifests(renderTenant(orgA, SETTINGS, { applications: null, databases: 3 }, resourcesForPlan("pro")));
    // Gateway API routing: a ReferenceGrant for the Gateway's namespace, in the tenant namespace only.
    const gateway = renderTenant(orgA, { ...SETTINGS, gatewayNamespace: "gateway" }, quotas, resourcesForPlan("free"));
    validateManifests(gateway);
    const grants = gateway.filter((o) => o.kind === "ReferenceGrant");
    expect(grants.map((g) => g.metadata.namespace)).toEqual([namespaceOf(orgA)]);
    expect(a.some((o) => o.kind === "ReferenceGrant")).toBe(false);
  });

  it("derives the ResourceQuota and LimitRange from the plan (none for an unlimited quota)", () => {
    // free: app 100m/128Mi requests, 500m/512Mi limits; build 500m/1Gi, 1/2Gi; database 100m/256Mi, 500m/512Mi.
    const ns = namespaceOf(orgA);
    const builds = buildNamespaceOf(orgA);
    const of = (kind: string, namespace: string) =>
      a.find((o) => o.kind === kind && o.metadata.namespace === namespace)!.spec as Record<string, never>;
    expect(of("ResourceQuota", ns).hard).toEqual({
      "requests.cpu": `${2 * 5 * 100 + 2 * 100}m`,
      "requests.memory": `${2 * 5 * 128 + 2 * 256}Mi`,
      "limits.cpu": `${2 * 5 * 500 + 2 * 500}m`,
      "limits.memory": `${2 * 5 * 512 + 2 * 512}Mi`,
      pods: "12",
      persistentvolumeclaims: "2",
      "requests.storage": "2Gi",
    });
    expect((of("LimitRange", ns).limits as unknown[])[0]).toEqual({
      type: "Container",
      default: { cpu: "500m", memory: "512Mi" },
      defaultRequest: { cpu: "100m", memory: "128Mi" },
      max: { cpu: "500m", memory: "512Mi" },
    });
    // The build namespace: one build per application of the plan, the plan's build resources.
    expect(of("ResourceQuota", builds).hard).toEqual({
      "requests.cpu": `${5 * 500}m`,
      "requests.memory": `${5 * 1024}Mi`,
      "limits.cpu": `${5 * 1000}m`,
      "limits.memory": `${5 * 2048}Mi`,
      pods: "5",
      persistentvolumeclaims: "0",
    });
    expect((of("LimitRange", builds).limits as unknown[])[0]).toEqual({
      type: "Container",
      default: { cpu: "1", memory: "2Gi" },
      defaultRequest: { cpu: "500m", memory: "1Gi" },
      max: { cpu: "1", memory: "2Gi" },
    });
    const unlimited = renderTenant(orgA, SETTINGS, { applications: null, databases: null }, resourcesForPlan("pro"));
    expect(unlimited.some((o) => o.kind === "ResourceQuota")).toBe(false);
  });

  it("isolates tenants: no policy admits a pod of A to B's namespace, or lets it out to B's pods", () => {
    const policies = [...policiesOf(a), ...policiesOf(b)];
    const podA: Pod = { namespace: namespaceOf(orgA), labels: { "app.kubernetes.io/name": "shop" }, ip: "10.42.0.5" };
    const dbA: Pod = { namespace: namespaceOf(orgA), labels: { "app.kubernetes.io/name": "shop-db" }, ip: "10.42.0.6" };
    const dbB: Pod = { namespace: namespaceOf(orgB), labels: { "app.kubernetes.io/name": "shop-db" }, ip: "10.42.1.9" };
    const ingress: Pod = { namespace: "traefik", labels: { "app.kubernetes.io/name": "traefik" }, ip: "10.42.2.2" };
    const dns: Pod = { namespace: "kube-system", labels: { "k8s-app": "kube-dns" }, ip: "10.43.0.10" };
    const internet: Pod = { namespace: "", labels: {}, ip: "93.184.216.34" };
    const metadataService: Pod = { namespace: "", labels: {}, ip: "169.254.169.254" };

    expect(allowed(policies, podA, dbB)).toBe(false);
    expect(allowed(policies, dbB, podA)).toBe(false);
    expect(allowed(policies, podA, dbA)).toBe(true);
    expect(allowed(policies, ingress, podA)).toBe(true);
    expect(allowed(policies, ingress, dbB)).toBe(true); // the controller reaches every tenant (it routes to them)
    expect(allowed(policies, podA, dns)).toBe(true);
    expect(allowed(policies, podA, internet)).toBe(true);
    expect(allowed(policies, podA, metadataService)).toBe(false);
    // No peer of any of B's policies matches a pod of A, whatever its labels.
    for (const p of policiesOf(b)) {
      for (const rule of p.spec.ingress ?? []) {
        for (const peer of rule.from ?? []) expect(peerMatches(peer, p.metadata.namespace, podA)).toBe(false);
      }
    }
  });
});

describe("applying a tenant namespace", () => {
  it("the Namespace (cluster-scoped) and the objects in it apply server-side, field manager skiff", async () => {
    const kube = await startKubeApi();
    const dir = mkdtempSync(join(tmpdir(), "skiff-kubeconfig-"));
    try {
      kube.writeKubeconfig(join(dir, "kubeconfig"), "skiff-apps");
      const { connectCluster } = await import("../../src/modules/deployments/cluster.kubernetes.ts");
      const cluster = connectCluster({ KUBECONFIG: join(dir, "kubeconfig"), SKIFF_ROLLOUT_TIMEOUT: 30 });
      const org = newId("organization");
      const objects = renderTenant(org, SETTINGS, quotas, resourcesForPlan("pro"));
      for (const object of objects) await cluster.apply(object, cluster.namespace);
      const ns = namespaceOf(org);
      expect(kube.namespaces()).toEqual([ns, buildNamespaceOf(org)]);
      for (const namespace of [ns, buildNamespaceOf(org)]) {
        expect(
          kube
            .objects()
            .filter((o) => o.metadata.namespace === namespace)
            .map((o) => o.kind),
        ).toEqual(["RoleBinding", "NetworkPolicy", "ResourceQuota", "LimitRange"]);
      }
      const patches = kube.requests.filter((r) => r.method === "PATCH");
      expect(patches.map((r) => r.path)).toContain(`/api/v1/namespaces/${ns}`);
      expect(patches.every((r) => r.query.get("fieldManager") === "skiff")).toBe(true);
      expect(kube.objects().some((o) => o.metadata.namespace === "skiff-apps")).toBe(false);
    } finally {
      await kube.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
