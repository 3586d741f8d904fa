/**
 * `importOrganization`: applies an organization bundle (docs/organization-transfer.md "Import") to an existing
 * organization the caller owns. It computes the plan (organization-import-plan.service.ts), refuses when the plan
 * has conflicts (naming each), then creates every CREATE item, in the bundle's order, through the owning module's
 * own service — the one its management mutation runs — so validation, quotas, encryption with this instance's key,
 * events and reconciliation are that module's single implementation. Nothing that exists is changed.
 *
 * Idempotent and resumable: the apply is a sequence of items, each in a transaction of its own that holds the
 * organization's import lock (a transaction-scoped advisory lock): inside it the item is looked up again and created
 * only when still absent, through a context whose every read goes through that transaction (its loaders included).
 * So concurrent imports into one organization take turns item by item and never create one twice, and each item
 * locks the rows it hangs from (its project, environment or application) before it reads them: one deleted since
 * the plan stops the run with a ConflictError, and a deletion that comes later waits for the item to commit. What the
 * bundle gets wrong (a name given twice, a grant that matches nothing) is refused by the plan before the first
 * create. A second run creates nothing (its plan shows every item EXISTS); a run stopped halfway (a crash, a refused
 * item, a target deleted meanwhile) is finished by running it again. Deployments are queued only when `deploy` is
 * true, for the applications this run created.
 */
import type { Knex } from "knex";
import { ConflictError } from "../../shared/errors.ts";
import { onTransaction } from "../../shared/transaction.ts";
import {
  addDomain,
  applicationNamed,
  createApplicationIn,
  createDatabaseIn,
  createEnvironmentIn,
  deploySettingsOf,
  domainsOfApplication,
  environmentVariablesOfApplication,
  exportApplications,
  lockApplication,
  setApplicationVariables,
} from "../applications/index.ts";
import type { Context } from "../context.ts";
import { type DatabaseSpec, databaseEnvVars, exportDatabases } from "../databases/index.ts";
import { deployApplication, updateDeploySettings } from "../deployments/index.ts";
import { exportDocsTheme, setDocsTheme } from "../docs-theming/index.ts";
import { createPaymentGatewayService, exportPaymentGatewayServices } from "../payments/index.ts";
import {
  createProject,
  type ExportedProject,
  exportProjects,
  lockEnvironment,
  projectNamed,
} from "../projects/index.ts";
import { inviteMember, pendingInvitations } from "../team/index.ts";
import { createWebhook, exportWebhookEndpoints } from "../webhooks/index.ts";
import {
  atNewApplicationDefaults,
  type ImportKey,
  type ImportPlan,
  type ImportPlanItem,
  prepareOrganizationImport,
} from "./organization-import-plan.service.ts";

/** What an import did (schema/transfer.graphql `OrganizationImportResult`). */
export interface ImportResult {
  /** The items created by this run, in the order they were created. */
  created: ImportPlanItem[];
  /** Items that were there already (the plan's EXISTS). */
  exists: number;
  /** Ids of the deployments queued (only with `deploy`). */
  deployments: string[];
  /** The plan's warnings and what the apply did otherwise than asked (each secret left empty or made anew). */
  warnings: string[];
}

/** Variables that name the database an application uses (as manage-databases.service.ts reads them). */
const IDENTIFYING = ["DB_HOST", "DATABASE_URL", "MONGO_URL"] as const;

/**
 * Whether an application's bundle variables (`value(key)`: the readable value, or null) are wired to the source's
 * database `db` (its password null when unreadable): its URL (`DATABASE_URL`, `MONGO_URL`) is the one `db` gives on
 * the URL's host, or its `DB_HOST` comes with `db`'s `DB_DATABASE` and `DB_USERNAME` (and `DB_PASSWORD` when both
 * are known). A host alone (an outside database) is not enough.
 * @returns the identifying key that matched, or null.
 */
function usesSourceDatabase(
  db: { type: DatabaseSpec["type"]; name: string; username: string; password: string | null },
  value: (key: string) => string | null,
): (typeof IDENTIFYING)[number] | null {
  const spec = { type: db.type, name: db.name, user: db.username, password: db.password ?? "" };
  for (const key of ["DATABASE_URL", "MONGO_URL"] as const) {
    const url = value(key);
    if (url === null || db.password === null || !URL.canParse(url)) continue;
    if (databaseEnvVars(spec, new URL(url).hostname)[key] === url) return key;
  }
  const host = value("DB_HOST");
  if (host === null) return null;
  const given = databaseEnvVars(spec, host);
  const same = (key: string) => value(key) === given[key];
  const password = value("DB_PASSWORD");
  if (!same("DB_DATABASE") || !same("DB_USERNAME")) return null;
  return password === null || db.password === null || password === db.password ? "DB_HOST" : null;
}

/** The conflicts of `plan` in one sentence. */
function conflictMessage(plan: ImportPlan): string {
  const list = plan.items
    .filter((i) => i.action === "CONFLICT")
    .map((i) => `${i.kind} ${i.name}: ${i.reason}`)
    .join("; ");
  return `The import plan has ${plan.conflicts} conflict(s); nothing was created: ${list}`;
}

/**
 * First key of the two-key advisory lock that serialises the items of imports into one organization (the second is
 * `hashtext` of the organization's id). The two-key space is apart from the one-key locks (migrations, first run).
 */
const IMPORT_LOCK_CLASS = 0x736b6f69;

/** The statement that takes an organization's import lock until its transaction ends (`?`: class, organization id). */
const IMPORT_LOCK_SQL = "select pg_advisory_xact_lock(?, hashtext(?))";

/** Waits for and takes `organizationId`'s import lock, held until `trx` ends. */
async function lockImports(trx: Knex.Transaction, organizationId: string): Promise<void> {
  await trx.raw(IMPORT_LOCK_SQL, [IMPORT_LOCK_CLASS, organizationId]);
}

/**
 * A copy of `ctx` on `trx` for every read and write: its `knex`, the `knex` of its services (what some services and
 * the loaders read through) and loaders built anew on it (`forEvent`), so that nothing it runs waits for a second
 * connection while `trx` holds one.
 */
function onItemTransaction(ctx: Context, trx: Knex.Transaction): Context {
  const bound = onTransaction(ctx, trx);
  bound.services = { ...ctx.services, knex: trx };
  return bound.forEvent();
}

/**
 * Runs `work` in a transaction of its own (opened on `ctx.knex`, so the call's audit entry commits with the first)
 * holding `organizationId`'s import lock, with a context bound to it (see {@link onItemTransaction}). `work` keeps
 * its effects inside the transaction: it may run again after a deadlock.
 */
function inImportTurn<T>(ctx: Context, organizationId: string, work: (tx: Context) => Promise<T>): Promise<T> {
  return ctx.knex.transaction(async (trx: Knex.Transaction) => {
    await lockImports(trx, organizationId);
    return work(onItemTransaction(ctx, trx));
  });
}

/** The error of an item whose target (`what`, e.g. `project shop`) is gone since the plan found it. */
function targetGone(what: string): ConflictError {
  return new ConflictError(
    `The organization changed during the import: ${what} was deleted; the items before it are created, run the import again`,
  );
}

/**
 * Project `name` of `organizationId` with its environments, its row locked (`for key share`: it cannot be deleted
 * until `tx`'s transaction ends).
 * @throws ConflictError when it is gone.
 */
async function lockedProject(tx: Context, organizationId: string, name: string): Promise<ExportedProject> {
  const rows = await projectNamed(tx.knex, organizationId, name).forKeyShare();
  const project = rows.length ? (await exportProjects(tx, organizationId)).find((p) => p.name === name) : undefined;
  if (!project) throw targetGone(`project ${name}`);
  return project;
}

/**
 * The id of environment `environment` of project `project`, locked with its project for the rest of `tx`'s
 * transaction (nothing deletes them meanwhile).
 * @throws ConflictError when either is gone.
 */
async function lockedEnvironment(
  tx: Context,
  organizationId: string,
  project: string,
  environment: string,
): Promise<string> {
  const found = (await lockedProject(tx, organizationId, project)).environments.find((e) => e.name === environment);
  if (!found || !(await lockEnvironment(tx.knex as Knex.Transaction, found.id))) {
    throw targetGone(`environment ${project}/${environment}`);
  }
  return found.id;
}

/**
 * Environment `id` (at `path`), as an earlier item found it, locked with its project for the rest of `tx`'s
 * transaction. @returns `id`. @throws ConflictError when it is gone.
 */
async function lockedEnvironmentById(tx: Context, id: string, path: string): Promise<string> {
  if (!(await lockEnvironment(tx.knex as Knex.Transaction, id))) throw targetGone(`environment ${path}`);
  return id;
}

/**
 * Locks application `id` (at `path`) for the rest of `tx`'s transaction: its environment and project cannot be
 * deleted meanwhile either (their deletion cascades to its row).
 * @throws ConflictError when it is gone.
 */
async function lockedApplication(tx: Context, at: { path: string; id: string }): Promise<void> {
  if (!(await lockApplication(tx.knex, at.id))) throw targetGone(`application ${at.path}`);
}

/**
 * Imports `raw` (an organization bundle) into `organizationId`, secrets opened with `key`.
 * @throws NotFoundError (not a member), ForbiddenError (not the owner), BadUserInputError (not a version 1 bundle, a
 * key that does not open it, a resource named twice), ConflictError (the plan has conflicts: nothing created; a
 * project, environment, application or a member's grant deleted since the plan: the items before it stay created),
 * and the errors of a module's service when one item is refused (the items before it stay created; a second run
 * continues after them).
 */
export async function importOrganization(
  ctx: Context,
  organizationId: string,
  raw: unknown,
  key: ImportKey = {},
  options: { deploy?: boolean | null } = {},
): Promise<ImportResult> {
  const { bundle, readable, plan, providers } = await prepareOrganizationImport(ctx, organizationId, raw, key);
  if (plan.conflicts > 0) throw new ConflictError(conflictMessage(plan));

  const wanted = new Set(plan.items.filter((i) => i.action === "CREATE").map((i) => `${i.kind}\n${i.name}`));
  const created: ImportPlanItem[] = [];
  /** Whether the plan creates `kind` `name`; records it as created when `done` runs (after its transaction committed). */
  const creates = (kind: string, name: string) => wanted.has(`${kind}\n${name}`);
  const done = (kind: string, name: string) => created.push({ kind, name, action: "CREATE", reason: null });
  const warnings = [...plan.warnings.filter((w) => !w.startsWith("Secret "))];
  const secretOf = (ref: string, fallback: string) => {
    if (ref in readable) return readable[ref]!;
    warnings.push(`Secret ${ref} ${fallback}`);
    return null;
  };
  const newApplications: Array<{ project: string; path: string; id: string }> = [];
  /** One item: `work` in its own transaction under the organization's import lock (see {@link inImportTurn}). */
  const turn = <T>(work: (tx: Context) => Promise<T>) => inImportTurn(ctx, organizationId, work);

  for (const p of bundle.projects) {
    let projectMade = false;
    if (creates("project", p.name)) {
      projectMade = await turn(async (tx) => {
        if ((await projectNamed(tx.knex, organizationId, p.name)).length) return false;
        await createProject(tx, { organizationId, name: p.name, description: p.description });
        return true;
      });
      if (projectMade) done("project", p.name);
    }
    for (const e of p.environments) {
      const path = `${p.name}/${e.name}`;
      const environmentMade = await turn(async (tx) => {
        const project = await lockedProject(tx, organizationId, p.name);
        if (project.environments.some((x) => x.name === e.name)) return false;
        if (!creates("environment", path)) throw targetGone(`environment ${path}`);
        await createEnvironmentIn(tx, project.id, e.name);
        return true;
      });
      // A new project's first environment is made with it: created by this run all the same.
      if (creates("environment", path) && (environmentMade || projectMade)) done("environment", path);
      /** Names of this environment's applications created by this run. */
      const createdHere = new Set<string>();
      /** Ids of this environment's applications, by name, as each application's item found or made them. */
      const ids = new Map<string, string>();
      /** The environment's id once an item found it (later items lock it by id). */
      let environmentOf: string | undefined;
      /** The environment, locked for the rest of `tx`'s transaction. */
      const environmentIn = async (tx: Context) => {
        environmentOf = environmentOf
          ? await lockedEnvironmentById(tx, environmentOf, path)
          : await lockedEnvironment(tx, organizationId, p.name, e.name);
        return environmentOf;
      };
      for (const a of e.applications) {
        const appPath = `${path}/${a.name}`;
        const app = await turn(async (tx) => {
          const environmentId = await environmentIn(tx);
          const present = await applicationNamed(tx.knex, environmentId, a.name);
          if (present) return { id: present.id, made: false };
          if (!creates("application", appPath)) throw targetGone(`application ${appPath}`);
          const provider = a.sourceType === "github" || a.sourceType === "gitlab" ? providers[a.sourceType] : null;
          const made = await createApplicationIn(tx, {
            environmentId,
            name: a.name,
            source: {
              // The plan makes an application without a source type a conflict.
              type: a.sourceType!,
              ...a.source,
              ...(a.buildType ? { buildType: a.buildType } : {}),
              ...(a.sourceType === "github" ? { githubId: provider } : {}),
              ...(a.sourceType === "gitlab" ? { gitlabId: provider } : {}),
            },
            port: a.port,
          });
          return { id: made.id, made: true };
        });
        const applicationId = app.id;
        const target = { project: p.name, path: appPath, id: applicationId };
        ids.set(a.name, applicationId);
        if (app.made) {
          newApplications.push(target);
          createdHere.add(a.name);
          done("application", appPath);
        }
        if (creates("deploySettings", appPath)) {
          const set = await turn(async (tx) => {
            await lockedApplication(tx, target);
            const current = await deploySettingsOf(tx.knex, applicationId);
            if (!current || !atNewApplicationDefaults(current)) return false;
            // Already the bundle's, in an application another run created: nothing to write.
            if (!app.made && atNewApplicationDefaults(a.deploySettings)) return false;
            await updateDeploySettings(tx, applicationId, a.deploySettings);
            return true;
          });
          if (set) done("deploySettings", appPath);
        }
        const variables = a.variables.filter((v) => creates("variable", `${appPath}/${v.key}`));
        if (variables.length) {
          const values = new Map(variables.map((v) => [v.key, secretOf(v.secret, "was left empty") ?? ""]));
          const set = await turn(async (tx) => {
            await lockedApplication(tx, target);
            const held = new Set((await environmentVariablesOfApplication(tx.knex, applicationId)).map((v) => v.key));
            const absent = variables.filter((v) => !held.has(v.key));
            if (absent.length) {
              await setApplicationVariables(
                tx,
                applicationId,
                { variables: absent.map((v) => ({ key: v.key, value: values.get(v.key)! })) },
                false,
              );
            }
            return absent;
          });
          for (const v of set) done("variable", `${appPath}/${v.key}`);
        }
        for (const d of a.domains) {
          if (!creates("domain", d.host)) continue;
          const added = await turn(async (tx) => {
            await lockedApplication(tx, target);
            if ((await domainsOfApplication(tx.knex, applicationId)).some((x) => x.host === d.host)) return false;
            await addDomain(tx, { applicationId, host: d.host, port: d.port ?? undefined, https: d.https });
            return true;
          });
          if (added) done("domain", d.host);
        }
      }
      for (const d of e.databases) {
        if (!creates("database", `${path}/${d.name}`)) continue;
        const password = secretOf(d.password, "was not readable: a new password was generated");
        const made = await turn(async (tx) => {
          const environmentId = await environmentIn(tx);
          const databases = await exportDatabases(tx, organizationId);
          if (databases.some((x) => x.environmentId === environmentId && x.name === d.name)) return false;
          const applications = (await exportApplications(tx, organizationId)).filter(
            (x) => x.environmentId === environmentId,
          );
          // The applications wired to the source's database get the new one's variables (its host is this
          // organization's), in the database's own transaction: none keeps pointing at the source instance.
          const users = e.applications.flatMap((a) => {
            const id = ids.get(a.name);
            const held = (key: string) =>
              applications.find((x) => x.id === id)?.variables.find((v) => v.key === key)?.value ?? null;
            const bundled = (key: string) => {
              const ref = a.variables.find((v) => v.key === key)?.secret;
              return ref !== undefined && ref in readable ? readable[ref]! : null;
            };
            const wired = usesSourceDatabase({ ...d, password: readable[d.password] ?? null }, bundled);
            // Still as the bundle wired it: imported by this run or an earlier one (never a value set since).
            const current = (id && createdHere.has(a.name)) || (wired !== null && held(wired) === bundled(wired));
            return id && wired && current && applications.some((x) => x.id === id) ? [id] : [];
          });
          await createDatabaseIn(tx, {
            environmentId,
            type: d.type,
            name: d.name,
            user: d.username,
            ...(password === null ? {} : { password }),
            applicationIds: users,
          });
          return true;
        });
        if (made) done("database", `${path}/${d.name}`);
      }
    }
    for (const s of p.paymentGatewayServices) {
      if (!creates("paymentGatewayService", `${p.name}/${s.name}`)) continue;
      const made = await turn(async (tx) => {
        const project = await lockedProject(tx, organizationId, p.name);
        const present = await exportPaymentGatewayServices(tx, organizationId);
        if (present.some((x) => x.projectId === project.id && x.name === s.name)) return false;
        await createPaymentGatewayService(tx, { projectId: project.id, name: s.name, webhookUrl: s.webhookUrl });
        return true;
      });
      if (made) done("paymentGatewayService", `${p.name}/${s.name}`);
    }
  }

  for (const w of bundle.webhookEndpoints) {
    if (!creates("webhookEndpoint", w.url)) continue;
    const secret = secretOf(w.secret, "was not readable: a new signing secret was generated");
    const made = await turn(async (tx) => {
      if ((await exportWebhookEndpoints(tx, organizationId)).some((x) => x.url === w.url)) return false;
      await createWebhook(
        tx,
        organizationId,
        { url: w.url, events: w.events, isActive: w.isActive, description: w.description ?? undefined },
        secret ?? undefined,
      );
      return true;
    });
    if (made) done("webhookEndpoint", w.url);
  }

  if (bundle.docsTheme && creates("docsTheme", bundle.docsTheme.siteName)) {
    const { hostname, ...theme } = bundle.docsTheme;
    const made = await turn(async (tx) => {
      if (await exportDocsTheme(tx, organizationId)) return false;
      await setDocsTheme(tx, organizationId, { ...theme, docsHostname: hostname });
      return true;
    });
    if (made) done("docsTheme", bundle.docsTheme.siteName);
  }

  for (const m of bundle.members) {
    const email = m.email.toLowerCase();
    if (!creates("member", email)) continue;
    const role = m.role === "owner" ? "admin" : m.role;
    const made = await turn(async (tx) => {
      if ((await pendingInvitations(tx, organizationId)).some((x) => x.email === email)) return false;
      // Grants name projects and applications by name: their ids in this organization, locked until the invitation
      // commits. The plan found every grant's target; one gone since refuses the member rather than invite them
      // without it, which would give them every project.
      const grants = role === "member" ? await grantIds(tx, organizationId, email, m.grants) : [];
      await inviteMember(tx, { organizationId, email, role, grants, limited: role === "member" && m.limited === true });
      return true;
    });
    if (made) done("member", email);
  }

  const deployments: string[] = [];
  if (options.deploy) {
    for (const app of newApplications) {
      const deployment = await turn(async (tx) => {
        await lockedApplication(tx, app);
        return deployApplication(tx, app.id, "Organization import");
      });
      deployments.push(deployment.id);
    }
  }
  return { created, exists: plan.exists, deployments, warnings };
}

/** A member's grants as the bundle writes them. */
type BundleGrants = Awaited<ReturnType<typeof prepareOrganizationImport>>["bundle"]["members"][number]["grants"];

/**
 * The ids of the projects and applications `grants` name in `organizationId` (for the invitation of `email`), each
 * locked for the rest of `tx`'s transaction.
 * @throws ConflictError when one names nothing (deleted since the plan).
 */
async function grantIds(
  tx: Context,
  organizationId: string,
  email: string,
  grants: BundleGrants,
): Promise<Array<{ projectId: string } | { applicationId: string }>> {
  const out: Array<{ projectId: string } | { applicationId: string }> = [];
  for (const g of grants) {
    const what = [g.project, g.environment, g.application].filter((x) => x !== undefined).join("/");
    const refused = () => new ConflictError(`Member ${email}: the grant on ${what} names nothing in this organization`);
    const project = await lockedProject(tx, organizationId, g.project).catch((error: unknown) => {
      throw error instanceof ConflictError ? refused() : error;
    });
    if (g.application === undefined) {
      out.push({ projectId: project.id });
      continue;
    }
    const environment = project.environments.find((e) => e.name === g.environment);
    const app = environment ? await applicationNamed(tx.knex, environment.id, g.application) : undefined;
    if (!app || !(await lockApplication(tx.knex, app.id))) throw refused();
    out.push({ applicationId: app.id });
  }
  return out;
}
