/**
 * `organizationExport`: an organization's configuration as one bundle (bundle.schema.ts, docs/organization-transfer.md).
 * Owners only. Each module's rows are read through that module's public export function, inside one read-only
 * repeatable-read transaction (one consistent snapshot); rows are then named by their names (never by this
 * instance's ids), and every secret is replaced by a reference into one age-encrypted object (bundle-secrets.ts), or
 * left out when no key is given.
 */

import { NotFoundError } from "../../shared/errors.ts";
import { onTransaction } from "../../shared/transaction.ts";
import { exportMembers, organizationAccess } from "../access/index.ts";
import { type ExportedApplication, exportApplications } from "../applications/index.ts";
import { type AuditOutcome, outcomeOfError, recordCall } from "../audit/index.ts";
import type { Context, ServiceContext } from "../context.ts";
import { exportDatabases } from "../databases/index.ts";
import { exportDocsTheme } from "../docs-theming/index.ts";
import { organizationSummary, usersByIds } from "../organizations/index.ts";
import { exportPaymentGatewayServices } from "../payments/index.ts";
import { exportProjects } from "../projects/index.ts";
import { exportWebhookEndpoints } from "../webhooks/index.ts";
import { BUNDLE_FORMAT, BUNDLE_VERSION, type OrganizationBundle } from "./bundle.schema.ts";
import { checkedKey, encryptSecrets, type SecretsKey } from "./bundle-secrets.ts";

/** The secret references of one bundle and their values (values stay in memory only, never in the document). */
class SecretCollector {
  readonly values = new Map<string, string>();
  /** Records `value` under `ref` (made unique with `#2`, `#3`… when taken). @returns the reference. */
  add(ref: string, value: string): string {
    let unique = ref;
    for (let n = 2; this.values.has(unique); n++) unique = `${ref}#${n}`;
    this.values.set(unique, value);
    return unique;
  }
}

/** The content of a bundle (everything but its envelope and secrets part), and the secrets it references. */
export interface OrganizationSnapshot {
  organization: { id: string; name: string; slug: string | null };
  content: Pick<OrganizationBundle, "projects" | "webhookEndpoints" | "docsTheme" | "members">;
  /** Secret reference → value, in clear (memory only). */
  secrets: ReadonlyMap<string, string>;
}

/**
 * The configuration of `organizationId` in bundle shape, read in one read-only repeatable-read transaction through
 * each module's export function. No access check: the callers (export, import plan) check it first.
 */
export async function snapshotOrganization(ctx: ServiceContext, organizationId: string): Promise<OrganizationSnapshot> {
  // On the pool itself: within a mutation (the import) `ctx.knex` would make this read-only transaction the one
  // that holds the mutation's audit entry (src/modules/audit/audit-mutations.ts).
  const read = await ctx.services.knex.transaction(
    async (trx) => {
      const inTrx = onTransaction(ctx, trx);
      const organization = await organizationSummary(trx, organizationId);
      const projects = await exportProjects(inTrx, organizationId);
      const applications = await exportApplications(inTrx, organizationId);
      const databases = await exportDatabases(inTrx, organizationId);
      const paymentServices = await exportPaymentGatewayServices(inTrx, organizationId);
      const webhooks = await exportWebhookEndpoints(inTrx, organizationId);
      const docsTheme = await exportDocsTheme(inTrx, organizationId);
      const members = await exportMembers(inTrx, organizationId);
      const users = await usersByIds(
        trx,
        members.map((m) => m.userId),
      );
      return { organization, projects, applications, databases, paymentServices, webhooks, docsTheme, members, users };
    },
    { isolationLevel: "repeatable read", readOnly: true },
  );

  const secrets = new SecretCollector();
  const projectName = new Map(read.projects.map((p) => [p.id, p.name]));
  const environmentName = new Map(read.projects.flatMap((p) => p.environments.map((e) => [e.id, e.name] as const)));
  const applicationById = new Map(read.applications.map((a) => [a.id, a]));
  const path = (projectId: string, environmentId: string) =>
    `${projectName.get(projectId)}/${environmentName.get(environmentId)}`;

  const application = (
    a: ExportedApplication,
  ): OrganizationBundle["projects"][number]["environments"][number]["applications"][number] => ({
    name: a.name,
    sourceType: a.sourceType as "github" | "gitlab" | "docker" | "git" | null,
    source: a.source as Record<string, string>,
    buildType: a.buildType as "dockerfile" | "nixpacks" | null,
    port: a.port,
    deploySettings: {
      autoDeploy: a.autoDeploy,
      branchFilter: a.branchFilter,
      watchPaths: a.watchPaths,
      healthPath: a.healthPath,
      requireSignature: a.requireSignature,
    },
    domains: a.domains,
    variables: a.variables.map((v) => ({
      key: v.key,
      secret: secrets.add(`env:${path(a.projectId, a.environmentId)}/${a.name}/${v.key}`, v.value),
    })),
  });

  const projects: OrganizationBundle["projects"] = read.projects.map((p) => ({
    name: p.name,
    description: p.description,
    environments: p.environments.map((e) => ({
      name: e.name,
      applications: read.applications.filter((a) => a.environmentId === e.id).map(application),
      databases: read.databases
        .filter((d) => d.environmentId === e.id)
        .map((d) => ({
          type: d.type,
          name: d.name,
          username: d.username,
          password: secrets.add(`database:${p.name}/${e.name}/${d.name}`, d.password),
        })),
    })),
    paymentGatewayServices: read.paymentServices
      .filter((s) => s.projectId === p.id)
      .map((s) => ({ name: s.name, webhookUrl: s.webhookUrl })),
  }));

  const webhookEndpoints = read.webhooks.map((w) => ({
    url: w.url,
    events: w.events,
    isActive: w.isActive,
    description: w.description,
    secret: secrets.add(`webhook:${w.url}`, w.secret),
  }));

  const emailOf = new Map<string, string>(read.users.map((u: { id: string; email: string }) => [u.id, u.email]));
  const members = read.members.map((m) => ({
    email: emailOf.get(m.userId) ?? "",
    role: m.role,
    grants: m.grants.flatMap((g) => {
      if (g.projectId) return [{ project: projectName.get(g.projectId) ?? "" }];
      const app = g.applicationId ? applicationById.get(g.applicationId) : undefined;
      if (!app) return [];
      return [
        {
          project: projectName.get(app.projectId) ?? "",
          environment: environmentName.get(app.environmentId) ?? "",
          application: app.name,
        },
      ];
    }),
    // Limited with no grant left: the bundle says so, or the member would see every project once imported.
    ...(m.limitedToGrants && m.grants.length === 0 ? { limited: true as const } : {}),
  }));

  const organization = read.organization!;
  return {
    organization: { id: organization.id, name: organization.name, slug: organization.slug ?? null },
    content: { projects, webhookEndpoints, docsTheme: read.docsTheme, members },
    secrets: secrets.values,
  };
}

/**
 * The bundle of `organizationId`, its secrets encrypted to `key` (recipient or passphrase) or left out without one.
 * A bundle asked for is a sensitive read: one audit entry `organization.export` (docs/audit-log.md), `ok` or, for a
 * call refused or failed, its outcome (in the caller's own organization's log when the organization is not found).
 * @throws NotFoundError when the caller is not a member; ForbiddenError when it is not the owner;
 * BadUserInputError when the key is malformed (bundle-secrets.ts `checkedKey`).
 */
export async function exportOrganization(
  ctx: ServiceContext,
  organizationId: string,
  key: SecretsKey = {},
): Promise<OrganizationBundle> {
  const source = ctx as ServiceContext & Partial<Pick<Context, "origin" | "requestId">>;
  const record = (outcome: AuditOutcome, inOrganization = true) =>
    recordCall(ctx.services, ctx.log, source, {
      action: "organization.export",
      targetIds: [organizationId],
      outcome,
      ...(inOrganization && { organizationId }),
    });
  let snapshot: Awaited<ReturnType<typeof snapshotOrganization>>;
  let ciphertext: string | null;
  let encryptTo: ReturnType<typeof checkedKey>;
  try {
    await organizationAccess(ctx.scope, { organizationId, action: "organization:export" });
    encryptTo = checkedKey(key);
    snapshot = await snapshotOrganization(ctx, organizationId);
    const count = snapshot.secrets.size;
    ciphertext = encryptTo && count > 0 ? await encryptSecrets(snapshot.secrets, encryptTo) : null;
  } catch (error) {
    await record(outcomeOfError(error), !(error instanceof NotFoundError));
    throw error;
  }
  await record("ok");
  const count = snapshot.secrets.size;
  return {
    format: BUNDLE_FORMAT,
    version: BUNDLE_VERSION,
    exportedAt: ctx.services.now().toISOString(),
    organization: snapshot.organization,
    secrets: {
      encryption: ciphertext ? "age" : "none",
      recipient: ciphertext && encryptTo ? ("recipient" in encryptTo ? "x25519" : "passphrase") : null,
      count,
      ciphertext,
      note: ciphertext
        ? `${count} secret(s) encrypted with age; every secret field holds a reference into ciphertext`
        : count > 0
          ? `${count} secret(s) left out: no recipient or passphrase was given; they import empty`
          : "The organization has no secrets",
    },
    ...snapshot.content,
  };
}
