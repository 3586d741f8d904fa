/**
 * Named reads and writes of this module's tables for other modules: the deployments module reads and writes an
 * application's deploy, status and health columns, its domains and variables through these. Each is one statement
 * on the caller's `db` (a transaction's locks and writes stay in it); none checks access (the caller did).
 */
import type { Knex } from "knex";
import { runAsIs, type WriteRunner } from "../../shared/write-runner.ts";

type Db = Knex | Knex.Transaction;

/** An application id, or a query (not run) selecting one (e.g. the application of a deployment). */
export type ApplicationIdOrQuery = string | Knex.QueryBuilder;

/** An `applications` row as stored (camelCase columns). */
export interface ApplicationRow {
  id: string;
  organizationId: string;
  projectId: string;
  environmentId: string;
  name: string;
  appName: string;
  sourceType: "github" | "gitlab" | "docker" | "git" | null;
  source: unknown;
  buildType: "dockerfile" | "nixpacks" | null;
  port: number;
  applicationStatus: string | null;
  health: "unknown" | "healthy" | "unhealthy";
  healthFailures: number;
  healthCheckedAt: Date | null;
  healthPath: string;
  createdAt: Date;
}

/** The fields an application event (`app.health_changed`, `deployment.*`) reports. */
export interface ApplicationSubject {
  id: string;
  name: string;
  projectId: string;
  organizationId: string;
}

/** `applications` restricted to one id, or to the ids a subquery selects. */
function oneApplication(db: Db, id: ApplicationIdOrQuery): Knex.QueryBuilder {
  return typeof id === "string" ? db("applications").where({ id }) : db("applications").whereIn("id", id);
}

/** Application `id` (all columns), or undefined when it does not exist. */
export async function applicationById(db: Db, id: string): Promise<ApplicationRow | undefined> {
  return db("applications").where({ id }).first();
}

/** The applications of organization `organizationId` (all columns), oldest first. */
export async function applicationsOfOrganization(db: Db, organizationId: string): Promise<ApplicationRow[]> {
  return db("applications").where({ organization_id: organizationId }).orderBy("created_at");
}

/** The application named `name` in environment `environmentId`, or undefined. */
export async function applicationNamed(
  db: Db,
  environmentId: string,
  name: string,
): Promise<ApplicationRow | undefined> {
  return db("applications").where({ environment_id: environmentId, name }).orderBy("created_at").first();
}

/** The ids of the applications of organization `organizationId`. */
export async function applicationIdsOfOrganization(db: Db, organizationId: string): Promise<string[]> {
  return db("applications").where({ organization_id: organizationId }).pluck("id");
}

/** The ids of the applications of project `projectId`. */
export async function applicationIdsOfProject(db: Db, projectId: string): Promise<string[]> {
  return db("applications").where({ project_id: projectId }).pluck("id");
}

/** `{ id, name }` of the applications of project `projectId`, oldest first. */
export async function applicationsOfProject(db: Db, projectId: string): Promise<Array<{ id: string; name: string }>> {
  return db("applications").where({ project_id: projectId }).orderBy(["created_at", "id"]).select("id", "name");
}

/** The distinct organizations of the applications `applicationIds` (a query, not run, selecting ids) selects. */
export async function organizationIdsOfApplications(db: Db, applicationIds: Knex.QueryBuilder): Promise<string[]> {
  return db("applications").whereIn("id", applicationIds).distinct("organization_id").pluck("organization_id");
}

/** The fields an event about application `id` reports, or undefined when it does not exist. */
export async function applicationSubject(db: Db, id: string): Promise<ApplicationSubject | undefined> {
  return db("applications").where({ id }).first("id", "name", "project_id", "organization_id");
}

/**
 * Locks the application row `id` (`for update`; in the caller's transaction), serialising deployments of one
 * application. @returns whether the row exists.
 */
export async function lockApplication(trx: Db, id: ApplicationIdOrQuery): Promise<boolean> {
  return (await oneApplication(trx, id).forUpdate().first("id")) !== undefined;
}

/** Sets `applicationStatus` of application `id` to `status`, `updatedAt` to `at`. */
export async function setApplicationStatus(db: Db, id: string, status: string, at: Date): Promise<void> {
  await db("applications").where({ id }).update({ application_status: status, updated_at: at });
}

/**
 * Sets `applicationStatus` of application `id` to `status` (`updatedAt` to `at`) only while it is `deploying` and
 * `unlessAny` (a query, not run, e.g. its running deployments) selects no row.
 */
export async function settleDeployingApplication(
  db: Db,
  id: string,
  status: string,
  at: Date,
  unlessAny: Knex.QueryBuilder,
): Promise<void> {
  await db("applications")
    .where({ id, application_status: "deploying" })
    .whereNotExists(unlessAny)
    .update({ application_status: status, updated_at: at });
}

/** Clears `needsDeployment` of application `id` (a deployment was queued); the update locks the row. */
export async function clearNeedsDeployment(db: Db, id: string): Promise<void> {
  await db("applications").where({ id }).update({ needs_deployment: false });
}

/** What the deploy trigger reads of the application a deploy token names. */
export interface DeployTriggerApplication {
  id: string;
  organizationId: string;
  source: unknown;
  autoDeploy: boolean;
  branchFilter: string | null;
  watchPaths: string[] | null;
  webhookSecretEncrypted: string | null;
  requireSignature: boolean;
}

/** The application whose deploy token has SHA-256 hex digest `hash`, or undefined. */
export async function applicationByDeployTokenHash(
  db: Db,
  hash: string,
): Promise<DeployTriggerApplication | undefined> {
  return db("applications")
    .where({ deploy_token_hash: hash })
    .first(
      "id",
      "organization_id",
      "source",
      "auto_deploy",
      "branch_filter",
      "watch_paths",
      "webhook_secret_encrypted",
      "require_signature",
    );
}

/**
 * Stores a deploy token of application `id`: its digest `hash` and its `encrypted` form; with `onlyIfMissing`,
 * only when the application has none; the statement run by `run`. @returns whether a row was updated.
 */
export async function storeDeployToken(
  db: Db,
  id: string,
  token: { hash: string; encrypted: string },
  onlyIfMissing: boolean,
  run: WriteRunner = runAsIs,
): Promise<boolean> {
  const q = db("applications").where({ id });
  if (onlyIfMissing) q.whereNull("deploy_token_hash");
  const stored = await run(
    q.update({ deploy_token_hash: token.hash, deploy_token_encrypted: token.encrypted }).returning("id"),
  );
  return stored.length > 0;
}

/** The encrypted deploy token of application `id` (null when none; undefined when no such application). */
export async function deployTokenOf(db: Db, id: string): Promise<string | null | undefined> {
  const row = await db("applications").where({ id }).first("deploy_token_encrypted");
  return row ? row.deployTokenEncrypted : undefined;
}

/** Sets the encrypted push webhook secret of application `id` (the statement run by `run`). */
export async function setWebhookSecret(db: Db, id: string, encrypted: string, run: WriteRunner = runAsIs) {
  await run(db("applications").where({ id }).update({ webhook_secret_encrypted: encrypted }).returning("id"));
}

/** The auto-deploy and health-path columns of an application. */
export interface DeploySettingsRow {
  id: string;
  autoDeploy: boolean;
  branchFilter: string | null;
  watchPaths: string[] | null;
  requireSignature: boolean;
  webhookSecretEncrypted: string | null;
  healthPath: string;
}

/** The auto-deploy settings of application `id`, or undefined. */
export async function deploySettingsOf(db: Db, id: string): Promise<DeploySettingsRow | undefined> {
  return db("applications")
    .where({ id })
    .first(
      "id",
      "auto_deploy",
      "branch_filter",
      "watch_paths",
      "require_signature",
      "webhook_secret_encrypted",
      "health_path",
    );
}

/**
 * Sets the given auto-deploy settings of application `id` (validated by the caller). A `healthPath` other than the
 * stored one also sets `needsDeployment`, in the same statement: the rendered Deployment's probes request it, so the
 * running version lacks the change. The other settings decide which pushes deploy and are not rendered. The
 * statement is run by `run`.
 */
export async function setDeploySettings(
  db: Db,
  id: string,
  patch: Partial<
    Pick<DeploySettingsRow, "autoDeploy" | "branchFilter" | "watchPaths" | "requireSignature" | "healthPath">
  >,
  run: WriteRunner = runAsIs,
): Promise<void> {
  const rendered = patch.healthPath !== undefined && {
    needs_deployment: db.raw("needs_deployment or health_path is distinct from ?", [patch.healthPath]),
  };
  await run(
    db("applications")
      .where({ id })
      .update({ ...patch, ...rendered })
      .returning("id"),
  );
}

/** What a health probe reads of an application. */
export interface ProbedApplication extends ApplicationSubject {
  healthPath: string | null;
  healthCheckedAt: Date | null;
  applicationStatus: string | null;
}

/** The probe's view of application `id`, or undefined. */
export async function applicationForProbe(db: Db, id: string): Promise<ProbedApplication | undefined> {
  return db("applications")
    .where({ id })
    .first("id", "name", "project_id", "organization_id", "health_path", "health_checked_at", "application_status");
}

/**
 * Locks application `id` (`for update`, in the caller's transaction) and reads its health state.
 * @returns `{ health, healthFailures, applicationStatus }`, or undefined when it does not exist.
 */
export async function lockApplicationHealth(
  trx: Db,
  id: string,
): Promise<Pick<ApplicationRow, "health" | "healthFailures" | "applicationStatus"> | undefined> {
  return trx("applications").where({ id }).forUpdate().first("health", "health_failures", "application_status");
}

/** Sets the health state of application `id` (and its `applicationStatus` when given). */
export async function setApplicationHealth(
  db: Db,
  id: string,
  health: {
    health: ApplicationRow["health"];
    healthFailures: number;
    healthCheckedAt: Date;
    applicationStatus?: string;
  },
): Promise<void> {
  await db("applications").where({ id }).update(health);
}

/**
 * Ids of the applications due for a health probe: `running` or `error`, with a domain, not checked since
 * `dueBefore`; never-checked first, then the longest unchecked.
 */
export async function applicationsDueForProbe(db: Db, dueBefore: Date): Promise<string[]> {
  const rows = (await db("applications as a")
    .whereIn("a.application_status", ["running", "error"])
    .where((q) => q.whereNull("a.health_checked_at").orWhere("a.health_checked_at", "<", dueBefore))
    .whereExists(db("domains as d").whereRaw("d.application_id = a.id"))
    .orderBy("a.health_checked_at", "asc", "first")
    .select("a.id")) as Array<{ id: string }>;
  return rows.map((r) => r.id);
}

/** The host of the oldest domain of application `applicationId`, or undefined when it has none. */
export async function firstDomainHost(db: Db, applicationId: string): Promise<string | undefined> {
  const row = await db("domains").where({ application_id: applicationId }).orderBy("created_at").first("host");
  return row?.host;
}

/** The domains of application `applicationId`, oldest first. */
export async function domainsOfApplication(
  db: Db,
  applicationId: string,
): Promise<Array<{ id: string; host: string; port: number | null; https: boolean | null }>> {
  return db("domains")
    .where({ application_id: applicationId })
    .orderBy("created_at")
    .select("id", "host", "port", "https");
}

/** The environment variables of application `applicationId` (values encrypted), by key. */
export async function environmentVariablesOfApplication(
  db: Db,
  applicationId: string,
): Promise<Array<{ key: string; valueEncrypted: string }>> {
  return db("environment_variables")
    .where({ application_id: applicationId })
    .orderBy("key")
    .select("key", "value_encrypted");
}
