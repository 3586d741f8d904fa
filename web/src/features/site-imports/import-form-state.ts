/** The import form's state and how it becomes the GraphQL `SiteImportInput`. */
import type { SiteImportInput } from "../../gql/graphql.ts";

/** Where the application comes from. */
export type SourceType = "github" | "gitlab" | "docker" | "git";

/** Every field of the form, as typed (strings until submitted). */
export interface FormState {
  name: string;
  sourceType: SourceType;
  repo: string;
  branch: string;
  buildPath: string;
  buildType: "" | "dockerfile" | "nixpacks";
  dockerImage: string;
  providerId: string;
  customGitUrl: string;
  sshKeyId: string;
  withDatabase: boolean;
  dbType: "mariadb" | "mysql" | "postgres" | "mongodb";
  dbName: string;
  dbUser: string;
  dbPassword: string;
  envVars: { key: string; value: string }[];
  domain: string;
  port: string;
}

/** The empty form. */
export const EMPTY: FormState = {
  name: "",
  sourceType: "docker",
  repo: "",
  branch: "",
  buildPath: "",
  buildType: "",
  dockerImage: "",
  providerId: "",
  customGitUrl: "",
  sshKeyId: "",
  withDatabase: false,
  dbType: "postgres",
  dbName: "",
  dbUser: "",
  dbPassword: "",
  envVars: [],
  domain: "",
  port: "",
};

/** Builds the GraphQL `SiteImportInput` from the form (empty optional fields are left out). */
export function toInput(organizationId: string, f: FormState): SiteImportInput {
  const opt = (v: string) => (v.trim() === "" ? undefined : v.trim());
  const source: SiteImportInput["source"] = { type: f.sourceType };
  if (f.sourceType === "docker") source.dockerImage = opt(f.dockerImage);
  else {
    source.branch = opt(f.branch);
    source.buildPath = opt(f.buildPath);
    source.buildType = f.buildType || undefined;
    if (f.sourceType === "git") {
      source.customGitUrl = opt(f.customGitUrl);
      source.customGitSSHKeyId = opt(f.sshKeyId);
    } else {
      source.repo = opt(f.repo);
      if (f.sourceType === "github") source.githubId = opt(f.providerId);
      else source.gitlabId = opt(f.providerId);
    }
  }
  const envVars = Object.fromEntries(f.envVars.filter((v) => v.key.trim() !== "").map((v) => [v.key.trim(), v.value]));
  return {
    organizationId,
    name: f.name,
    source,
    domain: opt(f.domain),
    port: f.port.trim() === "" ? undefined : Number(f.port),
    envVars: Object.keys(envVars).length ? envVars : undefined,
    database: f.withDatabase ? { type: f.dbType, name: f.dbName, user: f.dbUser, password: f.dbPassword } : undefined,
  };
}

/** Sets one field of the form's state. */
export type SetField = <K extends keyof FormState>(key: K, value: FormState[K]) => void;

/**
 * The `fieldErrors` paths (schema `siteImportRequestSchema`) whose message the form shows under a field for a source
 * of type `type`; any other refused path is said in the form-level alert.
 */
export function fieldsShown(type: SourceType): string[] {
  const source =
    type === "docker"
      ? ["source.dockerImage"]
      : [type === "git" ? "source.customGitUrl" : "source.repo", "source.branch", "source.buildPath"];
  return ["name", ...source, "domain", "port"];
}
