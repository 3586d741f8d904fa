/**
 * Skiff's own Kubernetes manifests (deploy/): every object of the base and of each overlay (built
 * with `kubectl kustomize`, kustomize v5; without kubectl those tests skip, and fail under CI) validates against the Kubernetes schemas
 * (kubernetes-models), and the pieces fit: N ≥ 2 replicas; a PodDisruptionBudget, Service and Deployment
 * selecting the same pods; the Ingress pointing at the Service's port; probes on /readyz and /healthz; the
 * migration init step; secrets only from the `skiff` Secret; restrictive securityContext and limits; the
 * deployer's RBAC granting exactly what deployer.kubernetes.ts does to every kind the renderer produces (a
 * ClusterRole bound by Skiff per tenant namespace), and cluster-wide only namespaces and the RoleBindings of that
 * ClusterRole; the tenant settings matching the ServiceAccount and the ingress namespace; no `:latest` image.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { parseAllDocuments, parse as parseYaml } from "yaml";
import { loadConfig } from "../../src/config.ts";
import { MANAGED_KINDS } from "../../src/modules/deployments/cluster.kinds.ts";
import {
  type Manifest,
  renderManifests,
  resourcesForPlan,
  routingSettings,
} from "../../src/modules/deployments/deployment.manifests.ts";
import { renderTenant } from "../../src/modules/deployments/tenant.manifests.ts";
import { findProgram, skipReason } from "../helpers/required-tool.ts";
import { validateManifests } from "./k8s-validate.ts";

const DEPLOY = join(process.cwd(), "deploy");

/** Every YAML document of `text` as objects (@throws on a YAML error). */
function documents(text: string): Manifest[] {
  return parseAllDocuments(text).map((d) => {
    if (d.errors.length) throw new Error(d.errors.map((e) => e.message).join("; "));
    return d.toJS() as Manifest;
  });
}

/** The base's objects, read file by file in the order of its kustomization. */
function baseObjects(): Manifest[] {
  const kustomization = parseYaml(readFileSync(join(DEPLOY, "base", "kustomization.yaml"), "utf8")) as {
    resources: string[];
  };
  const files = readdirSync(join(DEPLOY, "base")).filter((f) => f !== "kustomization.yaml");
  expect([...kustomization.resources].sort()).toEqual(files.sort()); // no file left out, none missing
  return kustomization.resources.flatMap((f) => documents(readFileSync(join(DEPLOY, "base", f), "utf8")));
}

/**
 * kubectl (its `kustomize` is kustomize v5; Debian's `kubernetes-client` is too old for these kustomizations):
 * $KUBECTL, else `kubectl` on PATH. `.ci/run` installs one when none on PATH builds the overlays.
 */
const KUBECTL = findProgram("KUBECTL", ["kubectl"]);
const skip = skipReason(
  KUBECTL,
  "the kustomize overlay tests",
  "no kubectl (install one with kustomize v5, as .ci/run does, or set KUBECTL)",
);

/** `kubectl kustomize <dir>`'s objects. @throws when kustomize refuses the directory. */
function kustomize(dir: string, ...flags: string[]): Manifest[] {
  return documents(execFileSync(KUBECTL!, ["kustomize", ...flags, dir], { encoding: "utf8" }));
}

/** `kubectl kustomize` of an overlay (in a temporary directory) of the base with `components`. */
function withComponents(components: string[]): Manifest[] {
  const dir = mkdtempSync(join(tmpdir(), "skiff-kustomize-"));
  try {
    const to = (path: string) => relative(dir, join(DEPLOY, path));
    writeFileSync(
      join(dir, "kustomization.yaml"),
      `resources: [${to("base")}]\ncomponents: [${components.map((c) => to(`components/${c}`)).join(", ")}]\n`,
    );
    return kustomize(dir, "--load-restrictor", "LoadRestrictionsNone");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A parsed YAML object, inspected field by field. */
// biome-ignore lint/suspicious/noExplicitAny: YAML inspected field by field.
type Obj = Record<string, any>;
const find = (objects: Manifest[], kind: string, name?: string) =>
  objects.find((o) => o.kind === kind && (!name || o.metadata.name === name)) as Obj | undefined;

/** Resource names of the kinds the renderer produces. */
const PLURAL: Record<string, string> = {
  Secret: "secrets",
  Service: "services",
  StatefulSet: "statefulsets",
  Deployment: "deployments",
  Job: "jobs",
  Ingress: "ingresses",
  HTTPRoute: "httproutes",
  Certificate: "certificates",
  PersistentVolumeClaim: "persistentvolumeclaims",
  NetworkPolicy: "networkpolicies",
  ResourceQuota: "resourcequotas",
  LimitRange: "limitranges",
  ReferenceGrant: "referencegrants",
};

/** The checks every build of deploy/ must pass; @returns the Deployment for overlay-specific checks. */
function checkSkiff(objects: Manifest[]): Obj {
  validateManifests(objects);
  const deployment = find(objects, "Deployment", "skiff")!;
  expect(deployment).toBeDefined();
  const pod = deployment.spec.template.spec;
  const labels = deployment.spec.template.metadata.labels;
  expect(deployment.spec.replicas).toBeGreaterThanOrEqual(2);
  expect(deployment.spec.selector.matchLabels).toEqual(
    Object.fromEntries(Object.entries(labels).filter(([k]) => k in deployment.spec.selector.matchLabels)),
  );

  // Service, PDB and Ingress all reach these pods.
  const matches = (selector: Record<string, string>) => Object.entries(selector).every(([k, v]) => labels[k] === v);
  const service = find(objects, "Service", "skiff")!;
  expect(matches(service.spec.selector)).toBe(true);
  const pdb = find(objects, "PodDisruptionBudget")!;
  expect(matches(pdb.spec.selector.matchLabels)).toBe(true);
  expect(pdb.spec.maxUnavailable ?? deployment.spec.replicas - pdb.spec.minAvailable).toBeLessThan(
    deployment.spec.replicas,
  );
  const ingress = find(objects, "Ingress", "skiff");
  const route = find(objects, "HTTPRoute", "skiff");
  expect(Boolean(ingress) !== Boolean(route), "an Ingress or an HTTPRoute").toBe(true);
  if (ingress) {
    const backend = ingress.spec.rules[0].http.paths[0].backend.service;
    expect(backend.name).toBe(service.metadata.name);
    expect(service.spec.ports.map((p: Obj) => p.name)).toEqual([backend.port.name]);
    expect(ingress.spec.tls[0].hosts).toEqual([ingress.spec.rules[0].host]);
    expect(ingress.spec.ingressClassName).toMatch(/^[a-z0-9.-]+$/);
  }

  // /metrics: its own container port, exposed by `skiff-metrics` only — never by the routed Service.
  const config = find(objects, "ConfigMap", "skiff-config")!;
  const [app] = pod.containers;
  const metricsPort = app.ports.find((p: Obj) => p.name === "metrics");
  expect(metricsPort.containerPort).toBe(Number(config.data.SKIFF_METRICS_PORT));
  expect(service.spec.ports.map((p: Obj) => p.targetPort)).not.toContain("metrics");
  const metricsService = find(objects, "Service", "skiff-metrics")!;
  expect(matches(metricsService.spec.selector)).toBe(true);
  expect(metricsService.spec.ports).toEqual([
    { name: "metrics", port: metricsPort.containerPort, targetPort: "metrics" },
  ]);

  // The client address: one trusted proxy (the ingress controller), and only it reaches the API port.
  const settings = loadConfig({ ...config.data, SKIFF_SECRET: "x".repeat(43) });
  expect(settings.SKIFF_TRUST_PROXY).toEqual({ kind: "hops", hops: 1 });
  const policy = find(objects, "NetworkPolicy", "skiff")!;
  expect(matches(policy.spec.podSelector.matchLabels)).toBe(true);
  expect(policy.spec.policyTypes).toEqual(["Ingress"]);
  expect(policy.spec.ingress.map((rule: Obj) => rule.ports)).toEqual([[{ port: "http" }], [{ port: "metrics" }]]);
  for (const rule of policy.spec.ingress) {
    expect(rule.from.every((peer: Obj) => peer.namespaceSelector && !peer.ipBlock)).toBe(true);
  }

  // The container: probes, secrets, limits, securityContext; the migration before it.
  expect(app.ports[0]).toMatchObject({ name: "http", containerPort: 4000 });
  expect(service.spec.ports[0].targetPort).toBe("http");
  expect(app.readinessProbe.httpGet).toMatchObject({ path: "/readyz", port: "http" });
  expect(app.livenessProbe.httpGet).toMatchObject({ path: "/healthz", port: "http" });
  expect(pod.initContainers.map((c: Obj) => [c.name, c.command])).toEqual([
    ["migrate", ["node", "scripts/migrate.ts"]],
  ]);
  expect(pod.initContainers[0].image).toBe(app.image);
  for (const c of [...pod.initContainers, ...pod.containers]) {
    expect(c.image).toMatch(/:[\w.-]+$/);
    expect(c.image).not.toMatch(/:latest$/);
    expect(c.envFrom).toEqual([{ configMapRef: { name: "skiff-config" } }, { secretRef: { name: "skiff" } }]);
    expect(c.env).toBeUndefined(); // nothing inline: settings in the ConfigMap, secrets in the Secret
    for (const k of ["requests", "limits"]) expect(Object.keys(c.resources[k]).sort()).toEqual(["cpu", "memory"]);
    expect(c.securityContext).toMatchObject({
      allowPrivilegeEscalation: false,
      privileged: false,
      readOnlyRootFilesystem: true,
      capabilities: { drop: ["ALL"] },
    });
  }
  expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, seccompProfile: { type: "RuntimeDefault" } });
  for (const secretKey of ["DATABASE_URL", "SKIFF_SECRET", "SMTP_URL", "SKIFF_GATEWAY_API_KEY"]) {
    expect(config.data[secretKey], `${secretKey} belongs in the Secret`).toBeUndefined();
  }
  expect(Number(config.data.SKIFF_SHUTDOWN_TIMEOUT) + 10).toBeLessThan(pod.terminationGracePeriodSeconds);
  expect(config.data.SKIFF_DEPLOYER).toBe("kubernetes");

  // RBAC: the ClusterRole of the kinds Skiff renders (`skiff-tenant`), bound by no binding of deploy/ — Skiff binds
  // it per tenant namespace (tenant.manifests.ts) to the account SKIFF_SERVICE_ACCOUNT names, the pods' — granting
  // what the deployer does (server-side apply: get, create, patch) and what the reconcile does (list, delete) on
  // every kind the renderer produces and the reconcile manages, plus the build pods' listing and logs. Cluster-wide:
  // namespaces, and RoleBindings that may bind `skiff-tenant` only.
  const account = pod.serviceAccountName;
  expect(find(objects, "ServiceAccount", account)).toBeDefined();
  const kubeconfig = parseYaml(find(objects, "ConfigMap", "skiff-kubeconfig")!.data.config) as Obj;
  const kubeconfigMount = app.volumeMounts.find((m: Obj) => m.name === "kubeconfig");
  expect(pod.volumes.find((v: Obj) => v.name === "kubeconfig").configMap.name).toBe("skiff-kubeconfig");
  expect(config.data.KUBECONFIG).toBe(`${kubeconfigMount.mountPath}/config`);
  expect(kubeconfig.contexts[0].context.namespace).toBe(deployment.metadata.namespace);
  expect(config.data.SKIFF_CLUSTER_DOMAIN).toBe("svc.cluster.local");
  expect(settings.SKIFF_SERVICE_ACCOUNT).toEqual({ namespace: deployment.metadata.namespace, name: account });
  const skiffPolicy = find(objects, "NetworkPolicy", "skiff")!;
  expect(skiffPolicy.spec.ingress[0].from[0].namespaceSelector.matchLabels).toEqual({
    "kubernetes.io/metadata.name": settings.SKIFF_TENANT_INGRESS_NAMESPACE,
  });
  const role = find(objects, "ClusterRole", "skiff-tenant")!;
  const bindings = objects.filter((o) => o.kind === "ClusterRoleBinding" || o.kind === "RoleBinding");
  const bound = (name: string) => bindings.filter((b) => (b as Obj).roleRef.name === name);
  expect(bindings.filter((b) => b.kind === "ClusterRoleBinding").map((b) => (b as Obj).roleRef.name)).toEqual([
    "skiff-namespaces",
  ]);
  expect(bound("skiff-tenant").every((b) => b.kind === "RoleBinding")).toBe(true);
  for (const binding of bindings) {
    expect(binding.subjects).toEqual([
      { kind: "ServiceAccount", name: account, namespace: deployment.metadata.namespace },
    ]);
  }
  const clusterWide = find(objects, "ClusterRole", "skiff-namespaces")!;
  expect(clusterWide.rules).toEqual([
    { apiGroups: [""], resources: ["namespaces"], verbs: ["get", "list", "create", "patch", "delete"] },
    { apiGroups: ["rbac.authorization.k8s.io"], resources: ["rolebindings"], verbs: ["get", "create", "patch"] },
    {
      apiGroups: ["rbac.authorization.k8s.io"],
      resources: ["clusterroles"],
      verbs: ["bind"],
      resourceNames: ["skiff-tenant"],
    },
  ]);
  // What the tenant namespaces hold binds that role, and everything in them is allowed by it.
  const tenant = renderTenant(
    "organization_01jrbac00000000000000000",
    {
      ingressNamespace: settings.SKIFF_TENANT_INGRESS_NAMESPACE,
      clusterCidrs: settings.SKIFF_TENANT_BLOCKED_CIDRS,
      serviceAccount: settings.SKIFF_SERVICE_ACCOUNT,
      clusterRole: "skiff-tenant",
      gatewayNamespace: "gateway",
    },
    { applications: 3, databases: 1 },
    resourcesForPlan("free"),
  );
  for (const binding of tenant.filter((o) => o.kind === "RoleBinding")) {
    expect(binding.roleRef).toEqual({
      apiGroup: "rbac.authorization.k8s.io",
      kind: "ClusterRole",
      name: "skiff-tenant",
    });
    expect(binding.subjects).toEqual([
      { kind: "ServiceAccount", name: account, namespace: deployment.metadata.namespace },
    ]);
  }
  const allowed = (group: string, resource: string, verb: string) =>
    role.rules.some(
      (r: Obj) => r.apiGroups.includes(group) && r.resources.includes(resource) && r.verbs.includes(verb),
    );
  const rendered = (["ingress", "gateway"] as const).flatMap((kind) =>
    renderManifests({
      deploymentId: "deployment_01jrbac00000000000000000",
      application: {
        appName: "shop",
        sourceType: "github",
        buildType: "nixpacks",
        port: 3000,
        source: { repo: "acme/shop" },
      },
      domains: [{ host: "shop.example.com", port: null, https: true }],
      env: {},
      databases: [{ type: "postgres", name: "s", username: "u", password: "p", serviceHost: "shop-db.svc" }],
      registry: "registry.example.com/acme",
      registryAuth: { username: "u", password: "p" },
      routing: routingSettings(loadConfig({ SKIFF_ROUTING: kind })),
    }),
  );
  const kinds = new Set(rendered.map((m) => `${m.apiVersion}/${m.kind}`));
  expect(kinds.size).toBe(8);
  for (const kind of kinds) {
    const parts = kind.split("/"); // [group, version, Kind] or [version, Kind] for the core group
    const group = parts.length === 3 ? parts[0]! : "";
    const plural = PLURAL[parts.at(-1)!];
    expect(plural, `the plural of ${kind}`).toBeDefined();
    for (const verb of ["get", "create", "patch", "list", "delete"]) {
      expect(allowed(group, plural!, verb), `${verb} ${kind}`).toBe(true);
    }
  }
  for (const [apiVersion, kind] of MANAGED_KINDS) {
    const group = apiVersion.includes("/") ? apiVersion.split("/")[0]! : "";
    for (const verb of ["list", "delete"]) expect(allowed(group, PLURAL[kind]!, verb), `${verb} ${kind}`).toBe(true);
  }
  for (const kind of new Set(tenant.map((o) => o.kind))) {
    if (kind === "Namespace" || kind === "RoleBinding") continue; // cluster-wide: skiff-namespaces
    const group = { NetworkPolicy: "networking.k8s.io", ReferenceGrant: "gateway.networking.k8s.io" }[kind] ?? "";
    for (const verb of ["get", "create", "patch"])
      expect(allowed(group, PLURAL[kind]!, verb), `${verb} ${kind}`).toBe(true);
  }
  expect(allowed("", "pods", "list")).toBe(true);
  expect(allowed("", "pods/log", "get")).toBe(true);
  expect(allowed("", "pods", "delete")).toBe(false);
  expect(role.rules.flatMap((r: Obj) => r.verbs)).not.toContain("*");
  return deployment;
}

describe("deploy/ (Skiff on Kubernetes)", () => {
  it("the base validates and fits together", () => {
    const objects = baseObjects();
    expect(objects.map((o) => o.kind).sort()).toEqual([
      "ClusterRole",
      "ClusterRole",
      "ClusterRoleBinding",
      "ConfigMap",
      "ConfigMap",
      "Deployment",
      "Ingress",
      "Namespace",
      "NetworkPolicy",
      "PodDisruptionBudget",
      "Service",
      "Service",
      "ServiceAccount",
    ]);
    checkSkiff(objects);
  });

  for (const overlay of readdirSync(join(DEPLOY, "overlays"))) {
    it.skipIf(skip !== null)(`the ${overlay} overlay builds with kustomize, validates and fits together`, () => {
      const objects = kustomize(join(DEPLOY, "overlays", overlay));
      const deployment = checkSkiff(objects);
      expect(deployment.spec.template.spec.containers[0].image).toMatch(/^registry\.example\.com\/platform\/skiff:/);
      const config = find(objects, "ConfigMap", "skiff-config")!;
      const ingress = find(objects, "Ingress", "skiff")!;
      expect(config.data.SKIFF_BASE_URL).toBe(`https://${ingress.spec.rules[0].host}`);
    });
  }

  it.skipIf(skip !== null)("the gateway-api and service-monitor components build, validate and fit together", () => {
    expect(readdirSync(join(DEPLOY, "components")).sort()).toEqual([
      "gateway-api",
      "legacy-skiff-apps",
      "service-monitor",
    ]);
    const objects = withComponents(["gateway-api", "service-monitor"]);
    checkSkiff(objects);
    expect(find(objects, "Ingress")).toBeUndefined();
    const config = find(objects, "ConfigMap", "skiff-config")!;
    const settings = loadConfig({ ...config.data, SKIFF_SECRET: "x".repeat(43) });
    expect(settings.SKIFF_ROUTING).toBe("gateway");
    const service = find(objects, "Service", "skiff")!;
    const route = find(objects, "HTTPRoute", "skiff")!;
    expect(route.spec.parentRefs[0]).toMatchObject(settings.SKIFF_HTTPROUTE_GATEWAY);
    expect(route.spec.rules[0].backendRefs).toEqual([{ name: "skiff", port: service.spec.ports[0].port }]);
    expect(`https://${route.spec.hostnames[0]}`).toBe(config.data.SKIFF_BASE_URL);
    const certificate = find(objects, "Certificate", "skiff")!;
    expect(certificate.spec.dnsNames).toEqual(route.spec.hostnames);
    const grant = find(objects, "ReferenceGrant")!;
    expect(grant.spec.from[0].namespace).toBe(settings.SKIFF_HTTPROUTE_GATEWAY.namespace);
    expect(grant.spec.to).toEqual([{ group: "", kind: "Secret", name: certificate.spec.secretName }]);
    const monitor = find(objects, "ServiceMonitor", "skiff")!;
    const metrics = find(objects, "Service", "skiff-metrics")!;
    const selects = (s: Obj) =>
      Object.entries(monitor.spec.selector.matchLabels).every(([k, v]) => s.metadata.labels?.[k] === v);
    expect(objects.filter((o) => o.kind === "Service").filter(selects)).toEqual([metrics]);
    expect(monitor.spec.endpoints[0]).toMatchObject({ port: metrics.spec.ports[0].name, path: "/metrics" });
  });

  it.skipIf(skip !== null)("the legacy-skiff-apps component keeps Skiff's rights in skiff-apps and names it", () => {
    const objects = withComponents(["legacy-skiff-apps"]);
    checkSkiff(objects);
    const config = find(objects, "ConfigMap", "skiff-config")!;
    expect(loadConfig({ ...config.data, SKIFF_SECRET: "x".repeat(43) }).SKIFF_LEGACY_NAMESPACE).toBe("skiff-apps");
    const binding = find(objects, "RoleBinding", "skiff-deployer")!;
    expect(binding.metadata.namespace).toBe("skiff-apps");
    expect(binding.roleRef.name).toBe("skiff-tenant");
    // Without it: no legacy namespace, no right there.
    const base = baseObjects();
    expect(find(base, "ConfigMap", "skiff-config")!.data.SKIFF_LEGACY_NAMESPACE).toBe("");
    expect(find(base, "RoleBinding")).toBeUndefined();
  });

  it("a broken manifest is refused (the validation is real)", () => {
    const objects = baseObjects();
    const pdb = find(objects, "PodDisruptionBudget")!;
    pdb.spec.maxUnavailable = { not: "a number" };
    expect(() => validateManifests(objects)).toThrow(/PodDisruptionBudget/);
    const misspelt = baseObjects();
    find(misspelt, "Deployment", "skiff")!.spec.template.spec.containers[0].livenesProbe = {};
    expect(() => validateManifests(misspelt)).toThrow(
      "Deployment/skiff has fields its schema does not know: /spec/template/spec/containers/0/livenesProbe",
    );
  });
});
