/**
 * Renders an application's desired state as Kubernetes objects (issue 12 "Lifecycle"): a `Deployment`, a
 * `Service`, one `Ingress` per domain (TLS through cert-manager when the domain is `https`), a `Secret` holding the
 * environment variables, for each database of the application's environment a `StatefulSet` + headless-free
 * `Service` named after the first label of its `serviceHost` (so `DB_HOST` resolves) with a `Secret` for its
 * password, and for git sources a build `Job` (kaniko for `dockerfile`, nixpacks otherwise) that pushes the image
 * to the organization's container registry. Pure: plain objects, no cluster access.
 */
import type { DatabaseType } from "../databases/database.model.ts";

/** A rendered Kubernetes object (apiVersion, kind, metadata.name always set). */
export interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [field: string]: unknown;
}

/** Everything the renderer needs; secrets are already decrypted. */
export interface RenderInput {
  deploymentId: string;
  application: {
    appName: string;
    sourceType: "github" | "gitlab" | "docker" | "git" | null;
    buildType: "dockerfile" | "nixpacks" | null;
    port: number;
    source: { repo?: string; branch?: string; buildPath?: string; dockerImage?: string; customGitUrl?: string };
  };
  domains: Array<{ host: string; port: number | null; https: boolean | null }>;
  env: Record<string, string>;
  databases: Array<{ type: DatabaseType; name: string; username: string; password: string; serviceHost: string }>;
  /** The organization's container registry host/path (e.g. `registry.example.com/team`), or null. */
  registry: string | null;
  /** Commit to build, when known. */
  commitSha?: string | null;
}

/** Container image and data path of each database engine. */
const DATABASE_IMAGE: Record<
  DatabaseType,
  { image: string; port: number; dataPath: string; env: (d: RenderDb) => Record<string, string> }
> = {
  postgres: {
    image: "postgres:17",
    port: 5432,
    dataPath: "/var/lib/postgresql/data",
    env: (d) => ({ POSTGRES_DB: d.name, POSTGRES_USER: d.username }),
  },
  mysql: {
    image: "mysql:8.4",
    port: 3306,
    dataPath: "/var/lib/mysql",
    env: (d) => ({ MYSQL_DATABASE: d.name, MYSQL_USER: d.username }),
  },
  mariadb: {
    image: "mariadb:11",
    port: 3306,
    dataPath: "/var/lib/mysql",
    env: (d) => ({ MARIADB_DATABASE: d.name, MARIADB_USER: d.username }),
  },
  mongodb: {
    image: "mongo:7",
    port: 27017,
    dataPath: "/data/db",
    env: (d) => ({ MONGO_INITDB_DATABASE: d.name, MONGO_INITDB_ROOT_USERNAME: d.username }),
  },
};

type RenderDb = RenderInput["databases"][number];

/** Name of the password variable each engine's image reads. */
const PASSWORD_ENV: Record<DatabaseType, string[]> = {
  postgres: ["POSTGRES_PASSWORD"],
  mysql: ["MYSQL_PASSWORD", "MYSQL_ROOT_PASSWORD"],
  mariadb: ["MARIADB_PASSWORD", "MARIADB_ROOT_PASSWORD"],
  mongodb: ["MONGO_INITDB_ROOT_PASSWORD"],
};

/** A DNS-1123 label from `s` (lower case, `-`, at most 63 characters). */
export function dnsLabel(s: string): string {
  const label = s
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 63)
    .replace(/-+$/g, "");
  return label || "x";
}

/** Registry host of images built when the organization has no registry (a reserved name: nothing resolves it). */
export const NO_REGISTRY = "registry.invalid";

/** The image the application runs: the docker source's image, or the one the build Job pushes. */
export function applicationImage(input: RenderInput): string {
  const { application } = input;
  if (application.sourceType === "docker" && application.source.dockerImage) return application.source.dockerImage;
  const registry = input.registry ?? NO_REGISTRY;
  return `${registry.replace(/\/+$/, "")}/${application.appName}:${dnsLabel(input.commitSha ?? input.deploymentId)}`;
}

/** Clone URL of a git-based source, or null for docker images. */
export function cloneUrl(application: RenderInput["application"]): string | null {
  const { sourceType, source } = application;
  if (sourceType === "github" && source.repo) return `https://github.com/${source.repo}.git`;
  if (sourceType === "gitlab" && source.repo) return `https://gitlab.com/${source.repo}.git`;
  if (sourceType === "git" && source.customGitUrl) return source.customGitUrl;
  return null;
}

/** Renders every manifest of `input`, in apply order (secrets and databases first, the build, then the app). */
export function renderManifests(input: RenderInput): Manifest[] {
  const app = input.application;
  const name = dnsLabel(app.appName);
  const labels = { "app.kubernetes.io/name": name, "app.kubernetes.io/managed-by": "skiff" };
  const out: Manifest[] = [];
  const envSecret = `${name}-env`;
  out.push({
    apiVersion: "v1",
    kind: "Secret",
    metadata: { name: envSecret, labels },
    type: "Opaque",
    stringData: { ...input.env },
  });

  for (const db of input.databases) {
    const dbName = dnsLabel(db.serviceHost.split(".")[0] ?? `${name}-db`);
    const engine = DATABASE_IMAGE[db.type];
    const dbLabels = { "app.kubernetes.io/name": dbName, "app.kubernetes.io/managed-by": "skiff" };
    const passwordSecret = `${dbName}-password`;
    out.push({
      apiVersion: "v1",
      kind: "Secret",
      metadata: { name: passwordSecret, labels: dbLabels },
      type: "Opaque",
      stringData: { password: db.password },
    });
    out.push({
      apiVersion: "v1",
      kind: "Service",
      metadata: { name: dbName, labels: dbLabels },
      spec: { selector: dbLabels, ports: [{ name: "db", port: engine.port, targetPort: engine.port }] },
    });
    out.push({
      apiVersion: "apps/v1",
      kind: "StatefulSet",
      metadata: { name: dbName, labels: dbLabels },
      spec: {
        serviceName: dbName,
        replicas: 1,
        selector: { matchLabels: dbLabels },
        template: {
          metadata: { labels: dbLabels },
          spec: {
            containers: [
              {
                name: "db",
                image: engine.image,
                ports: [{ containerPort: engine.port }],
                env: [
                  ...Object.entries(engine.env(db)).map(([k, value]) => ({ name: k, value })),
                  ...PASSWORD_ENV[db.type].map((k) => ({
                    name: k,
                    valueFrom: { secretKeyRef: { name: passwordSecret, key: "password" } },
                  })),
                ],
                volumeMounts: [{ name: "data", mountPath: engine.dataPath }],
              },
            ],
          },
        },
        volumeClaimTemplates: [
          {
            metadata: { name: "data" },
            spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } } },
          },
        ],
      },
    });
  }

  const image = applicationImage(input);
  const repoUrl = cloneUrl(app);
  if (repoUrl) {
    const branch = app.source.branch ?? "main";
    const context = `${repoUrl}#refs/heads/${branch}${input.commitSha ? `#${input.commitSha}` : ""}`;
    const subPath = (app.source.buildPath ?? "/").replace(/^\/+/, "");
    const container =
      app.buildType === "nixpacks"
        ? {
            name: "build",
            image: "ghcr.io/railwayapp/nixpacks:latest",
            command: ["sh", "-c"],
            args: [
              `git clone --depth 1 --branch "$BRANCH" "$REPO" /src && nixpacks build "/src/$SUB_PATH" --name "$IMAGE" && docker push "$IMAGE"`,
            ],
            env: [
              { name: "REPO", value: repoUrl },
              { name: "BRANCH", value: branch },
              { name: "SUB_PATH", value: subPath },
              { name: "IMAGE", value: image },
            ],
          }
        : {
            name: "build",
            image: "gcr.io/kaniko-project/executor:latest",
            args: [
              `--context=git://${context.replace(/^https?:\/\//, "")}`,
              `--context-sub-path=${subPath}`,
              `--destination=${image}`,
            ],
          };
    out.push({
      apiVersion: "batch/v1",
      kind: "Job",
      metadata: { name: dnsLabel(`${name}-build-${input.deploymentId.slice(-12)}`), labels },
      spec: {
        backoffLimit: 0,
        ttlSecondsAfterFinished: 3600,
        template: { metadata: { labels }, spec: { restartPolicy: "Never", containers: [container] } },
      },
    });
  }

  out.push({
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name, labels },
    spec: {
      replicas: 1,
      selector: { matchLabels: labels },
      template: {
        metadata: { labels },
        spec: {
          containers: [
            {
              name: "app",
              image,
              ports: [{ containerPort: app.port }],
              envFrom: [{ secretRef: { name: envSecret } }],
            },
          ],
        },
      },
    },
  });
  out.push({
    apiVersion: "v1",
    kind: "Service",
    metadata: { name, labels },
    spec: {
      selector: labels,
      ports: [
        { name: "http", port: 80, targetPort: app.port },
        ...[...new Set(input.domains.flatMap((d) => (d.port && d.port !== 80 ? [d.port] : [])))].map((p) => ({
          name: `port-${p}`,
          port: p,
          targetPort: p,
        })),
      ],
    },
  });
  for (const domain of input.domains) {
    const https = domain.https !== false;
    out.push({
      apiVersion: "networking.k8s.io/v1",
      kind: "Ingress",
      metadata: {
        name: dnsLabel(`${name}-${domain.host.replace(/\./g, "-")}`),
        labels,
        ...(https && { annotations: { "cert-manager.io/cluster-issuer": "letsencrypt" } }),
      },
      spec: {
        ...(https && {
          tls: [{ hosts: [domain.host], secretName: dnsLabel(`${domain.host.replace(/\./g, "-")}-tls`) }],
        }),
        rules: [
          {
            host: domain.host,
            http: {
              paths: [
                {
                  path: "/",
                  pathType: "Prefix",
                  backend: { service: { name, port: { number: domain.port ?? 80 } } },
                },
              ],
            },
          },
        ],
      },
    });
  }
  return out;
}
