/**
 * Renders an application's desired state as Kubernetes objects (spec "States and transitions"): a
 * `Deployment`, a `Service`, one route per domain ({@link RoutingSettings}: an `Ingress` of the configured class
 * with cert-manager's annotation, or a Gateway API `HTTPRoute` attached to the configured Gateway with a
 * cert-manager `Certificate` for its TLS), a
 * `Secret` holding the environment variables, for each database of the application's environment a `StatefulSet` +
 * `Service` named after the first label of its `serviceHost` (so `DB_HOST` resolves; {@link objectName}: a label
 * that does not start with a letter gets a prefix, and deployment.render.ts rewrites the variables naming it) with a `Secret` for its
 * password, and for git sources a build `Job` that builds daemonless with rootless BuildKit
 * (`buildctl-daemonless.sh`; `nixpacks` sources get a Dockerfile from nixpacks first) and pushes to the
 * organization's container registry with its credentials mounted from a `kubernetes.io/dockerconfigjson` Secret.
 * Images are pinned ({@link BUILD_IMAGES}, {@link DATABASE_IMAGE}), never `:latest`. Every container gets
 * requests/limits ({@link WorkloadResources}, per plan), a restrictive securityContext (non-root, no privilege
 * escalation, every capability dropped, seccomp `RuntimeDefault`, read-only root filesystem with writable
 * `emptyDir`s where the engine needs them) and probes (the app's from its `healthPath`, TCP for databases). The one
 * documented exception is the build container: rootless BuildKit creates user namespaces, which needs seccomp and
 * AppArmor `Unconfined` and setuid `newuidmap` (so privilege escalation and default capabilities) — still non-root,
 * never privileged, limited and time-boxed (`activeDeadlineSeconds`).
 *
 * Secret material (environment variable values, database passwords, registry credentials, SSH private keys) exists
 * only in the rendered objects handed to the deployer: {@link redactManifests} makes the copy that is stored on the
 * deployment and shown by the API. Pure: plain objects, no cluster access.
 */
import { createHash } from "node:crypto";
import type { Config } from "../../config.ts";
import type { DatabaseType } from "../databases/index.ts";

/** A rendered Kubernetes object (apiVersion, kind, metadata.name always set). */
export interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: {
    name: string;
    /** The organization's namespace (or its build namespace) of the object; none on a Namespace. */
    namespace?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
  };
  [field: string]: unknown;
}

/** CPU (Kubernetes quantity, e.g. `250m`) and memory (e.g. `256Mi`) of one container. */
export interface ResourceAmounts {
  cpu: string;
  memory: string;
}

/** Requests and limits of one kind of container. */
export interface ContainerResources {
  requests: ResourceAmounts;
  limits: ResourceAmounts;
}

/** Requests/limits of each kind of workload Skiff renders: the app, its databases, its build. */
export interface WorkloadResources {
  app: ContainerResources;
  database: ContainerResources;
  build: ContainerResources;
}

/** Everything the renderer needs; secrets are already decrypted. */
export interface RenderInput {
  deploymentId: string;
  application: {
    appName: string;
    sourceType: "github" | "gitlab" | "docker" | "git" | null;
    buildType: "dockerfile" | "nixpacks" | null;
    port: number;
    /** Path of the readiness/liveness probes (starts with `/`); `/` when unset. */
    healthPath?: string | null;
    source: { repo?: string; branch?: string; buildPath?: string; dockerImage?: string; customGitUrl?: string };
  };
  /** The application's domains (`id`: the domain row, carried by its route's labels). */
  domains: Array<{ id?: string; host: string; port: number | null; https: boolean | null }>;
  env: Record<string, string>;
  /** Databases of the application's environment (`id`: the database row, carried by its objects' labels). */
  databases: Array<{
    id?: string;
    type: DatabaseType;
    name: string;
    username: string;
    password: string;
    serviceHost: string;
    /**
     * Changes whenever the password does and reveals nothing of it (e.g. a digest of its ciphertext): the
     * StatefulSet's pod template carries it ({@link PASSWORD_VERSION_ANNOTATION}), so a rotation restarts the server,
     * whose start sets the user's password ({@link PASSWORD_SYNC}).
     */
    passwordVersion?: string;
  }>;
  /** The organization's container registry host/path (e.g. `registry.example.com/team`), or null. */
  registry: string | null;
  /** Credentials of that registry (mounted into the build), or null/absent for an anonymous push. */
  registryAuth?: { username: string; password: string } | null;
  /** Private key of the SSH key a `git` source clones with (customGitSSHKeyId), or null/absent. */
  sshPrivateKey?: string | null;
  /** Commit to build, when known. */
  commitSha?: string | null;
  /**
   * The image the application runs when it is known already (the running deployment's, for the reconcile);
   * {@link applicationImage} computes it from the source otherwise.
   */
  image?: string | null;
  /** Requests/limits of every container; {@link resourcesForPlan}`("free")` when absent. */
  resources?: WorkloadResources;
  /** Seconds a build Job may run (`activeDeadlineSeconds`); 1800 when absent. */
  buildTimeoutSeconds?: number;
  /** How domains reach the application; {@link DEFAULT_ROUTING} when absent. */
  routing?: RoutingSettings;
  /** The rows the objects belong to, carried as {@link OWNER_LABELS}; no ownership labels when absent. */
  owner?: ObjectOwner;
  /**
   * Where the objects go (`metadata.namespace`): the organization's namespace, and its build namespace for the build
   * Job and its Secrets (tenant.manifests.ts); no namespace set when absent.
   */
  namespaces?: { workloads: string; builds: string };
}

/** The rows an application's objects belong to (TypeIDs), as {@link OWNER_LABELS} carry them. */
export interface ObjectOwner {
  organizationId: string;
  projectId: string;
  environmentId: string;
  applicationId: string;
}

/**
 * The labels by which the reconcile (reconcile.ts) finds the objects Skiff rendered and the rows that call for
 * them: organization, project, environment, application (objects of one application), the owning row (`resource`:
 * the application's, a database's or a domain's id) and the part (`app`, `build`, `database`, `route`). Never in
 * a selector: they may be added to objects applied before they existed.
 */
export const OWNER_LABELS = {
  organization: "skiff.dev/organization",
  project: "skiff.dev/project",
  environment: "skiff.dev/environment",
  application: "skiff.dev/application",
  resource: "skiff.dev/resource",
  component: "skiff.dev/component",
} as const;

/** The label every rendered object carries (and the reconcile selects by). */
export const MANAGED_BY = { "app.kubernetes.io/managed-by": "skiff" } as const;

/** The part of an application's objects one object is ({@link OWNER_LABELS}`.component`). */
export type ObjectComponent = "app" | "build" | "database" | "route";

/**
 * The ownership labels of an object of `owner` that is `component`, owned by row `resource` (an application's
 * own objects: the application). A database belongs to its environment, not to one application.
 */
export function ownerLabels(
  owner: ObjectOwner | undefined,
  component: ObjectComponent,
  resource?: string,
): Record<string, string> {
  if (!owner) return {};
  return {
    [OWNER_LABELS.organization]: owner.organizationId,
    [OWNER_LABELS.project]: owner.projectId,
    [OWNER_LABELS.environment]: owner.environmentId,
    ...(component !== "database" && { [OWNER_LABELS.application]: owner.applicationId }),
    [OWNER_LABELS.resource]: resource ?? owner.applicationId,
    [OWNER_LABELS.component]: component,
  };
}

/**
 * How each domain is routed to the application's Service (SKIFF_ROUTING and its settings):
 * - `ingress`: a `networking.k8s.io/v1` Ingress with `ingressClassName` (none: the cluster's default
 *   IngressClass); for an `https` domain, TLS from the Secret cert-manager fills through its
 *   `cert-manager.io/cluster-issuer` annotation.
 * - `gateway`: a Gateway API `HTTPRoute` whose parent is the Gateway `gateway` (optionally one listener of it,
 *   `sectionName`); for an `https` domain, a cert-manager `Certificate` issued by `clusterIssuer` into the Secret
 *   that the Gateway's HTTPS listener references (the Gateway is the operator's: docs/deployments.md).
 */
export interface RoutingSettings {
  kind: "ingress" | "gateway";
  /** IngressClass of the Ingresses; null: the cluster's default class. */
  ingressClassName: string | null;
  /** The parent Gateway of the HTTPRoutes. */
  gateway: { name: string; namespace: string; sectionName: string | null };
  /** cert-manager ClusterIssuer of the certificates of `https` domains. */
  clusterIssuer: string;
}

/** Routing when the input names none: Ingresses of the default class, certificates from `letsencrypt`. */
export const DEFAULT_ROUTING: RoutingSettings = {
  kind: "ingress",
  ingressClassName: null,
  gateway: { name: "skiff", namespace: "skiff", sectionName: null },
  clusterIssuer: "letsencrypt",
};

/**
 * Pinned images of the build Job: rootless BuildKit (its `buildctl-daemonless.sh` runs the daemon in-process;
 * its image also carries git for the nixpacks clone) and nixpacks (writes a Dockerfile, builds nothing itself).
 */
export const BUILD_IMAGES = {
  buildkit: "moby/buildkit:v0.23.2-rootless",
  nixpacks: "ghcr.io/railwayapp/nixpacks:v1.39.0",
} as const;

/** Default requests/limits per plan name (`free`, `pro`, `unlimited`); other names get `free`'s. */
export const PLAN_RESOURCES: Record<string, WorkloadResources> = {
  free: {
    app: { requests: { cpu: "100m", memory: "128Mi" }, limits: { cpu: "500m", memory: "512Mi" } },
    database: { requests: { cpu: "100m", memory: "256Mi" }, limits: { cpu: "500m", memory: "512Mi" } },
    build: { requests: { cpu: "500m", memory: "1Gi" }, limits: { cpu: "1", memory: "2Gi" } },
  },
  pro: {
    app: { requests: { cpu: "250m", memory: "256Mi" }, limits: { cpu: "1", memory: "1Gi" } },
    database: { requests: { cpu: "250m", memory: "512Mi" }, limits: { cpu: "1", memory: "1Gi" } },
    build: { requests: { cpu: "1", memory: "2Gi" }, limits: { cpu: "2", memory: "4Gi" } },
  },
  unlimited: {
    app: { requests: { cpu: "500m", memory: "512Mi" }, limits: { cpu: "2", memory: "2Gi" } },
    database: { requests: { cpu: "500m", memory: "1Gi" }, limits: { cpu: "2", memory: "4Gi" } },
    build: { requests: { cpu: "1", memory: "2Gi" }, limits: { cpu: "4", memory: "8Gi" } },
  },
};

/** A partial {@link WorkloadResources}: what SKIFF_WORKLOAD_RESOURCES may override for one plan. */
export type WorkloadResourcesOverride = Partial<
  Record<keyof WorkloadResources, { requests?: Partial<ResourceAmounts>; limits?: Partial<ResourceAmounts> }>
>;

/**
 * Requests/limits of plan `planName`: {@link PLAN_RESOURCES}' defaults with `overrides[planName]` (then
 * `overrides["*"]`, for every plan) merged field by field.
 */
export function resourcesForPlan(
  planName: string,
  overrides: Record<string, WorkloadResourcesOverride> = {},
): WorkloadResources {
  const base = structuredClone(PLAN_RESOURCES[planName] ?? PLAN_RESOURCES.free!);
  for (const override of [overrides["*"], overrides[planName]]) {
    if (!override) continue;
    for (const kind of ["app", "database", "build"] as const) {
      const o = override[kind];
      if (!o) continue;
      base[kind] = {
        requests: { ...base[kind].requests, ...o.requests },
        limits: { ...base[kind].limits, ...o.limits },
      };
    }
  }
  return base;
}

/**
 * Container image, port, data path, writable paths (under a read-only root filesystem) and the uid of each
 * database engine's official image (its own `postgres`/`mysql`/`mongodb` user, 999).
 */
export const DATABASE_IMAGE: Record<
  DatabaseType,
  { image: string; port: number; dataPath: string; writable: string[]; env: (d: RenderDb) => Record<string, string> }
> = {
  postgres: {
    image: "postgres:17.6",
    port: 5432,
    dataPath: "/var/lib/postgresql/data",
    writable: ["/var/run/postgresql", "/tmp"],
    env: (d) => ({ POSTGRES_DB: d.name, POSTGRES_USER: d.username }),
  },
  mysql: {
    image: "mysql:8.4.6",
    port: 3306,
    dataPath: "/var/lib/mysql",
    writable: ["/var/run/mysqld", "/tmp"],
    env: (d) => ({ MYSQL_DATABASE: d.name, MYSQL_USER: d.username }),
  },
  mariadb: {
    image: "mariadb:11.8.3",
    port: 3306,
    dataPath: "/var/lib/mysql",
    writable: ["/run/mysqld", "/tmp"],
    env: (d) => ({ MARIADB_DATABASE: d.name, MARIADB_USER: d.username }),
  },
  mongodb: {
    image: "mongo:7.0.22",
    port: 27017,
    dataPath: "/data/db",
    writable: ["/data/configdb", "/tmp"],
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

/**
 * Pod-template annotation of a database's StatefulSet that changes with each password rotation
 * (`passwordVersion`): the rotation's deployment restarts the server, whose start sets the password.
 */
export const PASSWORD_VERSION_ANNOTATION = "skiff.dev/password-version";

/** The directory (an `emptyDir`) where a MySQL/MariaDB pod's init container leaves the SQL its server runs at start. */
const INIT_SQL_DIR = "/skiff-init";

/**
 * postStart hook of the postgres container: as the image's superuser `POSTGRES_USER`, over the local socket (the
 * image trusts local connections), sets its own password to `POSTGRES_PASSWORD`, read by psql's `\getenv` and
 * quoted by `:'…'` — never on a command line nor in the SQL text. Retries each second while the server starts (or
 * the first start's temporary server stops), for at most 120 s; failing, the kubelet restarts the container.
 */
const POSTGRES_PASSWORD_SCRIPT = [
  "i=0",
  "until printf '%s\\n' 'SET log_statement = none;' 'SET log_min_error_statement = panic;' \\",
  "  '\\getenv skiff_password POSTGRES_PASSWORD' \"ALTER ROLE CURRENT_USER PASSWORD :'skiff_password';\" |",
  '  psql -X -q -v ON_ERROR_STOP=1 --username="$POSTGRES_USER" --dbname=postgres >/dev/null 2>&1; do',
  "  i=$((i + 1))",
  '  if [ "$i" -ge 120 ]; then exit 1; fi',
  "  sleep 1",
  "done",
].join("\n");

/**
 * Init container script of MySQL/MariaDB (`$1`: the file to write, `user`/`password`: the variables naming them):
 * writes the SQL the server runs at start (`--init-file`, with every privilege, before it takes connections) to
 * set the application user's password. The values reach the SQL hex-encoded and are quoted by the server
 * (`QUOTE(UNHEX(…))`), whatever they hold; the file is the pod's own (`umask 077`, an `emptyDir`). `IF EXISTS`:
 * on the first start the server runs it before the image's entrypoint creates the user (with that password).
 */
function mysqlPasswordScript(user: string, password: string): string {
  const literal = (v: string) => `QUOTE(CONVERT(UNHEX('$${v}') USING utf8mb4))`;
  return [
    "umask 077",
    'out="$1"',
    "hex() { printf '%s' \"$1\" | od -An -v -tx1 | tr -d ' \\n'; }",
    `u=$(hex "$${user}")`,
    `p=$(hex "$${password}")`,
    "printf '%s\\n' 'SET sql_log_bin = 0;' \\",
    `  "SET @skiff_sql = CONCAT('ALTER USER IF EXISTS ', ${literal("u")}, '@''%'' IDENTIFIED BY ', ${literal("p")});" \\`,
    "  'PREPARE skiff_stmt FROM @skiff_sql;' 'EXECUTE skiff_stmt;' 'DEALLOCATE PREPARE skiff_stmt;' \\",
    "  'SET @skiff_sql = NULL;' >\"$out\"",
  ].join("\n");
}

/**
 * Init container script of MongoDB: once the data directory exists, starts `mongod` without authentication on
 * 127.0.0.1 only (nothing outside the pod reaches it; the server proper is not started yet), sets the root user's
 * password to `MONGO_INITDB_ROOT_PASSWORD` from the environment (`process.env`, never in the script), and stops it.
 */
const MONGO_PASSWORD_SCRIPT = [
  "if [ ! -e /data/db/WiredTiger ]; then exit 0; fi",
  "mongod --dbpath /data/db --bind_ip 127.0.0.1 --port 27018 --fork --logpath /tmp/skiff-password.log || exit 1",
  "mongosh --quiet --host 127.0.0.1 --port 27018 --eval \\",
  "  'db.getSiblingDB(\"admin\").changeUserPassword(process.env.MONGO_INITDB_ROOT_USERNAME, process.env.MONGO_INITDB_ROOT_PASSWORD)'",
  "status=$?",
  "mongod --dbpath /data/db --shutdown",
  'exit "$status"',
].join("\n");

/**
 * How each engine's server takes its Secret's password at every start (the images read it only when they create
 * their data directory): a postStart hook (postgres), or an init container (`init`: its command) and the server's
 * `args` (MySQL, MariaDB: `--init-file`; MongoDB: none). A rotation changes {@link PASSWORD_VERSION_ANNOTATION},
 * so its deployment restarts the server.
 */
export const PASSWORD_SYNC: Record<DatabaseType, { postStart?: string[]; init?: string[]; args?: string[] }> = {
  postgres: { postStart: ["sh", "-c", POSTGRES_PASSWORD_SCRIPT] },
  mysql: {
    init: ["sh", "-c", mysqlPasswordScript("MYSQL_USER", "MYSQL_PASSWORD"), "sh", `${INIT_SQL_DIR}/password.sql`],
    args: ["mysqld", `--init-file=${INIT_SQL_DIR}/password.sql`],
  },
  mariadb: {
    init: ["sh", "-c", mysqlPasswordScript("MARIADB_USER", "MARIADB_PASSWORD"), "sh", `${INIT_SQL_DIR}/password.sql`],
    args: ["mariadbd", `--init-file=${INIT_SQL_DIR}/password.sql`],
  },
  mongodb: { init: ["sh", "-c", MONGO_PASSWORD_SCRIPT] },
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

/** What {@link objectName} puts before a name that does not start with a letter. */
export const OBJECT_NAME_PREFIX = "app-";

/**
 * The name of the objects made from a stored name `s` (an application's `appName`, the first label of a database's
 * `serviceHost`): {@link dnsLabel}`(s)` when it starts with a letter, else `app-` and it (e.g. `1shop-b3tbsp` →
 * `app-1shop-b3tbsp`), cut to 63 characters. Always a DNS-1035 label (a letter, then `[a-z0-9-]`, alphanumeric at the
 * end, at most 63), which a Service's name must be and every other kind takes; names made since `newAppName`
 * prefixes the same way come out unchanged.
 */
export function objectName(s: string): string {
  const label = dnsLabel(s);
  return /^[a-z]/.test(label) ? label : dnsLabel(`${OBJECT_NAME_PREFIX}${label}`);
}

/** Characters of the SHA-256 (hex) of a host that {@link domainObjectName} appends: 32 bits. */
const HOST_HASH_LENGTH = 8;

/**
 * The name of one domain's object: `readable` as a DNS label (e.g. `shop-shop-example-com`), cut to fit, then `-`,
 * the first 8 hex digits of the SHA-256 of the full lower-cased `host` and `suffix` (e.g. `-tls`). Hosts whose
 * readable forms are one (`qa-x.example.com` and `qa.x-example.com` both read `qa-x-example-com`; two long hosts
 * cut to one prefix) get different names, so no route or certificate Secret of one host overwrites another's in a
 * namespace. The result is a DNS-1123 label (at most 63 of `[a-z0-9-]`, alphanumeric at both ends), which every
 * kind it names takes; cert-manager also writes a Certificate's name into a label value, itself at most 63.
 */
export function domainObjectName(readable: string, host: string, suffix = ""): string {
  const hash = createHash("sha256").update(host.toLowerCase()).digest("hex").slice(0, HOST_HASH_LENGTH);
  const tail = `${hash}${suffix}`;
  const head = dnsLabel(readable)
    .slice(0, 63 - tail.length - 1)
    .replace(/-+$/g, "");
  return head ? `${head}-${tail}` : tail;
}

/** Registry host of images built when the organization has no registry (a reserved name: nothing resolves it). */
export const NO_REGISTRY = "registry.invalid";

/** The image the application runs: the docker source's image, or the one the build Job pushes. */
export function applicationImage(input: RenderInput): string {
  const { application } = input;
  if (input.image) return input.image;
  if (application.sourceType === "docker" && application.source.dockerImage) return application.source.dockerImage;
  const registry = input.registry ?? NO_REGISTRY;
  return `${registry.replace(/\/+$/, "")}/${application.appName}:${dnsLabel(input.commitSha ?? input.deploymentId)}`;
}

/** The pod-template annotation of the app's Deployment naming the deployment that rendered it (docs "Deployers"). */
export const DEPLOYMENT_ANNOTATION = "skiff.dev/deployment";

/** The application settings a rendered Deployment carries: what its Service and probes must agree with. */
export interface DeployedSettings {
  port: number;
  healthPath: string;
  image: string;
}

/**
 * The settings the app Deployment `<appName>` of `manifests` (a deployment's stored render) runs with: its
 * container's port, probe path and image; null when `manifests` holds no such Deployment (nothing stored).
 */
export function deployedSettings(manifests: Manifest[] | null | undefined, appName: string): DeployedSettings | null {
  type Container = {
    image?: string;
    ports?: Array<{ containerPort?: number }>;
    readinessProbe?: { httpGet?: { path?: string } };
  };
  // Renders stored before names were made with objectName carry the dnsLabel form.
  const names = new Set([objectName(appName), dnsLabel(appName)]);
  const deployment = manifests?.find((m) => m.kind === "Deployment" && names.has(m.metadata.name)) as
    | (Manifest & { spec?: { template?: { spec?: { containers?: Container[] } } } })
    | undefined;
  const container = deployment?.spec?.template?.spec?.containers?.[0];
  const port = container?.ports?.[0]?.containerPort;
  const healthPath = container?.readinessProbe?.httpGet?.path;
  if (!container?.image || typeof port !== "number" || !healthPath) return null;
  return { port, healthPath, image: container.image };
}

/** Clone URL of a git-based source, or null for docker images. */
export function cloneUrl(application: RenderInput["application"]): string | null {
  const { sourceType, source } = application;
  if (sourceType === "github" && source.repo) return `https://github.com/${source.repo}.git`;
  if (sourceType === "gitlab" && source.repo) return `https://gitlab.com/${source.repo}.git`;
  if (sourceType === "git" && source.customGitUrl) return source.customGitUrl;
  return null;
}

/** What a stored manifest holds in place of each secret value ({@link redactManifests}). */
export const REDACTED = "<redacted: stored encrypted, resolved when applied>";

/**
 * A copy of `manifests` without secret material, the form stored on the deployment and shown by the API, logs and
 * clients: every value of a `Secret`'s `data`/`stringData` becomes {@link REDACTED} (keys stay, so what the
 * deployment carries is still visible). The deployer applies the unredacted render, which exists only in memory.
 */
export function redactManifests(manifests: Manifest[]): Manifest[] {
  return manifests.map((m) => {
    if (m.kind !== "Secret") return m;
    const copy: Manifest = { ...m };
    for (const field of ["data", "stringData"] as const) {
      const values = m[field] as Record<string, string> | undefined;
      if (values) copy[field] = Object.fromEntries(Object.keys(values).map((k) => [k, REDACTED]));
    }
    return copy;
  });
}

/** The securityContext of a container that needs nothing special: the restricted Pod Security Standard. */
const RESTRICTED_CONTAINER = {
  allowPrivilegeEscalation: false,
  privileged: false,
  readOnlyRootFilesystem: true,
  capabilities: { drop: ["ALL"] },
} as const;

/** A pod securityContext running as `uid` (non-root), with seccomp `RuntimeDefault`. */
function podSecurity(uid: number) {
  return {
    runAsNonRoot: true,
    runAsUser: uid,
    runAsGroup: uid,
    fsGroup: uid,
    seccompProfile: { type: "RuntimeDefault" },
  };
}

/** Uid the application runs as (an unprivileged id no base image's root maps to). */
export const APP_UID = 10001;
/** Uid of the official database images' own user. */
const DATABASE_UID = 999;
/** Uid of the rootless BuildKit image's `user`. */
const BUILDKIT_UID = 1000;

/** `emptyDir` volumes and their mounts for `paths` (writable directories under a read-only root filesystem). */
function scratch(paths: string[]) {
  const named = paths.map((path, i) => ({ name: `scratch-${i}`, path }));
  return {
    volumes: named.map((v) => ({ name: v.name, emptyDir: {} })),
    mounts: named.map((v) => ({ name: v.name, mountPath: v.path })),
  };
}

/** Renders every manifest of `input`, in apply order (secrets and databases first, the build, then the app). */
export function renderManifests(input: RenderInput): Manifest[] {
  const app = input.application;
  const resources = input.resources ?? resourcesForPlan("free");
  const name = objectName(app.appName);
  const labels = { "app.kubernetes.io/name": name, ...MANAGED_BY };
  const appLabels = { ...labels, ...ownerLabels(input.owner, "app") };
  const out: Manifest[] = [];
  const envSecret = `${name}-env`;
  out.push({
    apiVersion: "v1",
    kind: "Secret",
    metadata: { name: envSecret, labels: appLabels },
    type: "Opaque",
    stringData: { ...input.env },
  });

  for (const db of input.databases) {
    const dbName = objectName(db.serviceHost.split(".")[0] ?? `${name}-db`);
    const engine = DATABASE_IMAGE[db.type];
    const dbLabels = { "app.kubernetes.io/name": dbName, ...MANAGED_BY };
    const dbObjectLabels = { ...dbLabels, ...ownerLabels(input.owner, "database", db.id) };
    const passwordSecret = `${dbName}-password`;
    const writable = scratch(engine.writable);
    const tcp = { tcpSocket: { port: engine.port } };
    out.push({
      apiVersion: "v1",
      kind: "Secret",
      metadata: { name: passwordSecret, labels: dbObjectLabels },
      type: "Opaque",
      stringData: { password: db.password },
    });
    out.push({
      apiVersion: "v1",
      kind: "Service",
      metadata: { name: dbName, labels: dbObjectLabels },
      spec: { selector: dbLabels, ports: [{ name: "db", port: engine.port, targetPort: engine.port }] },
    });
    const sync = PASSWORD_SYNC[db.type];
    const env = [
      ...Object.entries(engine.env(db)).map(([k, value]) => ({ name: k, value })),
      ...PASSWORD_ENV[db.type].map((k) => ({
        name: k,
        valueFrom: { secretKeyRef: { name: passwordSecret, key: "password" } },
      })),
    ];
    const initSql = sync.args
      ? { volumes: [{ name: "skiff-init", emptyDir: {} }], mounts: [{ name: "skiff-init", mountPath: INIT_SQL_DIR }] }
      : { volumes: [], mounts: [] };
    const mounts = [{ name: "data", mountPath: engine.dataPath }, ...writable.mounts, ...initSql.mounts];
    out.push({
      apiVersion: "apps/v1",
      kind: "StatefulSet",
      metadata: { name: dbName, labels: dbObjectLabels },
      spec: {
        serviceName: dbName,
        // The volumes go with the database (docs/deployments.md "Deleting"): its PVCs are deleted with it.
        persistentVolumeClaimRetentionPolicy: { whenDeleted: "Delete", whenScaled: "Retain" },
        replicas: 1,
        selector: { matchLabels: dbLabels },
        template: {
          metadata: {
            labels: dbLabels,
            ...(db.passwordVersion && { annotations: { [PASSWORD_VERSION_ANNOTATION]: db.passwordVersion } }),
          },
          spec: {
            automountServiceAccountToken: false,
            securityContext: podSecurity(DATABASE_UID),
            ...(sync.init && {
              initContainers: [
                {
                  name: "password",
                  image: engine.image,
                  command: sync.init,
                  // mongosh keeps its state under HOME (the data directory otherwise).
                  env: db.type === "mongodb" ? [...env, { name: "HOME", value: "/tmp" }] : env,
                  resources: resources.database,
                  securityContext: RESTRICTED_CONTAINER,
                  volumeMounts: mounts,
                },
              ],
            }),
            containers: [
              {
                name: "db",
                image: engine.image,
                ...(sync.args && { args: sync.args }),
                ports: [{ containerPort: engine.port }],
                env,
                resources: resources.database,
                securityContext: RESTRICTED_CONTAINER,
                ...(sync.postStart && { lifecycle: { postStart: { exec: { command: sync.postStart } } } }),
                readinessProbe: { ...tcp, periodSeconds: 10, failureThreshold: 3 },
                livenessProbe: { ...tcp, initialDelaySeconds: 30, periodSeconds: 20, failureThreshold: 6 },
                volumeMounts: mounts,
              },
            ],
            volumes: [...writable.volumes, ...initSql.volumes],
          },
        },
        volumeClaimTemplates: [
          {
            metadata: { name: "data", labels: dbObjectLabels },
            spec: { accessModes: ["ReadWriteOnce"], resources: { requests: { storage: "1Gi" } } },
          },
        ],
      },
    });
  }

  const image = applicationImage(input);
  const build = renderBuild(
    input,
    name,
    labels,
    { ...labels, ...ownerLabels(input.owner, "build") },
    image,
    resources.build,
  );
  out.push(...build);

  const appWritable = scratch(["/tmp"]);
  const probePath = app.healthPath?.startsWith("/") ? app.healthPath : "/";
  const httpProbe = { httpGet: { path: probePath, port: app.port } };
  out.push({
    apiVersion: "apps/v1",
    kind: "Deployment",
    metadata: { name, labels: appLabels },
    spec: {
      replicas: 1,
      selector: { matchLabels: labels },
      template: {
        // Names the deployment, so every deployment rolls out new pods: the variables come through `envFrom`, whose
        // change alone would leave the template as it was (docs/deployments.md "Deployers").
        metadata: { labels, annotations: { [DEPLOYMENT_ANNOTATION]: input.deploymentId } },
        spec: {
          automountServiceAccountToken: false,
          securityContext: podSecurity(APP_UID),
          containers: [
            {
              name: "app",
              image,
              ports: [{ containerPort: app.port }],
              envFrom: [{ secretRef: { name: envSecret } }],
              resources: resources.app,
              securityContext: RESTRICTED_CONTAINER,
              readinessProbe: { ...httpProbe, periodSeconds: 10, timeoutSeconds: 3, failureThreshold: 3 },
              livenessProbe: {
                ...httpProbe,
                initialDelaySeconds: 15,
                periodSeconds: 20,
                timeoutSeconds: 3,
                failureThreshold: 6,
              },
              volumeMounts: appWritable.mounts,
            },
          ],
          volumes: appWritable.volumes,
        },
      },
    },
  });
  out.push({
    apiVersion: "v1",
    kind: "Service",
    metadata: { name, labels: appLabels },
    spec: {
      selector: labels,
      ports: servicePorts(app.port, input.domains).ports,
    },
  });
  out.push(...renderRoutes(input, name, labels));
  if (input.namespaces) {
    const { workloads, builds } = input.namespaces;
    const ofBuild = new Set(build);
    for (const m of out) m.metadata.namespace = ofBuild.has(m) ? builds : workloads;
  }
  return out;
}

/** First Service port tried for a domain's container port 80 when the application listens on another port. */
const PORT_80_SERVICE_PORT = 10080;

/**
 * The ports of the Service of an application listening on `appPort` whose domains name container ports `port`
 * (null: the application's), and the Service port each container port is reached on (`route`): `http` 80 →
 * `appPort`, which domains without a port use; `port-<p>` p → p for each other container port a domain names. A
 * domain's container port 80, when the application listens on another one, cannot have Service port 80 (it goes
 * to `appPort`): it gets `port-80` on the first number from 10080 up that no other port of the Service uses.
 */
export function servicePorts(
  appPort: number,
  domains: ReadonlyArray<{ port: number | null }>,
): { ports: Array<{ name: string; port: number; targetPort: number }>; route: (port: number | null) => number } {
  const named = [...new Set(domains.flatMap((d) => (d.port && !(d.port === 80 && appPort === 80) ? [d.port] : [])))];
  const used = new Set([80, ...named.filter((p) => p !== 80)]);
  let port80 = PORT_80_SERVICE_PORT;
  while (used.has(port80)) port80 += 1;
  const servicePortOf = (p: number) => (p === 80 ? port80 : p);
  return {
    ports: [
      { name: "http", port: 80, targetPort: appPort },
      ...named.map((p) => ({ name: `port-${p}`, port: servicePortOf(p), targetPort: p })),
    ],
    route: (port) => (port === null || (port === 80 && appPort === 80) ? 80 : servicePortOf(port)),
  };
}

/**
 * One route per domain to the Service `name` ({@link RoutingSettings}), with what its TLS needs: an Ingress with
 * cert-manager's annotation, or an HTTPRoute and a Certificate. Each is named {@link domainObjectName}
 * `<app>-<host>` (e.g. `shop-shop-example-com-951623a2`) and the TLS Secret of a host `<host>-<hash>-tls` (e.g.
 * `shop-example-com-951623a2-tls`): unique per host within the organization's namespace.
 */
function renderRoutes(input: RenderInput, name: string, labels: Record<string, string>): Manifest[] {
  const routing = input.routing ?? DEFAULT_ROUTING;
  const { route } = servicePorts(input.application.port, input.domains);
  const out: Manifest[] = [];
  for (const domain of input.domains) {
    const https = domain.https !== false;
    const routeName = domainObjectName(`${name}-${domain.host}`, domain.host);
    const tlsSecret = domainObjectName(domain.host, domain.host, "-tls");
    const port = route(domain.port);
    const routeLabels = { ...labels, ...ownerLabels(input.owner, "route", domain.id) };
    if (routing.kind === "gateway") {
      const { gateway } = routing;
      out.push({
        apiVersion: "gateway.networking.k8s.io/v1",
        kind: "HTTPRoute",
        metadata: { name: routeName, labels: routeLabels },
        spec: {
          parentRefs: [
            {
              group: "gateway.networking.k8s.io",
              kind: "Gateway",
              name: gateway.name,
              namespace: gateway.namespace,
              ...(gateway.sectionName && { sectionName: gateway.sectionName }),
            },
          ],
          hostnames: [domain.host],
          rules: [
            {
              matches: [{ path: { type: "PathPrefix", value: "/" } }],
              backendRefs: [{ name, port }],
            },
          ],
        },
      });
      if (https) {
        out.push({
          apiVersion: "cert-manager.io/v1",
          kind: "Certificate",
          metadata: { name: routeName, labels: routeLabels },
          spec: {
            secretName: tlsSecret,
            dnsNames: [domain.host],
            issuerRef: { group: "cert-manager.io", kind: "ClusterIssuer", name: routing.clusterIssuer },
          },
        });
      }
      continue;
    }
    out.push({
      apiVersion: "networking.k8s.io/v1",
      kind: "Ingress",
      metadata: {
        name: routeName,
        labels: routeLabels,
        ...(https && { annotations: { "cert-manager.io/cluster-issuer": routing.clusterIssuer } }),
      },
      spec: {
        ...(routing.ingressClassName && { ingressClassName: routing.ingressClassName }),
        ...(https && { tls: [{ hosts: [domain.host], secretName: tlsSecret }] }),
        rules: [
          {
            host: domain.host,
            http: {
              paths: [{ path: "/", pathType: "Prefix", backend: { service: { name, port: { number: port } } } }],
            },
          },
        ],
      },
    });
  }
  return out;
}

/** The {@link RoutingSettings} of Skiff's configuration (SKIFF_ROUTING and the settings it reads). */
export function routingSettings(
  config: Pick<
    Config,
    | "SKIFF_ROUTING"
    | "SKIFF_INGRESS_CLASS"
    | "SKIFF_HTTPROUTE_GATEWAY"
    | "SKIFF_HTTPROUTE_LISTENER"
    | "SKIFF_CERT_ISSUER"
  >,
): RoutingSettings {
  return {
    kind: config.SKIFF_ROUTING,
    ingressClassName: config.SKIFF_INGRESS_CLASS ?? null,
    gateway: { ...config.SKIFF_HTTPROUTE_GATEWAY, sectionName: config.SKIFF_HTTPROUTE_LISTENER ?? null },
    clusterIssuer: config.SKIFF_CERT_ISSUER,
  };
}

/** Where the build container finds the registry credentials (`$DOCKER_CONFIG/config.json`). */
const DOCKER_CONFIG = "/home/user/.docker";
/** Where the build container finds the SSH private key of a `git` source. */
const SSH_KEY_DIR = "/home/user/.ssh-key";

/**
 * The build of a git source (none for docker images): a registry-credentials Secret and an SSH-key Secret when
 * there are credentials, and the build Job. `dockerfile` builds hand BuildKit the git context
 * (`<url>#<commit or branch>:<buildPath>`); `nixpacks` builds clone into a shared `emptyDir`, let nixpacks write
 * `.nixpacks/Dockerfile`, then build that directory. `--progress=plain` output is the pod's log, which the
 * kubernetes deployer streams into the deployment log.
 */
function renderBuild(
  input: RenderInput,
  name: string,
  labels: Record<string, string>,
  objectLabels: Record<string, string>,
  image: string,
  resources: ContainerResources,
): Manifest[] {
  const app = input.application;
  const repoUrl = cloneUrl(app);
  if (!repoUrl) return [];
  const out: Manifest[] = [];
  const jobName = dnsLabel(`${name}-build-${input.deploymentId.slice(-12)}`);
  const branch = app.source.branch ?? "main";
  const subPath = (app.source.buildPath ?? "/").replace(/^\/+|\/+$/g, "");
  const volumes: unknown[] = [
    { name: "buildkitd", emptyDir: {} },
    { name: "workspace", emptyDir: {} },
  ];
  const mounts: Array<{ name: string; mountPath: string; readOnly?: boolean }> = [
    { name: "buildkitd", mountPath: "/home/user/.local/share/buildkit" },
  ];
  const env: Array<{ name: string; value: string }> = [
    { name: "BUILDKITD_FLAGS", value: "--oci-worker-no-process-sandbox" },
  ];
  const host = (input.registry ?? NO_REGISTRY).split("/")[0]!;
  // Docker Hub's credentials go under its historical index URL, which BuildKit (like docker) looks up.
  const registryHost = ["docker.io", "index.docker.io", "registry-1.docker.io"].includes(host)
    ? "https://index.docker.io/v1/"
    : host;
  if (input.registryAuth) {
    const secretName = `${jobName}-registry`;
    const auth = Buffer.from(`${input.registryAuth.username}:${input.registryAuth.password}`).toString("base64");
    out.push({
      apiVersion: "v1",
      kind: "Secret",
      metadata: { name: secretName, labels: objectLabels },
      type: "kubernetes.io/dockerconfigjson",
      stringData: { ".dockerconfigjson": JSON.stringify({ auths: { [registryHost]: { auth } } }) },
    });
    volumes.push({
      name: "registry-auth",
      secret: { secretName, items: [{ key: ".dockerconfigjson", path: "config.json" }] },
    });
    mounts.push({ name: "registry-auth", mountPath: DOCKER_CONFIG, readOnly: true });
    env.push({ name: "DOCKER_CONFIG", value: DOCKER_CONFIG });
  }
  const sshArgs: string[] = [];
  if (input.sshPrivateKey) {
    const secretName = `${jobName}-ssh`;
    out.push({
      apiVersion: "v1",
      kind: "Secret",
      metadata: { name: secretName, labels: objectLabels },
      type: "Opaque",
      stringData: { id: input.sshPrivateKey },
    });
    volumes.push({ name: "ssh-key", secret: { secretName, defaultMode: 0o400 } });
    mounts.push({ name: "ssh-key", mountPath: SSH_KEY_DIR, readOnly: true });
    sshArgs.push("--ssh", `default=${SSH_KEY_DIR}/id`);
  }
  const output = `--output=type=image,name=${image},push=true`;
  const buildSecurity = {
    // Rootless BuildKit creates user namespaces (newuidmap is setuid): see the file comment.
    allowPrivilegeEscalation: true,
    privileged: false,
    readOnlyRootFilesystem: false,
    runAsNonRoot: true,
    runAsUser: BUILDKIT_UID,
    runAsGroup: BUILDKIT_UID,
    seccompProfile: { type: "Unconfined" },
    appArmorProfile: { type: "Unconfined" },
  };
  const initContainers: unknown[] = [];
  let args: string[];
  if (app.buildType === "nixpacks") {
    const dir = subPath ? `/workspace/src/${subPath}` : "/workspace/src";
    initContainers.push(
      {
        name: "clone",
        image: BUILD_IMAGES.buildkit,
        command: ["git", "clone", "--depth", "1", "--branch", branch, "--", repoUrl, "/workspace/src"],
        env: input.sshPrivateKey
          ? [
              {
                name: "GIT_SSH_COMMAND",
                value: `ssh -i ${SSH_KEY_DIR}/id -o IdentitiesOnly=yes -o StrictHostKeyChecking=accept-new -o UserKnownHostsFile=/workspace/known_hosts`,
              },
            ]
          : [],
        resources,
        securityContext: { ...RESTRICTED_CONTAINER, runAsNonRoot: true, runAsUser: BUILDKIT_UID },
        volumeMounts: [{ name: "workspace", mountPath: "/workspace" }, ...mounts.filter((m) => m.name === "ssh-key")],
      },
      {
        name: "plan",
        image: BUILD_IMAGES.nixpacks,
        command: ["nixpacks", "build", dir, "--out", dir],
        resources,
        // nixpacks writes caches under its HOME and /tmp.
        securityContext: {
          ...RESTRICTED_CONTAINER,
          readOnlyRootFilesystem: false,
          runAsNonRoot: true,
          runAsUser: BUILDKIT_UID,
        },
        volumeMounts: [{ name: "workspace", mountPath: "/workspace" }],
      },
    );
    mounts.push({ name: "workspace", mountPath: "/workspace" });
    args = [
      "build",
      "--frontend=dockerfile.v0",
      `--local=context=${dir}`,
      `--local=dockerfile=${dir}/.nixpacks`,
      output,
      "--progress=plain",
    ];
  } else {
    const ref = input.commitSha ?? branch;
    args = [
      "build",
      "--frontend=dockerfile.v0",
      `--opt=context=${repoUrl}#${ref}${subPath ? `:${subPath}` : ""}`,
      ...sshArgs,
      output,
      "--progress=plain",
    ];
  }
  out.push({
    apiVersion: "batch/v1",
    kind: "Job",
    metadata: { name: jobName, labels: objectLabels },
    spec: {
      backoffLimit: 0,
      activeDeadlineSeconds: input.buildTimeoutSeconds ?? 1800,
      ttlSecondsAfterFinished: 3600,
      template: {
        metadata: { labels },
        spec: {
          restartPolicy: "Never",
          automountServiceAccountToken: false,
          securityContext: {
            runAsNonRoot: true,
            runAsUser: BUILDKIT_UID,
            runAsGroup: BUILDKIT_UID,
            fsGroup: BUILDKIT_UID,
          },
          ...(initContainers.length > 0 && { initContainers }),
          containers: [
            {
              name: "build",
              image: BUILD_IMAGES.buildkit,
              command: ["buildctl-daemonless.sh"],
              args,
              env,
              resources,
              securityContext: buildSecurity,
              volumeMounts: mounts,
            },
          ],
          volumes,
        },
      },
    },
  });
  return out;
}
