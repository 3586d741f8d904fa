/**
 * The organization bundle, version 1 (docs/organization-transfer.md): one JSON document with an organization's
 * configuration — projects, environments, applications (source, build and deploy settings, domains, environment
 * variables), database services (configuration, not data), payment gateway services, webhook endpoints, the docs
 * theme and hostname, and members with their roles and grants. Rows are named by their names, never by this
 * instance's ids, so a bundle applies to any instance. Secrets are not in the document: each secret field holds a
 * reference (`secretRef`), and `secrets.ciphertext` is one age-encrypted JSON object from reference to value.
 * The JSON Schema committed as docs/schemas/organization-bundle.schema.json is generated from {@link OrganizationBundle}
 * by scripts/bundle-schema.ts (`npm run codegen`).
 */
import { z } from "zod";

/** The bundle's `format` marker. */
export const BUNDLE_FORMAT = "skiff.organization-bundle";
/** The bundle version this instance writes and reads. */
export const BUNDLE_VERSION = 1;

const SecretRef = z
  .string()
  .min(1)
  .describe(
    "Reference of the value in the encrypted secrets (`secrets.ciphertext`), e.g. `env:shop/production/web/API_KEY`",
  );

const Domain = z
  .object({
    host: z.string().describe("Host name, unique platform-wide"),
    port: z.number().int().nullable().describe("Container port the domain routes to; null: the application's port"),
    https: z.boolean().describe("Whether the domain is served over HTTPS"),
  })
  .strict();

const Variable = z
  .object({
    key: z.string().describe("Environment variable name"),
    secret: SecretRef.describe("Reference of the variable's value in the encrypted secrets"),
  })
  .strict();

const DeploySettings = z
  .object({
    autoDeploy: z.boolean().describe("Whether a push to the repository deploys"),
    branchFilter: z.string().nullable().describe("Branch glob a push must match; null: the source branch"),
    watchPaths: z.array(z.string()).describe("Path globs a push must touch to deploy; empty: any"),
    healthPath: z.string().describe("Path the health probe requests, starting with `/`"),
    requireSignature: z.boolean().describe("Whether push webhooks must be signed"),
  })
  .strict()
  .describe("Deploy settings; the deploy token and the push webhook secret are not exported (made anew on import)");

const Application = z
  .object({
    name: z.string(),
    sourceType: z.enum(["github", "gitlab", "docker", "git"]).nullable(),
    source: z
      .record(z.string(), z.string())
      .describe(
        "Source settings (`repo`, `branch`, `buildPath`, `dockerImage`, `customGitUrl`); git providers and SSH keys are instance-bound and not exported",
      ),
    buildType: z.enum(["dockerfile", "nixpacks"]).nullable(),
    port: z.number().int().describe("Container port"),
    deploySettings: DeploySettings,
    domains: z.array(Domain),
    variables: z.array(Variable),
  })
  .strict();

const Database = z
  .object({
    type: z.enum(["mariadb", "mysql", "postgres", "mongodb"]),
    name: z.string(),
    username: z.string(),
    password: SecretRef.describe("Reference of the password in the encrypted secrets"),
  })
  .strict()
  .describe("A database service's configuration; its data is not exported");

const Environment = z
  .object({
    name: z.string(),
    applications: z.array(Application),
    databases: z.array(Database),
  })
  .strict();

const PaymentGatewayService = z
  .object({
    name: z.string(),
    webhookUrl: z.string().nullable().describe("Where verified payment events are relayed; null: none"),
  })
  .strict();

const Project = z
  .object({
    name: z.string(),
    description: z.string().nullable(),
    environments: z.array(Environment),
    paymentGatewayServices: z.array(PaymentGatewayService),
  })
  .strict();

const WebhookEndpoint = z
  .object({
    url: z.string(),
    events: z.array(z.string()).describe("Subscribed event names, sorted"),
    isActive: z.boolean(),
    description: z.string().nullable(),
    secret: SecretRef.describe("Reference of the signing secret in the encrypted secrets"),
  })
  .strict();

const DocsTheme = z
  .object({
    siteName: z.string(),
    logoUrl: z.string(),
    faviconUrl: z.string().nullable(),
    colorsLight: z.record(z.string(), z.unknown()),
    colorsDark: z.record(z.string(), z.unknown()),
    footerText: z.string(),
    customCss: z.string().nullable(),
    hostname: z.string().nullable().describe("The docs hostname; null: none"),
  })
  .strict();

const Grant = z
  .object({
    project: z.string().describe("Project name"),
    environment: z.string().optional().describe("Environment name, with `application`"),
    application: z.string().optional().describe("Application name: the grant is on that application alone"),
  })
  .strict()
  .superRefine((g, ctx) => {
    // A grant is on a whole project or on one application; an environment alone would widen it to the project.
    if ((g.environment === undefined) !== (g.application === undefined)) {
      ctx.addIssue({ code: "custom", message: "Give environment and application together, or neither" });
    }
  });

const Member = z
  .object({
    email: z.string().describe("The member's e-mail address: an invitation is sent to it on import"),
    role: z.enum(["owner", "admin", "member"]),
    grants: z
      .array(Grant)
      .describe("Projects or applications a `member` is limited to; empty: all, unless `limited` is true"),
    limited: z
      .literal(true)
      .optional()
      .describe(
        "A `member` limited to grants none of which is left (their projects and applications were deleted): they see no project. Written only then; absent: limited when `grants` is not empty",
      ),
  })
  .strict();

const Secrets = z
  .object({
    encryption: z
      .enum(["age", "none"])
      .describe("`age`: `ciphertext` holds the secrets; `none`: no key was given and every secret was left out"),
    recipient: z
      .enum(["x25519", "passphrase"])
      .nullable()
      .describe("What decrypts `ciphertext`: the identity of an age X25519 recipient, or a passphrase"),
    count: z.number().int().describe("Number of secret references in the bundle"),
    ciphertext: z
      .string()
      .nullable()
      .describe("ASCII-armored age file of a JSON object from secret reference to value; null with `none`"),
    note: z.string().describe("What the secrets part holds, for people"),
  })
  .strict();

/** The organization bundle, version 1, before the check that no resource is named twice. */
const BundleShape = z
  .object({
    format: z.literal(BUNDLE_FORMAT),
    version: z.literal(BUNDLE_VERSION),
    exportedAt: z.string().describe("When the bundle was made (ISO 8601)"),
    organization: z
      .object({ id: z.string(), name: z.string(), slug: z.string().nullable() })
      .strict()
      .describe("The exported organization, as the exporting instance names it"),
    secrets: Secrets,
    projects: z.array(Project).describe("Projects by name, each with its environments and services"),
    webhookEndpoints: z.array(WebhookEndpoint),
    docsTheme: DocsTheme.nullable(),
    members: z.array(Member).describe("Members by joining order"),
  })
  .strict();

/** The organization bundle, version 1: no resource named twice (see {@link refuseDuplicates}). */
export const OrganizationBundle = BundleShape.superRefine(refuseDuplicates).describe(
  "An organization's configuration, exported by Skiff (docs/organization-transfer.md)",
);

/** A parsed bundle. */
export type OrganizationBundle = z.infer<typeof OrganizationBundle>;

/** One keyed entry of a bundle: its key as the import matches it, and the path of the field holding it. */
type Keyed = { key: string; path: (string | number)[] };

/**
 * Adds an issue at the path of each entry whose key an earlier entry of `entries` has (`what` names the key).
 */
function flagRepeated(ctx: z.RefinementCtx, entries: Keyed[], what: string): void {
  const first = new Map<string, string>();
  for (const { key, path } of entries) {
    const earlier = first.get(key);
    if (earlier === undefined) first.set(key, path.join("."));
    else ctx.addIssue({ code: "custom", path, message: `Duplicate ${what} ${key} (also at ${earlier})` });
  }
}

/**
 * Refuses a bundle that names one resource twice. The bundle names resources by their names, so the import plan
 * and the import could tell two such entries apart neither from each other nor from the row in the organization:
 * projects by name; environments by name within a project; applications, databases and payment gateway services
 * by name within theirs; variables by key within an application; domains by host in the whole bundle (a host is
 * unique on an instance); webhook endpoints by URL; members by e-mail (case-insensitive).
 */
function refuseDuplicates(bundle: z.infer<typeof BundleShape>, ctx: z.RefinementCtx): void {
  const at = (list: { name: string }[], path: (string | number)[]): Keyed[] =>
    list.map((x, i) => ({ key: x.name, path: [...path, i, "name"] }));
  const domains: Keyed[] = [];
  flagRepeated(ctx, at(bundle.projects, ["projects"]), "project");
  bundle.projects.forEach((p, pi) => {
    const project = ["projects", pi];
    flagRepeated(ctx, at(p.environments, [...project, "environments"]), "environment");
    flagRepeated(ctx, at(p.paymentGatewayServices, [...project, "paymentGatewayServices"]), "payment gateway service");
    p.environments.forEach((e, ei) => {
      const environment = [...project, "environments", ei];
      flagRepeated(ctx, at(e.applications, [...environment, "applications"]), "application");
      flagRepeated(ctx, at(e.databases, [...environment, "databases"]), "database");
      e.applications.forEach((a, ai) => {
        const application = [...environment, "applications", ai];
        const variables = a.variables.map((v, vi) => ({ key: v.key, path: [...application, "variables", vi, "key"] }));
        flagRepeated(ctx, variables, "variable");
        a.domains.forEach((d, di) => {
          // As the domains module stores a host: lower case, without a final dot.
          domains.push({ key: d.host.toLowerCase().replace(/\.$/, ""), path: [...application, "domains", di, "host"] });
        });
      });
    });
  });
  flagRepeated(ctx, domains, "domain");
  const webhooks = bundle.webhookEndpoints.map((w, i) => ({ key: w.url, path: ["webhookEndpoints", i, "url"] }));
  flagRepeated(ctx, webhooks, "webhook endpoint");
  const members = bundle.members.map((m, i) => ({ key: m.email.toLowerCase(), path: ["members", i, "email"] }));
  flagRepeated(ctx, members, "member");
}

/** The JSON Schema (draft 2020-12) of {@link OrganizationBundle}, as committed in docs/schemas/. */
export function bundleJsonSchema(): Record<string, unknown> {
  return { ...z.toJSONSchema(OrganizationBundle, { target: "draft-2020-12" }), title: "Skiff organization bundle" };
}
