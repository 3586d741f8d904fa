/**
 * `organizationImportPlan`: what importing an organization bundle (docs/organization-transfer.md) into an existing
 * organization would do, changing nothing. The target's configuration is read in bundle shape (the export's
 * snapshot), so both sides are compared by names: each resource of the bundle is CREATE (absent), EXISTS (present
 * with the same settings) or CONFLICT (present with other settings, a host or docs hostname held elsewhere, a new
 * member's grant naming a project or application neither here nor in the bundle); the creations are then checked
 * against the plan's quotas. A bundle naming one resource twice is refused by its schema (bundle.schema.ts).
 * Secrets are decrypted only to count the readable ones. The apply (organization-import.service.ts) creates exactly
 * the plan's CREATE items, so the items are fine-grained (an application's deploy settings and each of its variables
 * are items of their own): a run stopped halfway leaves only whole items behind, and the next plan shows them EXISTS.
 */
import { BadUserInputError } from "../../shared/errors.ts";
import { parseInput } from "../../shared/validate.ts";
import { organizationAccess } from "../access/index.ts";
import {
  checkApplicationPrerequisites,
  domainWithHost,
  envVarsSchema,
  hostnameSchema,
  portSchema,
  type SourceInput,
} from "../applications/index.ts";
import type { ServiceContext } from "../context.ts";
import { docsHostnameOwner } from "../docs-theming/index.ts";
import { type QuotaKind, quotaStatus } from "../organizations/index.ts";
import { gitProviderOfKind } from "../providers/index.ts";
import { pendingInvitations } from "../team/index.ts";
import { OrganizationBundle } from "./bundle.schema.ts";
import { decryptSecrets } from "./bundle-secrets.ts";
import { snapshotOrganization } from "./organization-export.service.ts";

/** What importing one resource would do. */
type Action = "CREATE" | "EXISTS" | "CONFLICT";

/** One line of the plan. */
export interface ImportPlanItem {
  kind: string;
  name: string;
  action: Action;
  reason: string | null;
}

/** The plan (schema/transfer.graphql `OrganizationImportPlan`). */
export interface ImportPlan {
  items: ImportPlanItem[];
  creates: number;
  exists: number;
  conflicts: number;
  secrets: number;
  secretsReadable: number;
  warnings: string[];
}

/** The key that opens a bundle's secrets. */
export interface ImportKey {
  identity?: string | null;
  passphrase?: string | null;
}

/** The names of the fields of `a` and `b` whose values differ (compared as JSON), or null when none does. */
function differences(a: Record<string, unknown>, b: Record<string, unknown>): string | null {
  const names = Object.keys(a).filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]));
  return names.length ? `differs: ${names.join(", ")}` : null;
}

/** The resource's action: CREATE when absent, else EXISTS or CONFLICT by its differences. */
function compare(kind: string, name: string, wanted: object, present: object | undefined): ImportPlanItem {
  if (!present) return { kind, name, action: "CREATE", reason: null };
  const reason = differences(wanted as Record<string, unknown>, present as Record<string, unknown>);
  return { kind, name, action: reason ? "CONFLICT" : "EXISTS", reason };
}

/** `value` without the listed keys (nested resources are compared as their own items). */
function without<T extends object, K extends keyof T>(value: T, ...keys: K[]): Omit<T, K> {
  const copy = { ...value };
  for (const k of keys) delete copy[k];
  return copy;
}

/** An application's deploy settings as a new application has them (migrations' column defaults). */
const DEFAULT_DEPLOY_SETTINGS = {
  autoDeploy: false,
  branchFilter: null,
  watchPaths: [],
  healthPath: "/",
  requireSignature: false,
};

/** Whether deploy settings `s` are still a new application's (the plan's CREATE for an existing application's). */
export function atNewApplicationDefaults(s: {
  autoDeploy: boolean;
  branchFilter: string | null;
  watchPaths: string[] | null;
  healthPath: string;
  requireSignature: boolean;
}): boolean {
  const settings = {
    autoDeploy: s.autoDeploy,
    branchFilter: s.branchFilter ?? null,
    watchPaths: s.watchPaths ?? [],
    healthPath: s.healthPath,
    requireSignature: s.requireSignature,
  };
  return JSON.stringify(settings) === JSON.stringify(DEFAULT_DEPLOY_SETTINGS);
}

/** The names a grant can point at: projects with their environments' applications (the bundle's shape). */
type ProjectNames = ReadonlyArray<{
  name: string;
  environments: ReadonlyArray<{ name: string; applications: ReadonlyArray<{ name: string }> }>;
}>;

/** A member's grant as the bundle writes it. */
type BundleGrant = OrganizationBundle["members"][number]["grants"][number];

/**
 * Why `grant` cannot be given, or null when the project (or the application) it names is in one of `trees` (the
 * organization's configuration, and the bundle's, whose creates come before the members').
 */
function unmatchedGrant(grant: BundleGrant, trees: ProjectNames[]): string | null {
  const found = trees.some((projects) => {
    const project = projects.find((p) => p.name === grant.project);
    if (!project || grant.application === undefined) return project !== undefined;
    const environment = project.environments.find((e) => e.name === grant.environment);
    return environment?.applications.some((a) => a.name === grant.application) ?? false;
  });
  if (found) return null;
  const what =
    grant.application === undefined
      ? `project ${grant.project}`
      : `application ${grant.project}/${grant.environment}/${grant.application}`;
  return `${what} is neither in this organization nor in the bundle`;
}

/** Secret references of a bundle, in its order. */
function secretRefs(bundle: OrganizationBundle): string[] {
  const refs: string[] = [];
  for (const p of bundle.projects) {
    for (const e of p.environments) {
      for (const a of e.applications) for (const v of a.variables) refs.push(v.secret);
      for (const d of e.databases) refs.push(d.password);
    }
  }
  for (const w of bundle.webhookEndpoints) refs.push(w.secret);
  return refs;
}

/**
 * The plan of importing `raw` into `organizationId`.
 * @throws NotFoundError when the caller is not a member; ForbiddenError when it is not the owner; BadUserInputError
 * when `raw` is not a version 1 bundle or names one resource twice (fieldErrors by path), or the key does not open
 * its secrets (fieldErrors `identity` or `passphrase`).
 */
export async function planOrganizationImport(
  ctx: ServiceContext,
  organizationId: string,
  raw: unknown,
  key: ImportKey = {},
): Promise<ImportPlan> {
  return (await prepareOrganizationImport(ctx, organizationId, raw, key)).plan;
}

/** A bundle checked and its secrets opened, with the plan of importing it (the apply's starting point). */
export interface PreparedImport {
  bundle: OrganizationBundle;
  /** Secret reference → value, for the references the key opened (memory only). */
  readable: Record<string, string>;
  plan: ImportPlan;
  /** The git provider each source type of the bundle's new applications attaches to (github, gitlab). */
  providers: Partial<Record<"github" | "gitlab", string>>;
}

/**
 * The plan of importing `raw` into `organizationId`, with the parsed bundle and its readable secrets.
 * @throws as {@link planOrganizationImport}.
 */
export async function prepareOrganizationImport(
  ctx: ServiceContext,
  organizationId: string,
  raw: unknown,
  key: ImportKey = {},
): Promise<PreparedImport> {
  await organizationAccess(ctx.scope, { organizationId, action: "organization:import" });
  const bundle = parseInput(OrganizationBundle, raw, "Invalid organization bundle");
  if (key.identity && key.passphrase) {
    throw new BadUserInputError("Give an identity or a passphrase, not both", {
      fieldErrors: { identity: ["Give an identity or a passphrase, not both"] },
    });
  }
  const warnings: string[] = [];
  const providers: PreparedImport["providers"] = {};
  /** What a new application lacks in this organization (a container registry), read once. */
  let registryProblems: string[] | undefined;

  const refs = secretRefs(bundle);
  let readable: Record<string, string> = {};
  const opener = key.identity ? { identity: key.identity } : key.passphrase ? { passphrase: key.passphrase } : null;
  if (bundle.secrets.ciphertext && opener) readable = await decryptSecrets(bundle.secrets.ciphertext, opener);
  const why = !bundle.secrets.ciphertext
    ? "the bundle carries no secrets"
    : !opener
      ? "no identity or passphrase was given"
      : "the bundle's secrets do not hold it";
  for (const ref of refs) if (!(ref in readable)) warnings.push(`Secret ${ref} would be left empty: ${why}`);

  const target = (await snapshotOrganization(ctx, organizationId)).content;
  const items: ImportPlanItem[] = [];
  const creates: Record<QuotaKind, number> = { projects: 0, applications: 0, databases: 0, domains: 0 };
  const count = (item: ImportPlanItem, quota?: QuotaKind) => {
    items.push(item);
    if (quota && item.action === "CREATE") creates[quota]++;
  };

  for (const p of bundle.projects) {
    const tp = target.projects.find((x) => x.name === p.name);
    count(
      compare("project", p.name, { description: p.description }, tp && { description: tp.description }),
      "projects",
    );
    for (const e of p.environments) {
      const path = `${p.name}/${e.name}`;
      const te = tp?.environments.find((x) => x.name === e.name);
      count({ kind: "environment", name: path, action: te ? "EXISTS" : "CREATE", reason: null });
      for (const a of e.applications) {
        const ta = te?.applications.find((x) => x.name === a.name);
        const settings = (x: typeof a) => without(x, "domains", "variables", "name", "deploySettings");
        const appPath = `${path}/${a.name}`;
        const item = compare("application", appPath, settings(a), ta && settings(ta));
        if (a.sourceType === "github" || a.sourceType === "gitlab") {
          if (item.action !== "CREATE") {
            warnings.push(`Application ${appPath}: attach a ${a.sourceType} git provider to deploy it`);
          } else {
            const kind = a.sourceType;
            providers[kind] ??= (await gitProviderOfKind(ctx.knex, organizationId, kind))?.id;
            if (!providers[kind]) {
              item.action = "CONFLICT";
              item.reason = `no ${kind} git provider in this organization: add one first`;
            }
          }
        }
        if (item.action === "CREATE" && !a.sourceType) {
          item.action = "CONFLICT";
          item.reason = "no source type: an application is created with a source";
        }
        // What createApplication would refuse, found before anything is created.
        const port = portSchema.safeParse(a.port);
        if (item.action === "CREATE" && !port.success) {
          item.action = "CONFLICT";
          item.reason = `port: ${port.error.issues[0]!.message}`;
        }
        if (item.action === "CREATE") {
          // A source without a provider or SSH key: only the organization's container registry is checked.
          registryProblems ??= await checkApplicationPrerequisites(ctx, organizationId, {
            type: "docker",
          } as SourceInput);
          if (registryProblems.length) {
            item.action = "CONFLICT";
            item.reason = registryProblems.join("; ");
          }
        }
        count(item, "applications");
        // Deploy settings still at a new application's defaults are the part a stopped run had not written yet.
        const tds = ta?.deploySettings;
        const unset = !tds || atNewApplicationDefaults(tds);
        const ds = compare("deploySettings", appPath, a.deploySettings, unset ? undefined : tds);
        if (unset && tds && JSON.stringify(tds) === JSON.stringify(a.deploySettings)) ds.action = "EXISTS";
        count(ds);
        for (const v of a.variables) {
          const present = ta?.variables.some((x) => x.key === v.key);
          // The name by setEnvironmentVariables' own rule (the value is a secret: checked when set).
          const named = envVarsSchema.safeParse({ [v.key]: "" });
          const reason = named.success ? null : `key: ${named.error.issues[0]!.message}`;
          const action = present ? "EXISTS" : reason ? "CONFLICT" : "CREATE";
          count({
            kind: "variable",
            name: `${appPath}/${v.key}`,
            action,
            reason: action === "CONFLICT" ? reason : null,
          });
        }
        for (const d of a.domains) {
          const td = ta?.domains.find((x) => x.host === d.host);
          if (td) {
            count(compare("domain", d.host, d, td), "domains");
            continue;
          }
          // What addDomain would refuse (a host that is not a public name), then a host held here.
          const valid = hostnameSchema.safeParse(d.host);
          const taken = valid.success && (await domainWithHost(ctx.knex, valid.data).first());
          const reason = !valid.success
            ? `host: ${valid.error.issues[0]!.message}`
            : taken
              ? "host is taken on this instance"
              : null;
          count({ kind: "domain", name: d.host, action: reason ? "CONFLICT" : "CREATE", reason }, "domains");
        }
      }
      for (const d of e.databases) {
        const td = te?.databases.find((x) => x.name === d.name);
        const settings = (x: typeof d) => without(x, "password", "name");
        count(compare("database", `${path}/${d.name}`, settings(d), td && settings(td)), "databases");
      }
    }
    for (const s of p.paymentGatewayServices) {
      const ts = tp?.paymentGatewayServices.find((x) => x.name === s.name);
      count(compare("paymentGatewayService", `${p.name}/${s.name}`, s, ts));
    }
  }

  for (const w of bundle.webhookEndpoints) {
    const tw = target.webhookEndpoints.find((x) => x.url === w.url);
    count(compare("webhookEndpoint", w.url, without(w, "secret"), tw && without(tw, "secret")));
  }

  if (bundle.docsTheme) {
    const item = compare("docsTheme", bundle.docsTheme.siteName, bundle.docsTheme, target.docsTheme ?? undefined);
    const host = bundle.docsTheme.hostname;
    const owner = host && host !== target.docsTheme?.hostname ? await docsHostnameOwner(ctx, host) : null;
    if (owner && owner !== organizationId) {
      item.action = "CONFLICT";
      item.reason = `docs hostname ${host} is held by another organization`;
    }
    count(item);
  }

  const invited = await pendingInvitations(ctx, organizationId);
  for (const [i, m] of bundle.members.entries()) {
    const email = m.email.toLowerCase();
    const member = target.members.find((x) => x.email.toLowerCase() === email);
    const invitation = invited.find((x) => x.email === email);
    const role = m.role === "owner" ? "admin" : m.role;
    if (member) {
      const reason = member.role === m.role ? null : `differs: role (${member.role} here)`;
      count({ kind: "member", name: email, action: reason ? "CONFLICT" : "EXISTS", reason });
    } else if (invitation) {
      const reason = invitation.role === role ? null : `differs: role (invited as ${invitation.role} here)`;
      count({ kind: "member", name: email, action: reason ? "CONFLICT" : "EXISTS", reason });
    } else {
      // A limited member invited without one of their grants would see every project: such a grant is a conflict.
      const unmatched =
        role === "member"
          ? m.grants.flatMap((g, j) => {
              const why = unmatchedGrant(g, [target.projects, bundle.projects]);
              return why ? [`members.${i}.grants.${j}: ${why}`] : [];
            })
          : [];
      const reason = unmatched.length ? unmatched.join("; ") : null;
      count({ kind: "member", name: email, action: reason ? "CONFLICT" : "CREATE", reason });
      if (m.role === "owner") warnings.push(`Member ${email} (owner in the bundle) would be invited as admin`);
    }
  }

  const quotas = await quotaStatus(ctx.knex, organizationId);
  for (const kind of Object.keys(creates) as QuotaKind[]) {
    const limit = quotas.limits[kind];
    if (limit === null || creates[kind] === 0) continue;
    const left = Math.max(0, limit - quotas.usage[kind]);
    if (creates[kind] > left) {
      items.push({
        kind: "quota",
        name: kind,
        action: "CONFLICT",
        reason: `${creates[kind]} to create, ${left} left of ${limit} on plan "${quotas.plan}"`,
      });
    }
  }

  const tally = (action: Action) => items.filter((i) => i.action === action).length;
  const plan: ImportPlan = {
    items,
    creates: tally("CREATE"),
    exists: tally("EXISTS"),
    conflicts: tally("CONFLICT"),
    secrets: refs.length,
    secretsReadable: refs.filter((r) => r in readable).length,
    warnings,
  };
  return { bundle, readable, plan, providers };
}
