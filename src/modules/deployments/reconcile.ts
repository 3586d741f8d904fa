/**
 * The reconcile of an organization (docs/deployments.md "Deleting"): the rows are the desired state, the cluster
 * follows them. One run, under the `kubernetes` deployer (the `dry-run` deployer touches no cluster, so the
 * reconcile does nothing there):
 * 1. renders every application of the organization that has been deployed (a deployment that started) with the
 *    renderer deployments use (deployment.render.ts), as the deployment whose workload runs carries it (the one its
 *    live Deployment's pod template names, else its latest `done` one, else its latest started one): that
 *    deployment's image, port and health path;
 * 2. applies the Services and routes (Ingress, or HTTPRoute and Certificate) of that render server-side: a domain
 *    added, changed or removed reaches the cluster without a deployment. Workloads (Deployment, StatefulSet, build
 *    Job) and their Secrets (variables, database passwords) change only with a deployment, which keeps its meaning:
 *    a new image or configuration rolled out. One missing from the cluster (deleted by hand) is created again from
 *    the render when its application's deployment ran (it is named by a live Deployment or ended `done`): the
 *    cluster follows the rows without waiting for the next deployment; build Jobs are never recreated;
 *    Before them, when anything is rendered, the objects of the organization's namespaces (tenant.manifests.ts:
 *    Namespaces, RoleBindings, NetworkPolicies, ResourceQuotas, LimitRanges), which follow the plan;
 * 3. lists (before step 1) the objects labelled with the organization ({@link OWNER_LABELS}) in its namespace and its
 *    build namespace and deletes every one no longer called for: not in the render, except a database's objects (and its volumes)
 *    while the database's row exists and a build's objects while its application's row exists. A 404 is success.
 *    The namespaces themselves stay while the organization exists (the last application or database deleted leaves
 *    them empty, still isolated); a deleted organization's Namespaces are deleted, with everything in them;
 * 4. the legacy namespace (SKIFF_LEGACY_NAMESPACE, `skiff-apps`: every organization's objects before tenant
 *    namespaces; docs/operations.md "Migrating from skiff-apps"): when it holds objects of the organization, step 2
 *    applies the whole render (workloads and their Secrets too, builds excepted) into the organization's namespace,
 *    then the legacy objects are deleted — except a database's (its StatefulSet, Service, Secret and volume) while
 *    the database's row exists, until the operator labels that legacy StatefulSet {@link MIGRATED_LABEL}`=true`
 *    once its data is restored in the new one. Volumes cannot move between namespaces: this keeps the data until
 *    the operator says it is copied.
 * Each apply and deletion of steps 2 to 4 stands on its own: one the cluster refuses (a 422, an outage of one kind)
 * is recorded and the others are still made, then the run fails naming them, so the job retries it — except that
 * no workload is applied while one of the tenant's own objects (namespace, network policies, quota) failed.
 * Enqueued by every change of a resource (the `onEvent` of the module, in the changing transaction), coalesced per
 * organization (job key), serial per organization (queue), retried with backoff through API-server outages; and
 * periodically for every organization with a Namespace or a legacy object in the cluster, or a deployed application
 * (SKIFF_RECONCILE_INTERVAL), which catches what a crash between a row change and its job left behind.
 */
import type { Knex } from "knex";
import type { Logger } from "pino";
import { missingReference } from "../../db/pg-errors.ts";
import { storableText } from "../../shared/storable-text.ts";
import { buildNamespaceOf, namespaceOf } from "../../shared/tenant-namespace.ts";
import {
  applicationIdsOfOrganization,
  applicationsOfOrganization,
  organizationIdsOfApplications,
} from "../applications/index.ts";
import { databaseIdsOfOrganization } from "../databases/index.ts";
import { organizationExists } from "../organizations/index.ts";
import type { AppServices } from "../services.ts";
import type { ClusterClient, LiveObject } from "./cluster.kinds.ts";
import { MANAGED_BY, type Manifest, OWNER_LABELS } from "./deployment.manifests.ts";
import { renderApplication, renderTenantOf } from "./deployment.render.ts";
import { type ReconcileTrigger, reconcileMetrics } from "./reconcile.metrics.ts";

/** Name of the job that reconciles one organization. */
export const RECONCILE_JOB = "deployments.reconcile";

/** Kinds of a render the reconcile applies itself (the rest is applied by deployments only; see the file comment). */
const APPLIED_BY_RECONCILE = new Set(["Service", "Ingress", "HTTPRoute", "Certificate"]);

/** Components kept while their owning row exists, rendered or not ({@link OWNER_LABELS}`.component`). */
const KEPT_WITH_ROW = { database: OWNER_LABELS.resource, build: OWNER_LABELS.application } as const;

/**
 * Enqueues a reconcile of `organizationId` in `db` (the caller's transaction: it commits or rolls back with the
 * change). Coalesced: a reconcile already waiting for the organization is replaced, one running is not affected
 * (the new one runs after it, on the organization's queue).
 */
export async function enqueueReconcile(
  services: AppServices,
  db: Knex | Knex.Transaction,
  organizationId: string,
  trigger: ReconcileTrigger,
): Promise<void> {
  await services.jobs.enqueue(
    db,
    RECONCILE_JOB,
    { organizationId, trigger },
    { jobKey: `reconcile:${organizationId}`, queueName: `reconcile:${organizationId}` },
  );
}

/** `Kind/apiVersion/name`: the identity of an object within a namespace. */
const key = (o: { apiVersion: string; kind: string; metadata: { name: string } }) =>
  `${o.apiVersion}/${o.kind}/${o.metadata.name}`;

/** The label selector of the objects of `organizationId`. */
export function organizationSelector(organizationId: string): string {
  return `${Object.keys(MANAGED_BY)[0]}=skiff,${OWNER_LABELS.organization}=${organizationId}`;
}

/**
 * Every object the rows of `organizationId` call for: the render of each application with a started deployment,
 * as the deployment whose workload runs carries it — the one its live Deployment names (`running`: deployment ids
 * read from the cluster, {@link LiveObject}`.deployment`), else its latest `done` one, else (none succeeded) its
 * latest started one — with that deployment's port, health path and image (renderApplication's `running`). Reads:
 * the applications, their deployments (two queries), then each application's render (its own reads, as a
 * deployment does).
 */
export async function desiredObjects(
  services: AppServices,
  organizationId: string,
  running: string[] = [],
): Promise<DesiredObjects> {
  const { knex } = services;
  const apps = await applicationsOfOrganization(knex, organizationId);
  if (apps.length === 0) return { manifests: [], restorable: new Set() };
  type Row = {
    id: string;
    applicationId: string;
    commitSha: string | null;
    status: string;
    manifests: Manifest[] | null;
  };
  const ids = apps.map((a) => a.id);
  const columns = ["id", "application_id", "commit_sha", "status", "manifests"];
  const latest = (await knex("deployments")
    .distinctOn("application_id")
    .whereIn("application_id", ids)
    .whereNotNull("started_at")
    .orderByRaw("application_id, status = 'done' desc, created_at desc")
    .select(columns)) as Row[];
  const named =
    running.length > 0
      ? ((await knex("deployments")
          .whereIn("id", running)
          .whereIn("application_id", ids)
          .whereNotNull("started_at")
          .select(columns)) as Row[])
      : [];
  const byApp = new Map([...latest, ...named].map((d) => [d.applicationId, d]));
  const manifests: Manifest[] = [];
  const restorable = new Set<Manifest>();
  for (const app of apps) {
    const deployment = byApp.get(app.id);
    if (!deployment) continue;
    const rendered = await renderApplication(services, app, deployment, deployment.manifests);
    manifests.push(...rendered);
    if (deployment.status === "done" || running.includes(deployment.id)) {
      // Only what that deployment applied: a database created since is started by the next deployment.
      const applied = new Set((deployment.manifests ?? []).map((m) => `${m.kind}/${m.metadata.name}`));
      for (const m of rendered) if (applied.has(`${m.kind}/${m.metadata.name}`)) restorable.add(m);
    }
  }
  return { manifests, restorable };
}

/** What {@link desiredObjects} renders: every object, and those the reconcile may create again when missing. */
export interface DesiredObjects {
  manifests: Manifest[];
  /** The objects of applications whose deployment ran (named by a live Deployment, or `done`). */
  restorable: Set<Manifest>;
}

/** What one reconcile did. */
export interface ReconcileOutcome {
  /** Objects applied (Services and routes of the render, and what was restored). */
  applied: number;
  /** `namespace/Kind/name` of the workloads and Secrets created again because they were missing from the cluster. */
  restored: string[];
  /** Objects deleted (not called for any more). */
  deleted: LiveObject[];
  /** The applies and deletions that failed (the API's messages); the others were made all the same. */
  failed: string[];
}

/**
 * Reconciles organization `organizationId` (see the file comment). Each apply and each deletion stands on its
 * own: one the cluster refuses is recorded and the others are still made. @returns what it did, or null under the
 * `dry-run` deployer (nothing touched). @throws Error with the API's messages when an apply or a deletion failed,
 * after all the others were made, or when the cluster cannot be listed (the job retries).
 */
export async function reconcileOrganization(
  services: AppServices,
  log: Logger,
  organizationId: string,
  trigger: ReconcileTrigger,
): Promise<ReconcileOutcome | null> {
  if (services.config.SKIFF_DEPLOYER !== "kubernetes") return null;
  const metrics = reconcileMetrics();
  let failures: string[] = [];
  try {
    const cluster = await connect(services);
    const outcome = await reconcileIn(services, cluster, organizationId);
    failures = outcome.failed;
    for (const o of outcome.deleted) metrics.deleted.inc({ kind: o.kind, trigger });
    if (outcome.restored.length > 0) {
      log.warn(
        {
          organizationId,
          trigger,
          restored: outcome.restored,
        },
        "reconcile created again objects missing from the cluster",
      );
    }
    if (outcome.deleted.length > 0) {
      log.info(
        {
          organizationId,
          trigger,
          deleted: outcome.deleted.map((o) => `${o.metadata.namespace}/${o.kind}/${o.metadata.name}`),
        },
        "reconcile deleted objects no row calls for",
      );
    }
    if (outcome.failed.length > 0) {
      const more = outcome.failed.length > 5 ? `; and ${outcome.failed.length - 5} more` : "";
      throw new Error(
        `reconcile: ${outcome.failed.length} of the organization's objects failed: ${outcome.failed.slice(0, 5).join("; ")}${more}`,
      );
    }
    await recordStatus(services.knex, organizationId, []);
    metrics.runs.inc({ trigger, outcome: "success" });
    return outcome;
  } catch (error) {
    metrics.runs.inc({ trigger, outcome: "failure" });
    // The objects that failed, else what stopped the run (the cluster not listed, a read of the rows).
    const reported = failures.length > 0 ? failures : [error instanceof Error ? error.message : String(error)];
    await recordStatus(services.knex, organizationId, reported).catch((e: unknown) =>
      log.warn({ err: e, organizationId }, "reconcile status not recorded"),
    );
    throw error;
  }
}

/** Most failure messages a status keeps, and the characters kept of each (`Organization.clusterSync.failures`). */
const STATUS_FAILURES = 20;
const STATUS_MESSAGE_CHARS = 500;

/**
 * Records the outcome of a reconcile of `organizationId` in `reconcile_status` (GraphQL `Organization.clusterSync`):
 * synced when `failures` is empty, else failing since the first failure after a success, with the messages (at most
 * {@link STATUS_FAILURES}, each cut at {@link STATUS_MESSAGE_CHARS} characters). A deleted organization's is not
 * written (its row went with it).
 */
async function recordStatus(knex: Knex, organizationId: string, failures: string[]): Promise<void> {
  const kept = failures.slice(0, STATUS_FAILURES).map((m) => storableText(m.slice(0, STATUS_MESSAGE_CHARS)));
  const failing = kept.length > 0;
  try {
    await knex.raw(
      `insert into reconcile_status as s (id, checked_at, synced_at, failing_since, failures)
       values (?, now(), case when ? then null else now() end, case when ? then now() end, ?::jsonb)
       on conflict (id) do update set checked_at = excluded.checked_at,
         synced_at = coalesce(excluded.synced_at, s.synced_at),
         failing_since = case when ? then coalesce(s.failing_since, excluded.failing_since) end,
         failures = excluded.failures`,
      [organizationId, failing, failing, JSON.stringify(kept), failing],
    );
  } catch (error) {
    if (!missingReference(error)) throw error;
  }
}

/** The cluster of SKIFF's configuration (the client library is loaded on first use). */
async function connect(services: AppServices): Promise<ClusterClient> {
  return (await import("./cluster.kubernetes.ts")).connectCluster(services.config);
}

/** `namespace/Kind/apiVersion/name`: the identity of an object in the cluster. */
const placed = (o: { apiVersion: string; kind: string; metadata: { name: string; namespace?: string } }) =>
  `${o.metadata.namespace ?? ""}/${key(o)}`;

/**
 * The label an operator sets on a legacy database's StatefulSet once its data is restored in the organization's
 * namespace (docs/operations.md "Migrating from skiff-apps"): only then does the reconcile delete the legacy
 * database's objects and volume while its row exists.
 */
export const MIGRATED_LABEL = "skiff.dev/migrated";

/** One reconcile of `organizationId` (steps of the file comment). */
async function reconcileIn(
  services: AppServices,
  cluster: ClusterClient,
  organizationId: string,
): Promise<ReconcileOutcome> {
  const selector = organizationSelector(organizationId);
  const own = [namespaceOf(organizationId), buildNamespaceOf(organizationId)];
  const legacy = services.config.SKIFF_LEGACY_NAMESPACE;
  const legacyObjects = legacy && !own.includes(legacy) ? await cluster.list(legacy, selector) : [];
  const deleted: LiveObject[] = [];
  // One failed apply or deletion does not stop the others: each is recorded, and the run fails once all were made.
  const failed: string[] = [];
  const attempt = async (step: () => Promise<void>) => {
    try {
      await step();
    } catch (error) {
      failed.push(error instanceof Error ? error.message : String(error));
    }
  };
  const remove = (object: LiveObject) =>
    attempt(async () => {
      if (await cluster.remove(object)) deleted.push(object);
    });

  if (!(await organizationExists(services.knex, organizationId))) {
    // A deleted organization: its legacy objects, then its namespaces with everything in them.
    for (const object of legacyObjects) await remove(object);
    for (const namespace of await cluster.listNamespaces(selector)) await remove(namespace);
    return { applied: 0, restored: [], deleted, failed };
  }

  // Listed first: the live Deployments name the deployments whose workloads run (desiredObjects).
  const live: LiveObject[] = [];
  for (const namespace of own) live.push(...(await cluster.list(namespace, selector)));
  const running = live.flatMap((o) => (o.deployment ? [o.deployment] : []));
  const { manifests: desired, restorable } = await desiredObjects(services, organizationId, running);
  const present = new Set(live.map(placed));
  const restored: string[] = [];
  const tenant = await renderTenantOf(services, organizationId);
  let applied = 0;
  if (desired.length > 0) {
    for (const manifest of tenant) {
      await attempt(async () => {
        await cluster.apply(manifest, manifest.metadata.namespace ?? own[0]!);
        applied += 1;
      });
    }
  }
  // Objects still in the legacy namespace: the whole render is recreated in the organization's namespace (not the
  // builds: the images exist), then the legacy objects go below. No workload is applied while the tenant's own
  // objects (namespace, isolation policies, quota) are not all in place: deletions still are.
  const migrating = legacyObjects.length > 0;
  const tenantInPlace = failed.length === 0;
  for (const manifest of tenantInPlace ? desired : []) {
    const component = manifest.metadata.labels?.[OWNER_LABELS.component];
    const at = { ...manifest, metadata: { ...manifest.metadata, namespace: manifest.metadata.namespace ?? own[0]! } };
    const reconciled = APPLIED_BY_RECONCILE.has(manifest.kind) || (migrating && component !== "build");
    // A workload or Secret deleted by hand, after its deployment ran, is created again.
    const missing = !reconciled && component !== "build" && restorable.has(manifest) && !present.has(placed(at));
    if (!reconciled && !missing) continue;
    await attempt(async () => {
      await cluster.apply(manifest, at.metadata.namespace);
      applied += 1;
      if (missing) restored.push(placed(at));
    });
  }
  const wanted = new Set([...tenant, ...desired].map(placed));
  const rows = await ownerRows(services.knex, organizationId);
  for (const object of live) {
    if (wanted.has(placed(object))) continue;
    const component = object.metadata.labels[OWNER_LABELS.component];
    if (component === "database" || component === "build") {
      const owner = object.metadata.labels[KEPT_WITH_ROW[component]];
      if (owner && (component === "database" ? rows.databases : rows.applications).has(owner)) continue;
    }
    await remove(object);
  }
  // The legacy namespace: nothing there is called for any more, except a database's objects and volume while its
  // row exists and its StatefulSet does not carry MIGRATED_LABEL=true.
  const confirmed = new Set(
    legacyObjects
      .filter((o) => o.kind === "StatefulSet" && o.metadata.labels[MIGRATED_LABEL] === "true")
      .map((o) => o.metadata.labels[OWNER_LABELS.resource]),
  );
  for (const object of legacyObjects) {
    const owner = object.metadata.labels[OWNER_LABELS.resource];
    const database = object.metadata.labels[OWNER_LABELS.component] === "database";
    if (database && owner && rows.databases.has(owner) && !confirmed.has(owner)) continue;
    await remove(object);
  }
  return { applied, restored, deleted, failed };
}

/** Ids of the organization's applications and databases (the rows that keep their objects alive). */
async function ownerRows(knex: Knex, organizationId: string) {
  const [apps, dbs] = await Promise.all([
    applicationIdsOfOrganization(knex, organizationId),
    databaseIdsOfOrganization(knex, organizationId),
  ]);
  return { applications: new Set<string>(apps), databases: new Set<string>(dbs) };
}

/**
 * The periodic reconcile: enqueues a reconcile (`periodic`) of every organization with objects in the cluster
 * (a deleted organization's included: its objects all go) or with a deployed application. Nothing under the
 * `dry-run` deployer. @returns how many organizations were enqueued.
 */
export async function reconcileAll(services: AppServices): Promise<number> {
  if (services.config.SKIFF_DEPLOYER !== "kubernetes") return 0;
  const cluster = await connect(services);
  const anyOrganization = `${Object.keys(MANAGED_BY)[0]}=skiff,${OWNER_LABELS.organization}`;
  const live = await cluster.listNamespaces(anyOrganization);
  const legacy = services.config.SKIFF_LEGACY_NAMESPACE;
  if (legacy) live.push(...(await cluster.list(legacy, anyOrganization)));
  const ids = new Set(live.map((o) => o.metadata.labels[OWNER_LABELS.organization]!).filter(Boolean));
  const deployed = await organizationIdsOfApplications(
    services.knex,
    services.knex("deployments").whereNotNull("started_at").select("application_id"),
  );
  for (const id of deployed) ids.add(id);
  for (const id of ids) await enqueueReconcile(services, services.knex, id, "periodic");
  return ids.size;
}

/**
 * Plans the periodic reconcile (every minute): a `deployments.reconcile-all` job SKIFF_RECONCILE_INTERVAL seconds
 * after the last one ran (one pending at a time across instances: job key, run time kept). Nothing when the
 * interval is 0 or under the `dry-run` deployer.
 */
export async function planReconcile(services: AppServices): Promise<boolean> {
  const interval = services.config.SKIFF_RECONCILE_INTERVAL;
  if (interval === 0 || services.config.SKIFF_DEPLOYER !== "kubernetes") return false;
  await services.jobs.enqueue(
    services.knex,
    "deployments.reconcile-all",
    {},
    {
      runAt: new Date(services.now().getTime() + interval * 1000),
      jobKey: "reconcile-all",
      jobKeyMode: "preserve_run_at",
    },
  );
  return true;
}
