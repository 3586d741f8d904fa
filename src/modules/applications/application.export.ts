/**
 * The organization export's read of applications (docs/organization-transfer.md): source and build settings, deploy
 * settings (auto-deploy, branch filter, watch paths, health path, signature requirement; never the deploy token or
 * the push webhook secret), domains and environment variables (values decrypted here, for the exporter to encrypt
 * to the bundle's recipient). Ordered by name, host and key so that two exports of one organization are equal.
 */
import type { ServiceContext } from "../context.ts";
import type { ApplicationSourceSettings } from "./application.model.ts";

/** An application as the organization bundle carries it (ids: for the exporter to link rows; values in clear). */
export interface ExportedApplication {
  id: string;
  projectId: string;
  environmentId: string;
  name: string;
  sourceType: string | null;
  /** Source settings without instance-bound references (git provider and SSH key ids are not exported). */
  source: Omit<ApplicationSourceSettings, "gitProviderId" | "customGitSSHKeyId">;
  buildType: string | null;
  port: number;
  healthPath: string;
  autoDeploy: boolean;
  branchFilter: string | null;
  watchPaths: string[];
  requireSignature: boolean;
  domains: Array<{ host: string; port: number | null; https: boolean }>;
  /** Keys and their values in clear: secrets, to be encrypted by the caller and never logged. */
  variables: Array<{ key: string; value: string }>;
}

/** Every application of `organizationId` with its domains and variables, by name. The caller checks access. */
export async function exportApplications(ctx: ServiceContext, organizationId: string): Promise<ExportedApplication[]> {
  const apps = await ctx
    .knex("applications")
    .where({ organization_id: organizationId })
    .orderBy(["name", "app_name"])
    .select(
      "id",
      "project_id",
      "environment_id",
      "name",
      "source_type",
      "source",
      "build_type",
      "port",
      "health_path",
      "auto_deploy",
      "branch_filter",
      "watch_paths",
      "require_signature",
    );
  const domains = await ctx
    .knex("domains")
    .where({ organization_id: organizationId })
    .orderBy("host")
    .select("application_id", "host", "port", "https");
  const variables = await ctx
    .knex("environment_variables as v")
    .join("applications as a", "a.id", "v.application_id")
    .where("a.organization_id", organizationId)
    .orderBy("v.key")
    .select("v.application_id", "v.key", "v.value_encrypted");
  return apps.map((a: Record<string, unknown> & { id: string }) => {
    const { gitProviderId: _g, customGitSSHKeyId: _k, ...settings } = (a.source ?? {}) as ApplicationSourceSettings;
    // Only the settings that are set (text): a bundle's `source` maps names to strings.
    const source = Object.fromEntries(Object.entries(settings).filter(([, v]) => typeof v === "string"));
    return {
      id: a.id,
      projectId: a.projectId as string,
      environmentId: a.environmentId as string,
      name: a.name as string,
      sourceType: (a.sourceType as string | null) ?? null,
      source,
      buildType: (a.buildType as string | null) ?? null,
      port: a.port as number,
      healthPath: a.healthPath as string,
      autoDeploy: Boolean(a.autoDeploy),
      branchFilter: (a.branchFilter as string | null) ?? null,
      watchPaths: (a.watchPaths as string[]) ?? [],
      requireSignature: Boolean(a.requireSignature),
      domains: domains
        .filter((d: { applicationId: string }) => d.applicationId === a.id)
        .map((d: { host: string; port: number | null; https: boolean | null }) => ({
          host: d.host,
          port: d.port ?? null,
          https: d.https ?? true,
        })),
      variables: variables
        .filter((v: { applicationId: string }) => v.applicationId === a.id)
        .map((v: { key: string; valueEncrypted: string }) => ({
          key: v.key,
          value: ctx.services.secrets.decrypt(v.valueEncrypted),
        })),
    };
  });
}
