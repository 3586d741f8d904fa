/**
 * Input validation of the site import API (spec: "Import request", Limits) as zod schemas. The service, the
 * GraphQL resolvers and the REST/procedure rows all parse with these same schemas, so every surface reports
 * the same precise field errors: `BadUserInputError` whose `fieldErrors` map a dot-separated path
 * (e.g. `source.repo`, `envVars.MY KEY`) to messages and whose `formErrors` concern the input as a whole.
 */
import { z } from "zod";
import { parseInput } from "../../shared/validate.ts";

const requiredOr = (what: string) => ({
  error: (issue: { input?: unknown }) => (issue.input === undefined ? "Required" : `Must be ${what}`),
});

/** A trimmed, non-empty string of at most `max` characters without control characters. */
const text = (max: number) =>
  z
    .string(requiredOr("a string"))
    .trim()
    .min(1, "Must not be empty")
    .max(max, `At most ${max} characters`)
    .regex(/^[^\p{Cc}]*$/u, "Must not contain control characters");

/** Optional: null and undefined both mean absent (GraphQL sends null, JSON may omit). */
const optional = <T extends z.ZodType>(schema: T) => schema.nullish().transform((v) => v ?? undefined);

/** A DNS host name, lower-cased, without a trailing dot, e.g. `shop.example.com`. */
const hostname = text(253)
  .transform((v) => v.toLowerCase().replace(/\.$/, ""))
  .pipe(
    z
      .string()
      .regex(
        /^(?!-)[a-z0-9-]{1,63}(?<!-)(\.(?!-)[a-z0-9-]{1,63}(?<!-))+$/,
        "Must be a host name such as shop.example.com (no scheme, port or path)",
      ),
  );

const databaseSchema = z.strictObject(
  {
    type: z.enum(["mariadb", "mysql", "postgres", "mongodb"], requiredOr("one of mariadb, mysql, postgres, mongodb")),
    name: text(63).regex(/^[A-Za-z0-9_][A-Za-z0-9_-]*$/, "Letters, digits, _ and - only"),
    user: text(63).regex(/^[A-Za-z_][A-Za-z0-9_.-]*$/, "Must start with a letter or _; letters, digits, _ . - only"),
    password: z
      .string(requiredOr("a string"))
      .min(1, "Must not be empty")
      .max(256, "At most 256 characters")
      .regex(/^[^\p{Cc}]*$/u, "Must not contain control characters"),
  },
  requiredOr("an object"),
);

const SOURCE_TYPES = ["github", "gitlab", "docker", "git"] as const;

/** `owner/name` (GitLab also accepts subgroups: `group/sub/name`). */
const repo = text(200).regex(/^[\w.-]+(\/[\w.-]+)+$/, "Must be owner/name");

const cloneUrl = text(2000)
  .refine(
    (v) => /^https:\/\/[^\s/]+\/\S+$/.test(v) || /^ssh:\/\/\S+$/.test(v) || /^[\w.-]+@[\w.-]+:[\w./~-]+$/.test(v),
    "Must be an HTTPS (https://host/path) or SSH (git@host:path or ssh://...) clone URL",
  )
  .refine(
    // A password or token inside the URL would be stored and shown in plain text. Private
    // repositories use an SSH key (customGitSSHKeyId) or a git provider (github/gitlab sources) instead.
    (v) => !/^(https|ssh):\/\/[^/]*:[^/]*@/i.test(v) && !/^https:\/\/[^/]*@/i.test(v),
    "Must not contain credentials: use an SSH key (customGitSSHKeyId) or a git provider for private repositories",
  );

const sourceSchema = z
  .strictObject(
    {
      type: z.enum(SOURCE_TYPES, requiredOr("one of github, gitlab, docker, git")),
      repo: optional(repo),
      branch: optional(text(255).regex(/^(?!-)(?!.*\.\.)[\w./-]+$/, "Must be a branch name")),
      buildPath: optional(
        text(500).regex(
          /^\/(?!.*(^|\/)\.\.(\/|$))[\w./-]*$/,
          "Must be an absolute path inside the repository, e.g. /app",
        ),
      ),
      buildType: optional(z.enum(["dockerfile", "nixpacks"], requiredOr("dockerfile or nixpacks"))),
      dockerImage: optional(
        text(255).regex(/^(?![-.:/@])[\w.:/@-]+$/, "Must be an image reference such as nginx:1.27"),
      ),
      githubId: optional(text(100)),
      gitlabId: optional(text(100)),
      customGitUrl: optional(cloneUrl),
      customGitSSHKeyId: optional(text(100)),
    },
    requiredOr("an object"),
  )
  .superRefine((s, ctx) => {
    const need = (field: keyof typeof s, types: readonly string[]) => {
      const given = s[field] !== undefined;
      if (types.includes(s.type) && !given) {
        ctx.addIssue({ code: "custom", path: [field], message: `Required for ${s.type} sources` });
      } else if (!types.includes(s.type) && given) {
        ctx.addIssue({ code: "custom", path: [field], message: `Only used by ${types.join(" or ")} sources` });
      }
    };
    need("repo", ["github", "gitlab"]);
    need("githubId", ["github"]);
    need("gitlabId", ["gitlab"]);
    need("dockerImage", ["docker"]);
    need("customGitUrl", ["git"]);
    if (s.customGitSSHKeyId !== undefined && s.type !== "git") {
      ctx.addIssue({ code: "custom", path: ["customGitSSHKeyId"], message: "Only used by git sources" });
    }
  })
  .transform((s) => {
    const builds = s.type !== "docker";
    return {
      ...s,
      branch: builds ? (s.branch ?? "main") : undefined,
      buildPath: builds ? (s.buildPath ?? "/") : undefined,
      buildType: s.buildType ?? ("dockerfile" as const),
    };
  });

const ENV_KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;
const MAX_ENV_VARS = 200;

const envVarsSchema = z
  .record(
    z.string().max(255).regex(ENV_KEY),
    z.string(requiredOr("a string")).max(32_768, "At most 32768 characters"),
    {
      error: (issue) =>
        issue.code === "invalid_key"
          ? "Invalid variable name: letters, digits and _, not starting with a digit, at most 255 characters"
          : "Must be an object mapping names to string values",
    },
  )
  .refine((vars) => Object.keys(vars).length <= MAX_ENV_VARS, `At most ${MAX_ENV_VARS} variables`);

/** The import request (spec: "Import request"), normalised: defaults applied, strings trimmed, hosts lower-cased. */
export const siteImportRequestSchema = z.strictObject(
  {
    organizationId: text(100),
    name: text(100),
    domain: optional(hostname),
    database: optional(databaseSchema),
    source: sourceSchema,
    envVars: envVarsSchema.nullish().transform((v) => v ?? {}),
    port: z
      .number(requiredOr("an integer"))
      .int("Must be an integer")
      .min(1, "Must be 1 to 65535")
      .max(65535, "Must be 1 to 65535")
      .nullish()
      .transform((v) => v ?? 80),
  },
  requiredOr("an object"),
);

/**
 * A validated import request: `source.branch` defaults to `main` and `source.buildPath` to `/` (sources that
 * build, i.e. not docker), `source.buildType` to `dockerfile`, `port` to 80, `envVars` to `{}`.
 */
export type SiteImportRequest = z.output<typeof siteImportRequestSchema>;

/** An integer query/argument: numbers, or strings of digits (REST query strings); empty means absent. */
const intArg = (min: number, max: number, fallback: number) =>
  z.preprocess(
    (v) =>
      v === null || v === undefined || v === ""
        ? undefined
        : typeof v === "string" && /^\s*-?\d+\s*$/.test(v)
          ? Number(v)
          : v,
    z
      .number(requiredOr("an integer"))
      .int("Must be an integer")
      .min(min, `Must be ${min} to ${max}`)
      .max(max, `Must be ${min} to ${max}`)
      .default(fallback),
  );

/** Page size (spec: Limits): 1 to 100, default 50. */
const pageSize = intArg(1, 100, 50);
/** Records to skip: 0 or more, default 0. */
const pageOffset = intArg(0, 2_147_483_647, 0);

/** REST and procedure list arguments: `limit` and `offset`. */
export const listArgsSchema = z.object({ limit: pageSize, offset: pageOffset });

/** GraphQL `siteImports` arguments: the same rules, with the Relay name `first` for the page size. */
export const connectionArgsSchema = z.object({ first: pageSize, offset: pageOffset });

/** Procedure input `{ siteImportId }` (siteImport.get, siteImport.retry). */
export const siteImportIdSchema = z.strictObject({ siteImportId: text(100) }, requiredOr("an object"));

/** Procedure input `{ siteImportId, rollbackResources? }` (siteImport.delete). */
export const deleteArgsSchema = z.strictObject(
  {
    siteImportId: text(100),
    rollbackResources: z
      .boolean(requiredOr("a boolean"))
      .nullish()
      .transform((v) => v ?? false),
  },
  requiredOr("an object"),
);

/** Parses an import request. @throws BadUserInputError (see {@link toBadUserInput}). */
export function parseSiteImportRequest(raw: unknown): SiteImportRequest {
  return parseInput(siteImportRequestSchema, raw, "Invalid import request");
}
