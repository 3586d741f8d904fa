/**
 * The render of one application (spec "States and transitions"): its rows gathered into the renderer's input
 * (deployment.manifests.ts). Deployments (deployment.run.ts) and the reconcile (reconcile.ts) both render through
 * here, so what the reconcile keeps is exactly what a deployment applies. Every object goes to the organization's
 * namespace, the build's to its build namespace (docs/deployments.md "Tenant namespaces").
 */

import { createHash } from "node:crypto";
import { buildNamespaceOf, namespaceOf } from "../../shared/tenant-namespace.ts";
import { domainsOfApplication, environmentVariablesOfApplication } from "../applications/index.ts";
import { databasesToRender } from "../databases/index.ts";
import { planNameOf, quotaStatus } from "../organizations/index.ts";
import { buildCredentialsOf } from "../providers/index.ts";
import type { AppServices } from "../services.ts";
import {
  deployedSettings,
  type Manifest,
  objectName,
  renderManifests,
  resourcesForPlan,
  routingSettings,
} from "./deployment.manifests.ts";
import { renderTenant, TENANT_CLUSTER_ROLE } from "./tenant.manifests.ts";

/** An application row as `applicationById` reads it (the columns the render uses). */
export interface RenderedApplicationRow {
  id: string;
  organizationId: string;
  projectId: string;
  environmentId: string;
  appName: string;
  sourceType: "github" | "gitlab" | "docker" | "git" | null;
  buildType: "dockerfile" | "nixpacks" | null;
  port: number;
  healthPath: string | null;
  source: unknown;
}

/**
 * Gathers the render input of application row `app` as deployment `deployment` carries it (its id and commit name
 * the image; secrets decrypted) and renders its manifests with their ownership labels: the full objects for the
 * deployer and the reconcile, held in memory only, never stored or logged (redactManifests makes the stored copy).
 * `running`: the stored render of the deployment whose workload runs (the reconcile's); its app's port, health path
 * and image replace the row's, so the Service and routes reach the pods as they run, not as the next deployment will
 * run them (deployedSettings). Domains, variables and databases are the rows'.
 */
export async function renderApplication(
  services: AppServices,
  app: RenderedApplicationRow,
  deployment: { id: string; commitSha: string | null },
  running?: Manifest[] | null,
): Promise<Manifest[]> {
  const { knex, secrets } = services;
  const domains = await domainsOfApplication(knex, app.id);
  const vars = await environmentVariablesOfApplication(knex, app.id);
  const databases = await databasesToRender(knex, app.environmentId);
  // A database host stored before tenant namespaces names another namespace: its Service is in the organization's.
  // One whose first label does not start with a letter names a Service under objectName's prefixed name.
  const namespace = namespaceOf(app.organizationId);
  const moved = new Map<string, string>();
  for (const d of databases) {
    const label = objectName(d.serviceHost.split(".")[0]!);
    const current = `${label}.${namespace}.${services.config.SKIFF_CLUSTER_DOMAIN}`;
    if (d.serviceHost !== current) moved.set(d.serviceHost, current);
  }
  const source = typeof app.source === "string" ? JSON.parse(app.source) : (app.source ?? {});
  const credentials = await buildCredentialsOf(
    knex,
    app.organizationId,
    app.sourceType === "git" ? source.customGitSSHKeyId : null,
  );
  const plan = await planNameOf(knex, app.organizationId);
  const registry = credentials.registry;
  const deployed = deployedSettings(running, app.appName);
  return renderManifests({
    deploymentId: deployment.id,
    application: {
      appName: app.appName,
      sourceType: app.sourceType,
      buildType: app.buildType,
      port: deployed?.port ?? app.port,
      healthPath: deployed?.healthPath ?? app.healthPath,
      source,
    },
    image: deployed?.image ?? null,
    domains,
    env: Object.fromEntries(
      vars.map((v) => [v.key, inOrganizationNamespace(secrets.decrypt(v.valueEncrypted), moved)]),
    ),
    databases: databases.map((d) => ({
      id: d.id,
      type: d.type,
      name: d.name,
      username: d.username,
      password: secrets.decrypt(d.passwordEncrypted),
      // A rotation stores a new ciphertext (fresh IV): its digest changes with it and says nothing of the password.
      passwordVersion: createHash("sha256").update(String(d.passwordEncrypted)).digest("hex").slice(0, 16),
      serviceHost: moved.get(d.serviceHost) ?? d.serviceHost,
    })),
    registry:
      (registry ? String(registry.url) : (services.config.SKIFF_DEFAULT_REGISTRY_URL ?? null))?.replace(
        /^https?:\/\//,
        "",
      ) ?? null,
    registryAuth:
      registry?.username && registry.passwordEncrypted
        ? { username: registry.username, password: secrets.decrypt(registry.passwordEncrypted) }
        : null,
    sshPrivateKey: credentials.sshPrivateKeyEncrypted ? secrets.decrypt(credentials.sshPrivateKeyEncrypted) : null,
    commitSha: deployment.commitSha,
    resources: resourcesForPlan(plan ?? "free", services.config.SKIFF_WORKLOAD_RESOURCES),
    buildTimeoutSeconds: services.config.SKIFF_BUILD_TIMEOUT,
    routing: routingSettings(services.config),
    owner: {
      organizationId: app.organizationId,
      projectId: app.projectId,
      environmentId: app.environmentId,
      applicationId: app.id,
    },
    namespaces: { workloads: namespaceOf(app.organizationId), builds: buildNamespaceOf(app.organizationId) },
  });
}

/**
 * `value` with each stored database host of `moved` replaced by the host of its Service in the organization's
 * namespace (`DB_HOST`, and the URLs that carry it), so a variable generated before tenant namespaces still reaches
 * its database (docs/operations.md "Migrating from skiff-apps").
 */
function inOrganizationNamespace(value: string, moved: Map<string, string>): string {
  let out = value;
  for (const [stored, current] of moved) out = out.split(stored).join(current);
  return out;
}

/**
 * The objects of the namespaces of organization `organizationId` (tenant.manifests.ts), from its plan's quotas and
 * resources and Skiff's configuration, applied before any object of its applications. @throws Error when the
 * organization does not exist.
 */
export async function renderTenantOf(services: AppServices, organizationId: string): Promise<Manifest[]> {
  const { config, knex } = services;
  const { plan, limits } = await quotaStatus(knex, organizationId);
  return renderTenant(
    organizationId,
    {
      ingressNamespace: config.SKIFF_TENANT_INGRESS_NAMESPACE,
      clusterCidrs: config.SKIFF_TENANT_BLOCKED_CIDRS,
      serviceAccount: config.SKIFF_SERVICE_ACCOUNT,
      clusterRole: TENANT_CLUSTER_ROLE,
      gatewayNamespace: config.SKIFF_ROUTING === "gateway" ? config.SKIFF_HTTPROUTE_GATEWAY.namespace : null,
    },
    { applications: limits.applications, databases: limits.databases },
    resourcesForPlan(plan, config.SKIFF_WORKLOAD_RESOURCES),
  );
}
