/**
 * The render of one application (spec "States and transitions"): its rows gathered into the renderer's input
 * (deployment.manifests.ts). Deployments (deployment.run.ts) and the reconcile (reconcile.ts) both render through
 * here, so what the reconcile keeps is exactly what a deployment applies.
 */
import { domainsTable, environmentVariablesTable } from "../applications/index.ts";
import { databasesTable } from "../databases/index.ts";
import { planNameOf } from "../organizations/index.ts";
import { buildCredentialsOf } from "../providers/index.ts";
import type { AppServices } from "../services.ts";
import { type Manifest, renderManifests, resourcesForPlan, routingSettings } from "./deployment.manifests.ts";

/** An application row as `applicationsTable(knex).first()` reads it (the columns the render uses). */
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
 */
export async function renderApplication(
  services: AppServices,
  app: RenderedApplicationRow,
  deployment: { id: string; commitSha: string | null },
): Promise<Manifest[]> {
  const { knex, secrets } = services;
  const domains = await domainsTable(knex)
    .where({ application_id: app.id })
    .orderBy("created_at")
    .select("id", "host", "port", "https");
  const vars = await environmentVariablesTable(knex)
    .where({ application_id: app.id })
    .orderBy("key")
    .select("key", "value_encrypted");
  const databases = await databasesTable(knex)
    .where({ environment_id: app.environmentId })
    .orderBy("created_at")
    .select("id", "type", "name", "username", "password_encrypted", "service_host");
  const source = typeof app.source === "string" ? JSON.parse(app.source) : (app.source ?? {});
  const credentials = await buildCredentialsOf(
    knex,
    app.organizationId,
    app.sourceType === "git" ? source.customGitSSHKeyId : null,
  );
  const plan = await planNameOf(knex, app.organizationId);
  const registry = credentials.registry;
  return renderManifests({
    deploymentId: deployment.id,
    application: {
      appName: app.appName,
      sourceType: app.sourceType,
      buildType: app.buildType,
      port: app.port,
      healthPath: app.healthPath,
      source,
    },
    domains,
    env: Object.fromEntries(
      vars.map((v: { key: string; valueEncrypted: string }) => [v.key, secrets.decrypt(v.valueEncrypted)]),
    ),
    databases: databases.map(
      (d: {
        id: string;
        type: never;
        name: string;
        username: string;
        passwordEncrypted: string;
        serviceHost: string;
      }) => ({
        id: d.id,
        type: d.type,
        name: d.name,
        username: d.username,
        password: secrets.decrypt(d.passwordEncrypted),
        serviceHost: d.serviceHost,
      }),
    ),
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
  });
}
