/**
 * `importOrganization`: applies an organization bundle (docs/organization-transfer.md "Import") to an existing
 * organization the caller owns. It computes the plan (organization-import-plan.service.ts), refuses when the plan
 * has conflicts (naming each), then creates every CREATE item, in the bundle's order, through the owning module's
 * own service — the one its management mutation runs — so validation, quotas, encryption with this instance's key,
 * events and reconciliation are that module's single implementation. Nothing that exists is changed.
 *
 * Idempotent and resumable: the apply is a sequence of creates, each committed on its own (the modules' services
 * read what they check through the pool, so a create must be committed before the next one can see it), and each
 * item is created only when the plan finds it absent; what the bundle gets wrong (a name given twice, a grant that
 * matches nothing) is refused by the plan before the first create. A second run creates nothing (its plan shows
 * every item EXISTS); a run stopped halfway (a crash, a refused item) is finished by running it again. Deployments
 * are queued only when `deploy` is true, for the applications this run created.
 */
import { ConflictError } from "../../shared/errors.ts";
import {
  addDomain,
  createApplicationIn,
  createDatabaseIn,
  createEnvironmentIn,
  exportApplications,
  setApplicationVariables,
} from "../applications/index.ts";
import type { Context } from "../context.ts";
import { type DatabaseSpec, databaseEnvVars } from "../databases/index.ts";
import { deployApplication, updateDeploySettings } from "../deployments/index.ts";
import { setDocsTheme } from "../docs-theming/index.ts";
import { createPaymentGatewayService } from "../payments/index.ts";
import { createProject, exportProjects } from "../projects/index.ts";
import { inviteMember } from "../team/index.ts";
import { createWebhook } from "../webhooks/index.ts";
import {
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
 * Imports `raw` (an organization bundle) into `organizationId`, secrets opened with `key`.
 * @throws NotFoundError (not a member), ForbiddenError (not the owner), BadUserInputError (not a version 1 bundle, a
 * key that does not open it, a resource named twice), ConflictError (the plan has conflicts: nothing created; a
 * member's grant whose target was deleted since the plan), and the errors of a module's service when one item is
 * refused (the items before it stay created; a second run continues after them).
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
  /** Whether the plan creates `kind` `name`; records it as created when `done` runs (after the create succeeded). */
  const creates = (kind: string, name: string) => wanted.has(`${kind}\n${name}`);
  const done = (kind: string, name: string) => created.push({ kind, name, action: "CREATE", reason: null });
  const warnings = [...plan.warnings.filter((w) => !w.startsWith("Secret "))];
  const secretOf = (ref: string, fallback: string) => {
    if (ref in readable) return readable[ref]!;
    warnings.push(`Secret ${ref} ${fallback}`);
    return null;
  };
  const newApplications: string[] = [];

  let projects = await exportProjects(ctx, organizationId);
  // Read once: the applications a run creates are not looked up again (a bundle names each once).
  const existingApplications = await exportApplications(ctx, organizationId);
  for (const p of bundle.projects) {
    if (creates("project", p.name)) {
      await createProject(ctx, { organizationId, name: p.name, description: p.description });
      done("project", p.name);
      projects = await exportProjects(ctx, organizationId);
    }
    const project = projects.find((x) => x.name === p.name)!;
    for (const e of p.environments) {
      const path = `${p.name}/${e.name}`;
      let environment = project.environments.find((x) => x.name === e.name);
      if (!environment) {
        environment = await createEnvironmentIn(ctx, project.id, e.name);
        project.environments.push({ id: environment.id, name: environment.name });
      }
      // A new project's first environment is made with it: created by this run all the same.
      if (creates("environment", path)) done("environment", path);
      const applications = existingApplications.filter((a) => a.environmentId === environment.id);
      /** Ids of this environment's applications created by this run, by name. */
      const createdHere = new Map<string, string>();
      const applicationIdOf = (name: string) => applications.find((x) => x.name === name)?.id ?? createdHere.get(name);
      for (const a of e.applications) {
        const appPath = `${path}/${a.name}`;
        let applicationId = applications.find((x) => x.name === a.name)?.id;
        if (!applicationId) {
          const provider = a.sourceType === "github" || a.sourceType === "gitlab" ? providers[a.sourceType] : null;
          const app = await createApplicationIn(ctx, {
            environmentId: environment.id,
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
          applicationId = app.id;
          newApplications.push(app.id);
          createdHere.set(a.name, app.id);
          done("application", appPath);
        }
        if (creates("deploySettings", appPath)) {
          await updateDeploySettings(ctx, applicationId, a.deploySettings);
          done("deploySettings", appPath);
        }
        const variables = a.variables.filter((v) => creates("variable", `${appPath}/${v.key}`));
        if (variables.length) {
          await setApplicationVariables(
            ctx,
            applicationId,
            { variables: variables.map((v) => ({ key: v.key, value: secretOf(v.secret, "was left empty") ?? "" })) },
            false,
          );
          for (const v of variables) done("variable", `${appPath}/${v.key}`);
        }
        for (const d of a.domains) {
          if (!creates("domain", d.host)) continue;
          await addDomain(ctx, { applicationId, host: d.host, port: d.port ?? undefined, https: d.https });
          done("domain", d.host);
        }
      }
      for (const d of e.databases) {
        if (!creates("database", `${path}/${d.name}`)) continue;
        const password = secretOf(d.password, "was not readable: a new password was generated");
        // The applications wired to the source's database get the new one's variables (its host is this
        // organization's), in the database's own transaction: none keeps pointing at the source instance.
        const users = e.applications.flatMap((a) => {
          const id = applicationIdOf(a.name);
          const held = (key: string) =>
            applications.find((x) => x.id === id)?.variables.find((v) => v.key === key)?.value ?? null;
          const bundled = (key: string) => {
            const ref = a.variables.find((v) => v.key === key)?.secret;
            return ref !== undefined && ref in readable ? readable[ref]! : null;
          };
          const wired = usesSourceDatabase({ ...d, password: readable[d.password] ?? null }, bundled);
          // Still as the bundle wired it: imported by this run or an earlier one (never a value set since).
          const current = (id && createdHere.has(a.name)) || (wired !== null && held(wired) === bundled(wired));
          return id && wired && current ? [id] : [];
        });
        await createDatabaseIn(ctx, {
          environmentId: environment.id,
          type: d.type,
          name: d.name,
          user: d.username,
          ...(password === null ? {} : { password }),
          applicationIds: users,
        });
        done("database", `${path}/${d.name}`);
      }
    }
    for (const s of p.paymentGatewayServices) {
      if (!creates("paymentGatewayService", `${p.name}/${s.name}`)) continue;
      await createPaymentGatewayService(ctx, { projectId: project.id, name: s.name, webhookUrl: s.webhookUrl });
      done("paymentGatewayService", `${p.name}/${s.name}`);
    }
  }

  for (const w of bundle.webhookEndpoints) {
    if (!creates("webhookEndpoint", w.url)) continue;
    const secret = secretOf(w.secret, "was not readable: a new signing secret was generated");
    await createWebhook(
      ctx,
      organizationId,
      { url: w.url, events: w.events, isActive: w.isActive, description: w.description ?? undefined },
      secret ?? undefined,
    );
    done("webhookEndpoint", w.url);
  }

  if (bundle.docsTheme && creates("docsTheme", bundle.docsTheme.siteName)) {
    const { hostname, ...theme } = bundle.docsTheme;
    await setDocsTheme(ctx, organizationId, { ...theme, docsHostname: hostname });
    done("docsTheme", bundle.docsTheme.siteName);
  }

  // Grants name projects and applications by name: their ids in this organization, after the creates above.
  const finalProjects = await exportProjects(ctx, organizationId);
  const finalApplications = await exportApplications(ctx, organizationId);
  // The plan found every grant's target; one gone since (deleted meanwhile) refuses the member rather than invite
  // them without it, which would give them every project.
  const grantIds = (email: string, g: (typeof bundle.members)[number]["grants"][number]) => {
    const project = finalProjects.find((p) => p.name === g.project);
    const environment = project?.environments.find((e) => e.name === g.environment);
    const app = finalApplications.find((a) => a.environmentId === environment?.id && a.name === g.application);
    if (project && g.application === undefined) return { projectId: project.id };
    if (app) return { applicationId: app.id };
    const what = [g.project, g.environment, g.application].filter((x) => x !== undefined).join("/");
    throw new ConflictError(`Member ${email}: the grant on ${what} names nothing in this organization`);
  };
  for (const m of bundle.members) {
    const email = m.email.toLowerCase();
    if (!creates("member", email)) continue;
    const role = m.role === "owner" ? "admin" : m.role;
    const grants = role === "member" ? m.grants.map((g) => grantIds(email, g)) : [];
    await inviteMember(ctx, { organizationId, email, role, grants });
    done("member", email);
  }

  const deployments: string[] = [];
  if (options.deploy) {
    for (const id of newApplications) {
      deployments.push((await deployApplication(ctx, id, "Organization import")).id);
    }
  }
  return { created, exists: plan.exists, deployments, warnings };
}
