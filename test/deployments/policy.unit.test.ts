/**
 * Policy over every rendered workload, for every source type × build type and every database
 * type: no `:latest` or untagged image among the images Skiff chooses, nothing privileged, every container with
 * cpu and memory requests and limits, a securityContext on every pod and container (non-root, no privilege
 * escalation, every capability dropped, seccomp `RuntimeDefault`, read-only root filesystem) — the build container
 * being the one documented exception (rootless BuildKit: see deployment.manifests.ts) — and readiness/liveness
 * probes on the app (from `healthPath`) and on each database. Also: the stored (redacted) copy carries none of the
 * planted secret values, plan resources are overridable, and every rendered object — for every source type, database
 * type, plan and routing choice — validates strictly against its Kubernetes (or Gateway API, cert-manager) schema,
 * unknown fields refused (k8s-validate.ts), which a misspelt field proves.
 */
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.ts";
import {
  BUILD_IMAGES,
  DEFAULT_ROUTING,
  type Manifest,
  PLAN_RESOURCES,
  REDACTED,
  type RenderInput,
  type RoutingSettings,
  redactManifests,
  renderManifests,
  resourcesForPlan,
  routingSettings,
} from "../../src/modules/deployments/deployment.manifests.ts";
import { validateManifests } from "./k8s-validate.ts";

const SECRETS = {
  env: "env-value-5b1e9d",
  db: "db-password-0c7a41",
  registry: "registry-password-93fd02",
  ssh: "-----BEGIN OPENSSH PRIVATE KEY-----\nssh-key-body-4e8b7a\n-----END OPENSSH PRIVATE KEY-----",
};

const base: RenderInput = {
  deploymentId: "deployment_01jpolicy000000000000000",
  application: {
    appName: "shop-7k2mq3",
    sourceType: "docker",
    buildType: null,
    port: 3000,
    healthPath: "/healthz",
    source: { dockerImage: "nginx:1.27" },
  },
  domains: [
    { host: "shop.example.com", port: null, https: true },
    { host: "plain.shop.example.com", port: 8080, https: false },
  ],
  env: { API_KEY: SECRETS.env },
  databases: (["postgres", "mysql", "mariadb", "mongodb"] as const).map((type) => ({
    type,
    name: "shop",
    username: "shop_user",
    password: SECRETS.db,
    serviceHost: `shop-${type}-db.svc.cluster.local`,
  })),
  registry: "registry.example.com/acme",
  registryAuth: { username: "robot", password: SECRETS.registry },
  commitSha: "0123456789abcdef0123456789abcdef01234567",
  resources: resourcesForPlan("pro"),
  buildTimeoutSeconds: 900,
};

const sources: Array<[string, RenderInput["application"], string | null]> = [
  ["docker", base.application, null],
  [
    "github + nixpacks",
    { ...base.application, sourceType: "github", buildType: "nixpacks", source: { repo: "acme/shop" } },
    null,
  ],
  [
    "github + dockerfile",
    { ...base.application, sourceType: "github", buildType: "dockerfile", source: { repo: "acme/shop" } },
    null,
  ],
  [
    "gitlab + dockerfile",
    { ...base.application, sourceType: "gitlab", buildType: "dockerfile", source: { repo: "a/b", buildPath: "/web" } },
    null,
  ],
  [
    "git + nixpacks with an SSH key",
    {
      ...base.application,
      sourceType: "git",
      buildType: "nixpacks",
      source: { customGitUrl: "ssh://git@git.example.com/acme/shop.git" },
    },
    SECRETS.ssh,
  ],
  [
    "git + dockerfile with an SSH key",
    {
      ...base.application,
      sourceType: "git",
      buildType: "dockerfile",
      source: { customGitUrl: "ssh://git@git.example.com/acme/shop.git" },
    },
    SECRETS.ssh,
  ],
];

/** Every routing choice: Ingress with and without a class, HTTPRoute on a Gateway with and without a listener. */
const routings: Array<[string, RoutingSettings]> = [
  ["Ingress of the default class", DEFAULT_ROUTING],
  ["Ingress of class traefik", { ...DEFAULT_ROUTING, ingressClassName: "traefik", clusterIssuer: "acme-prod" }],
  [
    "HTTPRoute on a Gateway",
    routingSettings(loadConfig({ SKIFF_ROUTING: "gateway", SKIFF_HTTPROUTE_GATEWAY: "gateway/public" })),
  ],
  [
    "HTTPRoute on a Gateway's listener",
    routingSettings(
      loadConfig({ SKIFF_ROUTING: "gateway", SKIFF_HTTPROUTE_LISTENER: "https", SKIFF_CERT_ISSUER: "acme-prod" }),
    ),
  ],
];

interface Container {
  name: string;
  image: string;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: Record<string, unknown> & { capabilities?: { drop?: string[]; add?: string[] } };
  readinessProbe?: Record<string, unknown>;
  livenessProbe?: Record<string, unknown>;
}
interface PodSpec {
  securityContext?: Record<string, unknown> & { seccompProfile?: { type: string } };
  containers: Container[];
  initContainers?: Container[];
  hostNetwork?: boolean;
  hostPID?: boolean;
  hostIPC?: boolean;
}

/** Every pod template of `manifests` with its owner. */
function podsOf(manifests: Manifest[]): Array<{ owner: Manifest; pod: PodSpec }> {
  return manifests
    .filter((m) => ["Deployment", "StatefulSet", "Job"].includes(m.kind))
    .map((owner) => ({ owner, pod: (owner.spec as { template: { spec: PodSpec } }).template.spec }));
}

/** The policy violations of `manifests` (empty when it passes). */
function violations(manifests: Manifest[], userImage: string | null): string[] {
  const found: string[] = [];
  for (const { owner, pod } of podsOf(manifests)) {
    const where = `${owner.kind}/${owner.metadata.name}`;
    if (pod.hostNetwork || pod.hostPID || pod.hostIPC) found.push(`${where}: host namespaces`);
    if (!pod.securityContext) found.push(`${where}: no pod securityContext`);
    const isBuild = owner.kind === "Job";
    for (const c of [...(pod.initContainers ?? []), ...pod.containers]) {
      const at = `${where} ${c.name}`;
      const sc = c.securityContext;
      if (c.image !== userImage) {
        if (!/^[^:@]+(:[^:/@]+)?(@sha256:[0-9a-f]{64})?$/.test(c.image) || !/[:@]/.test(c.image.split("/").at(-1)!)) {
          found.push(`${at}: image ${c.image} has no tag or digest`);
        }
        if (/:latest(@|$)/.test(c.image)) found.push(`${at}: image ${c.image} is :latest`);
      }
      for (const kind of ["requests", "limits"] as const) {
        for (const r of ["cpu", "memory"]) if (!c.resources?.[kind]?.[r]) found.push(`${at}: no ${kind}.${r}`);
      }
      if (!sc) {
        found.push(`${at}: no securityContext`);
        continue;
      }
      if (sc.privileged !== false) found.push(`${at}: privileged not false`);
      if ((sc.runAsNonRoot ?? pod.securityContext?.runAsNonRoot) !== true) found.push(`${at}: may run as root`);
      if ((sc.runAsUser ?? pod.securityContext?.runAsUser) === 0) found.push(`${at}: runs as uid 0`);
      if (sc.capabilities?.add?.length) found.push(`${at}: adds capabilities`);
      const exception = isBuild && c.name === "build"; // rootless BuildKit (deployment.manifests.ts)
      if (!exception) {
        if (sc.allowPrivilegeEscalation !== false) found.push(`${at}: privilege escalation allowed`);
        if (!sc.capabilities?.drop?.includes("ALL")) found.push(`${at}: capabilities not dropped`);
        const seccomp =
          (sc.seccompProfile as { type?: string } | undefined)?.type ?? pod.securityContext?.seccompProfile?.type;
        if (seccomp !== "RuntimeDefault" && !isBuild) found.push(`${at}: seccomp ${seccomp}`);
      }
      if (!isBuild) {
        if (sc.readOnlyRootFilesystem !== true) found.push(`${at}: writable root filesystem`);
        // Init containers run to completion before the pod serves: Kubernetes refuses probes on them.
        if (pod.initContainers?.includes(c)) continue;
        if (!c.readinessProbe) found.push(`${at}: no readinessProbe`);
        if (!c.livenessProbe) found.push(`${at}: no livenessProbe`);
      }
    }
  }
  return found;
}

describe("workload policy", () => {
  for (const [label, application, ssh] of sources) {
    it(`holds for a ${label} source with every database type`, () => {
      const manifests = renderManifests({ ...base, application, sshPrivateKey: ssh });
      validateManifests(manifests);
      const userImage = application.sourceType === "docker" ? (application.source.dockerImage ?? null) : null;
      expect(violations(manifests, userImage)).toEqual([]);
      expect(podsOf(manifests).map((p) => p.owner.kind)).toEqual([
        "StatefulSet",
        "StatefulSet",
        "StatefulSet",
        "StatefulSet",
        ...(application.sourceType === "docker" ? [] : ["Job"]),
        "Deployment",
      ]);

      const app = podsOf(manifests).find((p) => p.owner.kind === "Deployment")!.pod.containers[0]!;
      expect(app.readinessProbe).toMatchObject({ httpGet: { path: "/healthz", port: 3000 } });
      expect(app.livenessProbe).toMatchObject({ httpGet: { path: "/healthz", port: 3000 } });
      expect(app.resources).toEqual(PLAN_RESOURCES.pro!.app);

      const job = manifests.find((m) => m.kind === "Job") as
        | (Manifest & { spec: { activeDeadlineSeconds: number; template: { spec: PodSpec } } })
        | undefined;
      if (job) {
        expect(job.spec.activeDeadlineSeconds).toBe(900);
        const build = job.spec.template.spec.containers[0]!;
        expect(build.image).toBe(BUILD_IMAGES.buildkit);
        expect(JSON.stringify(build)).toContain("buildctl-daemonless.sh");
        expect(JSON.stringify(job)).not.toMatch(/docker push|kaniko/);
      }

      // The stored copy: every planted secret gone, the structure kept, still valid.
      const stored = redactManifests(manifests);
      validateManifests(stored);
      const text = JSON.stringify(stored);
      const registryAuth = Buffer.from(`robot:${SECRETS.registry}`).toString("base64");
      for (const value of [SECRETS.env, SECRETS.db, SECRETS.registry, registryAuth, "ssh-key-body-4e8b7a"]) {
        expect(text).not.toContain(value);
      }
      expect(JSON.stringify(manifests)).toContain(SECRETS.db); // the render itself carries them (the check is real)
      expect(stored.filter((m) => m.kind === "Secret").length).toBe(
        manifests.filter((m) => m.kind === "Secret").length,
      );
      for (const secret of stored.filter((m) => m.kind === "Secret")) {
        expect(Object.values(secret.stringData as Record<string, string>).every((v) => v === REDACTED)).toBe(true);
      }
    });
  }

  it("finds the violations it is meant to find (the check is real)", () => {
    const manifests = renderManifests(base);
    const deployment = manifests.find((m) => m.kind === "Deployment") as Manifest & {
      spec: { template: { spec: PodSpec } };
    };
    const c = deployment.spec.template.spec.containers[0]!;
    c.image = "registry.example.com/acme/shop:latest";
    c.resources = { requests: { cpu: "1" } };
    c.securityContext = { ...c.securityContext, privileged: true };
    delete c.readinessProbe;
    expect(violations(manifests, "nginx:1.27")).toEqual([
      `Deployment/shop-7k2mq3 app: image registry.example.com/acme/shop:latest is :latest`,
      "Deployment/shop-7k2mq3 app: no requests.memory",
      "Deployment/shop-7k2mq3 app: no limits.cpu",
      "Deployment/shop-7k2mq3 app: no limits.memory",
      "Deployment/shop-7k2mq3 app: privileged not false",
      "Deployment/shop-7k2mq3 app: no readinessProbe",
    ]);
  });

  it("keys registry credentials by registry host (Docker Hub by its index URL)", () => {
    const github = sources[2]![1];
    for (const [registry, key] of [
      ["registry.example.com/acme", "registry.example.com"],
      ["ghcr.io/acme/team", "ghcr.io"],
      ["docker.io/acme", "https://index.docker.io/v1/"],
    ] as const) {
      const secret = renderManifests({ ...base, application: github, registry }).find(
        (m) => m.type === "kubernetes.io/dockerconfigjson",
      )!;
      const config = JSON.parse((secret.stringData as Record<string, string>)[".dockerconfigjson"]!);
      expect(Object.keys(config.auths)).toEqual([key]);
      expect(Buffer.from(config.auths[key].auth, "base64").toString()).toBe(`robot:${SECRETS.registry}`);
    }
  });

  it("takes resources per plan, overridable per plan and for every plan", () => {
    expect(resourcesForPlan("free")).toEqual(PLAN_RESOURCES.free);
    expect(resourcesForPlan("no-such-plan")).toEqual(PLAN_RESOURCES.free);
    const { SKIFF_WORKLOAD_RESOURCES: overrides } = loadConfig({
      SKIFF_WORKLOAD_RESOURCES: JSON.stringify({
        "*": { build: { limits: { memory: "6Gi" } } },
        pro: { app: { requests: { cpu: "300m" } } },
      }),
    });
    const pro = resourcesForPlan("pro", overrides);
    expect(pro.app).toEqual({ ...PLAN_RESOURCES.pro!.app, requests: { cpu: "300m", memory: "256Mi" } });
    expect(pro.build.limits).toEqual({ cpu: "2", memory: "6Gi" });
    expect(resourcesForPlan("free", overrides).app).toEqual(PLAN_RESOURCES.free!.app);
    expect(() => loadConfig({ SKIFF_WORKLOAD_RESOURCES: '{"pro":{"app":{"limits":{"cpu":"lots"}}}}' })).toThrow(
      /SKIFF_WORKLOAD_RESOURCES/,
    );
    expect(() => loadConfig({ SKIFF_WORKLOAD_RESOURCES: "not json" })).toThrow(/SKIFF_WORKLOAD_RESOURCES/);
  });
});

describe("strict schema validation", () => {
  for (const [label, application, ssh] of sources) {
    for (const [routingLabel, routing] of routings) {
      it(`every object of a ${label} source with every database type, on every plan, routed by ${routingLabel}`, () => {
        for (const plan of Object.keys(PLAN_RESOURCES)) {
          const input = { ...base, application, sshPrivateKey: ssh, resources: resourcesForPlan(plan), routing };
          const manifests = renderManifests(input);
          validateManifests(manifests);
          validateManifests(redactManifests(manifests));
          const kinds = manifests.map((m) => m.kind);
          expect(kinds.filter((k) => k === "StatefulSet")).toHaveLength(4);
          if (routing.kind === "gateway") {
            expect(kinds.filter((k) => k === "HTTPRoute")).toHaveLength(2);
            expect(kinds.filter((k) => k === "Certificate")).toHaveLength(1); // the https domain's
            expect(kinds).not.toContain("Ingress");
          } else {
            expect(kinds.filter((k) => k === "Ingress")).toHaveLength(2);
          }
        }
      });
    }
  }

  it("refuses a misspelt field anywhere (the strict validation is real)", () => {
    const gateway = renderManifests({ ...base, routing: routings[3]![1] });
    const ingress = renderManifests({ ...base, routing: routings[1]![1] });
    validateManifests([...gateway, ...ingress]);
    // biome-ignore lint/suspicious/noExplicitAny: fields set by path on a copy.
    const misspell = (manifests: Manifest[], kind: string, change: (m: any) => void) => {
      const copy = structuredClone(manifests.find((m) => m.kind === kind)!);
      change(copy);
      return () => validateManifests([copy]);
    };
    const cases: Array<[() => void, string]> = [
      [
        misspell(gateway, "Deployment", (m) => {
          m.spec.template.spec.containers[0].readinesProbe = m.spec.template.spec.containers[0].readinessProbe;
        }),
        "/spec/template/spec/containers/0/readinesProbe",
      ],
      [
        misspell(gateway, "StatefulSet", (m) => {
          m.spec.volumeClaimTemplates[0].spec.acessModes = ["ReadWriteOnce"];
        }),
        "/spec/volumeClaimTemplates/0/spec/acessModes",
      ],
      [
        misspell(gateway, "HTTPRoute", (m) => {
          m.spec.rules[0].backendRefs[0].prot = 80;
        }),
        "/spec/rules/0/backendRefs/0/prot",
      ],
      [
        misspell(gateway, "Certificate", (m) => {
          m.spec.dnsName = ["shop.example.com"];
        }),
        "/spec/dnsName",
      ],
      [
        misspell(ingress, "Ingress", (m) => {
          m.spec.ingressClass = "traefik";
        }),
        "/spec/ingressClass",
      ],
      [
        misspell(ingress, "Service", (m) => {
          m.metadata.label = { a: "b" };
        }),
        "/metadata/label",
      ],
    ];
    for (const [validate, path] of cases) {
      expect(validate).toThrow(`fields its schema does not know: ${path}`);
    }
    // Keys of maps (labels, annotations, a Secret's data) are free, as in the schema.
    const secret = structuredClone(gateway.find((m) => m.kind === "Secret")!);
    (secret.stringData as Record<string, string>).ANY_NAME = "x";
    secret.metadata.labels = { ...secret.metadata.labels, "example.com/any": "x" };
    validateManifests([secret]);
  });

  it("routes each domain by the routing choice, TLS by cert-manager for https domains", () => {
    const of = (routing: RoutingSettings, kind: string) =>
      // biome-ignore lint/suspicious/noExplicitAny: rendered objects inspected field by field.
      renderManifests({ ...base, routing }).filter((m) => m.kind === kind) as any[];
    const [plainDefault] = of(DEFAULT_ROUTING, "Ingress").filter((m) => !m.spec.tls);
    expect(plainDefault.spec.ingressClassName).toBeUndefined();
    expect(plainDefault.metadata.annotations).toBeUndefined();
    const [secure, plain] = of(routings[1]![1], "Ingress");
    expect(secure.spec.ingressClassName).toBe("traefik");
    expect(secure.metadata.annotations).toEqual({ "cert-manager.io/cluster-issuer": "acme-prod" });
    expect(secure.spec.tls).toEqual([{ hosts: ["shop.example.com"], secretName: "shop-example-com-951623a2-tls" }]);
    expect(plain.spec.rules[0].http.paths[0].backend.service.port).toEqual({ number: 8080 });

    const routes = of(routings[2]![1], "HTTPRoute");
    expect(routes.map((r) => r.spec.hostnames)).toEqual([["shop.example.com"], ["plain.shop.example.com"]]);
    expect(routes[0].spec.parentRefs).toEqual([
      { group: "gateway.networking.k8s.io", kind: "Gateway", name: "public", namespace: "gateway" },
    ]);
    expect(routes.map((r) => r.spec.rules[0].backendRefs)).toEqual([
      [{ name: "shop-7k2mq3", port: 80 }],
      [{ name: "shop-7k2mq3", port: 8080 }],
    ]);
    expect(of(routings[3]![1], "HTTPRoute")[0].spec.parentRefs[0]).toMatchObject({
      name: "skiff",
      namespace: "skiff",
      sectionName: "https",
    });
    const [certificate] = of(routings[3]![1], "Certificate");
    expect(certificate.spec).toEqual({
      secretName: "shop-example-com-951623a2-tls",
      dnsNames: ["shop.example.com"],
      issuerRef: { group: "cert-manager.io", kind: "ClusterIssuer", name: "acme-prod" },
    });
    expect(() => loadConfig({ SKIFF_ROUTING: "nginx" })).toThrow(/SKIFF_ROUTING/);
    expect(() => loadConfig({ SKIFF_HTTPROUTE_GATEWAY: "public" })).toThrow(/SKIFF_HTTPROUTE_GATEWAY/);
    expect(() => loadConfig({ SKIFF_INGRESS_CLASS: "Not A Class" })).toThrow(/SKIFF_INGRESS_CLASS/);
  });
});
