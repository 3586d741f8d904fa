/**
 * Every environment variable Skiff reads, validated once at start-up (zod).
 * The README's "Configuration" table documents the same list; keep them in step.
 */
import { z } from "zod";
import { parseAllowList } from "./http/address-policy.ts";

const bool = z
  .enum(["true", "false", "1", "0", ""])
  .optional()
  .transform((v) => v === "true" || v === "1");

/** A Kubernetes resource quantity such as `250m`, `1`, `512Mi`, `2G`. */
const quantity = z
  .string()
  .regex(/^[0-9]+(\.[0-9]+)?(m|k|M|G|T|Ki|Mi|Gi|Ti)?$/, "a Kubernetes quantity such as 250m or 512Mi");

/** `JSON.parse(text)`, or undefined when it is not JSON (the schema then says what is wrong). */
function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

const schema = z.object({
  HOST: z.string().default("0.0.0.0"),
  PORT: z.coerce.number().int().min(0).max(65535).default(4000),
  /** Public base URL used in links (invitations, deploy URLs); defaults to http://localhost:PORT. */
  SKIFF_BASE_URL: z.string().url().optional(),
  DATABASE_URL: z.string().min(1).optional(),
  /**
   * Largest request connection pool of one instance (Knex: GraphQL, REST, jobs' own queries). Issue 23; see README
   * "Connections per instance" for the total an instance opens.
   */
  SKIFF_DB_POOL_MAX: z.coerce.number().int().min(1).max(1000).default(20),
  /** Largest sign-in connection pool of one instance (better-auth's `pg` pool: sessions, sign-in, API keys). */
  SKIFF_AUTH_POOL_MAX: z.coerce.number().int().min(1).max(1000).default(10),
  /**
   * PostgreSQL URL for session work (issue 23): LISTEN/NOTIFY of subscriptions, the job runner (graphile-worker's
   * pool and LISTEN, the liveness connections) and migrations (their advisory lock). Set it to a direct or
   * session-mode connection when DATABASE_URL goes through a transaction-mode pooler (PgBouncer); unset:
   * DATABASE_URL (or the embedded PostgreSQL) for everything.
   */
  DATABASE_SESSION_URL: z.string().min(1).optional(),
  /** Where the embedded PostgreSQL and generated secrets live when DATABASE_URL is unset. */
  SKIFF_DATA_DIR: z.string().default(".data"),
  SKIFF_EMBEDDED_PG_PORT: z.coerce.number().int().min(1).max(65535).default(54329),
  /** Secret for session signing and at-rest encryption (≥ 32 chars). Generated into SKIFF_DATA_DIR when unset. */
  SKIFF_SECRET: z.string().min(32).optional(),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  SKIFF_BOOTSTRAP: z
    .enum(["true", "false"])
    .default("true")
    .transform((v) => v === "true"),
  SKIFF_BOOTSTRAP_EMAIL: z.string().email().default("owner@skiff.local"),
  SKIFF_BOOTSTRAP_PASSWORD: z.string().min(8).optional(),
  SKIFF_BOOTSTRAP_API_KEY: z.string().min(16).optional(),
  SKIFF_PUBLIC_API_ONLY: bool,
  /**
   * Base URL of the payment gateway's management API and checkout (`{gateway_host}`), e.g. `http://127.0.0.1:4010`
   * for the sandbox (`npm run gateway:sandbox`). Unset: payment gateway services cannot be created.
   */
  SKIFF_GATEWAY_URL: z.string().url().optional(),
  /** Bearer credential of the gateway's invite-only management API (the sandbox accepts any when it has none). */
  SKIFF_GATEWAY_API_KEY: z.string().optional(),
  /** Port of the sandbox gateway (`npm run gateway:sandbox`, and beside `npm start` when it starts one). */
  SKIFF_SANDBOX_GATEWAY_PORT: z.coerce.number().int().min(0).max(65535).default(4010),
  /** Agent API requests per minute per token (spec: Limits, 120). Raise only for benchmarks. */
  SKIFF_AGENT_RATE_LIMIT: z.coerce.number().int().min(1).default(120),
  /** Platform default container registry (used when an organization has none). */
  SKIFF_DEFAULT_REGISTRY_URL: z.string().optional(),
  /** Cluster-internal DNS suffix of database services, e.g. `svc.cluster.local`. */
  SKIFF_CLUSTER_DOMAIN: z.string().default("svc.cluster.local"),
  /**
   * What runs deployments (issue 12): `dry-run` (default) renders the Kubernetes manifests, stores them on the
   * deployment and applies nothing; `kubernetes` applies them with server-side apply to the cluster of KUBECONFIG
   * (or the in-cluster config) and waits for the rollout (deployer.kubernetes.ts).
   */
  SKIFF_DEPLOYER: z.enum(["dry-run", "kubernetes"]).default("dry-run"),
  /** Kubeconfig file of the `kubernetes` deployer; unset: `~/.kube/config`, else the in-cluster service account. */
  KUBECONFIG: z.string().min(1).optional(),
  /** Seconds the `kubernetes` deployer waits for a Deployment's rollout before the deployment ends `error`. */
  SKIFF_ROLLOUT_TIMEOUT: z.coerce.number().min(1).max(86_400).default(300),
  /** Seconds the `kubernetes` deployer waits for a git source's build Job before the deployment ends `error`. */
  SKIFF_BUILD_TIMEOUT: z.coerce.number().min(1).max(86_400).default(1800),
  /**
   * Seconds between health probes of a deployed application with a domain (`GET https://<domain><healthPath>`);
   * 0 turns probing off. Probes are planned once a minute, so values above 60 probe at most once a minute.
   */
  SKIFF_HEALTH_INTERVAL: z.coerce.number().int().min(0).max(3600).default(30),
  /**
   * Overrides of the requests/limits rendered workloads get per plan (issue 23; defaults in
   * deployment.manifests.ts `PLAN_RESOURCES`): JSON `{ "<plan name>" | "*": { "app" | "database" | "build":
   * { "requests"?: { "cpu"?, "memory"? }, "limits"?: { … } } } }`, Kubernetes quantities (`250m`, `512Mi`).
   */
  SKIFF_WORKLOAD_RESOURCES: z
    .string()
    .default("{}")
    .transform((v, ctx) => {
      const amounts = z.strictObject({ cpu: quantity.optional(), memory: quantity.optional() });
      const kind = z.strictObject({ requests: amounts.optional(), limits: amounts.optional() });
      const parsed = z
        .record(z.string(), z.strictObject({ app: kind.optional(), database: kind.optional(), build: kind.optional() }))
        .safeParse(safeJson(v));
      if (!parsed.success) {
        ctx.addIssue({ code: "custom", message: `not a valid resources override: ${parsed.error.message}` });
        return z.NEVER;
      }
      return parsed.data;
    }),
  /** Deploy trigger URL requests per minute per token (429 + Retry-After above). Raise only for benchmarks. */
  SKIFF_DEPLOY_RATE_LIMIT: z.coerce.number().int().min(1).default(30),
  /** Port health probes connect to (the ingress's HTTPS port). */
  SKIFF_HEALTH_PORT: z.coerce.number().int().min(1).max(65535).default(443),
  /**
   * Comma-separated CIDRs, addresses and host names (`*.` for subdomains) that outbound calls to user-given URLs
   * may reach although the SSRF checks refuse them (src/http/address-policy.ts). Empty by default; warned at start.
   */
  SKIFF_OUTBOUND_ALLOW: z
    .string()
    .default("")
    .superRefine((value, ctx) => {
      try {
        parseAllowList(value);
      } catch (err) {
        ctx.addIssue({ code: "custom", message: (err as Error).message });
      }
    }),
  /** Deepest field nesting accepted in a GraphQL operation (HTTP and WebSocket). */
  SKIFF_MAX_QUERY_DEPTH: z.coerce.number().int().min(2).default(15),
  /**
   * Highest query cost accepted (HTTP and WebSocket): fields resolved, multiplied by list sizes (`first`, or 10 for
   * unbounded lists) at every nesting level (src/server/query-cost.ts). Over it: 400 `QUERY_COST_EXCEEDED`.
   */
  SKIFF_MAX_QUERY_COST: z.coerce.number().int().min(1).default(200_000),
  /** Largest GraphQL response body over HTTP, in bytes; larger: 413 `RESPONSE_TOO_LARGE`. */
  SKIFF_MAX_RESPONSE_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(10 * 1024 * 1024),
  /** Longest GraphQL execution, in milliseconds; past it the remaining fields fail: 400 `EXECUTION_TIME_LIMIT`. */
  SKIFF_EXECUTION_TIMEOUT_MS: z.coerce.number().int().min(1).default(10_000),
  /**
   * `true`: Skiff runs behind a reverse proxy, so the client address comes from `X-Forwarded-For` (per-address
   * limits); otherwise the header is ignored.
   */
  SKIFF_TRUST_PROXY: bool,
  /**
   * Comma-separated origins (e.g. `https://admin.example.com`) besides SKIFF_BASE_URL's whose pages may open
   * cookie-authenticated WebSockets; others are closed with 4403.
   */
  SKIFF_TRUSTED_ORIGINS: z
    .string()
    .default("")
    .transform((v) =>
      v
        .split(",")
        .map((o) => o.trim())
        .filter(Boolean)
        .map((o) => new URL(o).origin),
    ),
  /**
   * `false` turns compiled reads off: queries whose every field has SQL (the project tree) then run through the
   * resolvers too, instead of one SQL statement building the JSON (src/modules/sql-reads.ts). Default on.
   */
  SKIFF_COMPILED_READS: z
    .enum(["true", "false", "1", "0"])
    .default("true")
    .transform((v) => v === "true" || v === "1"),
  /** `false` turns GraphQL introspection off (default on: the schema is public anyway through `_service`). */
  SKIFF_INTROSPECTION: z
    .enum(["true", "false", "1", "0"])
    .default("true")
    .transform((v) => v === "true" || v === "1"),
  /** Longest wait, in seconds, for in-flight requests on SIGTERM/SIGINT before connections are cut. */
  SKIFF_SHUTDOWN_TIMEOUT: z.coerce.number().min(0).default(10),
  /** Bearer token required by `GET /metrics`; unset: /metrics is open (restrict it at the network edge). */
  SKIFF_METRICS_TOKEN: z.string().min(1).optional(),
  /** OTLP/HTTP endpoint of a trace collector (e.g. http://collector:4318); unset: tracing off. */
  OTEL_EXPORTER_OTLP_ENDPOINT: z.string().url().optional(),
  /** `false`: this instance runs no background jobs (API only); others on the same database run them. */
  SKIFF_WORKER: z
    .enum(["true", "false", "1", "0"])
    .default("true")
    .transform((v) => v === "true" || v === "1"),
  /**
   * How long `importSite` / `retrySiteImport` (and `POST /api/site-import`) wait for the import run's end, ms;
   * past it they answer the still pending record (REST 202) while the run goes on.
   */
  SKIFF_IMPORT_WAIT_MS: z.coerce.number().int().min(0).max(600_000).default(60_000),
  /** Background jobs one instance runs at once (graphile-worker concurrency). */
  SKIFF_WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(4),
  /**
   * Ready jobs one instance fetches (and locks) per query and hands to its workers as they free up (graphile-worker's
   * local queue); unset: SKIFF_WORKER_CONCURRENCY; 0 or 1: one query per job.
   */
  SKIFF_WORKER_LOCAL_QUEUE: z.coerce.number().int().min(0).max(1000).optional(),
  /**
   * Largest job-runner connection pool of one instance (graphile-worker's pool: its LISTEN connection, job fetches
   * and completions); unset: SKIFF_WORKER_CONCURRENCY + 2. At least 2 (one is held by its LISTEN). Issue 23.
   */
  SKIFF_WORKER_POOL_MAX: z.coerce.number().int().min(2).max(1000).optional(),
  /** On shutdown, how long running jobs may finish (ms) before they are aborted and returned to the queue. */
  SKIFF_WORKER_SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).max(600_000).default(10_000),
  /**
   * Docs host this instance reports its docs hostnames to (`POST {url}/api/docs/sync`, issue 13); unset: this
   * instance is its own docs host (the embedded default: it syncs to itself in-process).
   */
  SKIFF_DOCS_HOST_URL: z.string().url().optional(),
  /** License key that authenticates this instance's synchronisation at the docs host; unset: no sync runs. */
  SKIFF_LICENSE_KEY: z.string().min(16).optional(),
  /** Seconds between two docs-hostname synchronisations (spec: about 60); honoured in whole minutes (job crontab). */
  SKIFF_LICENSE_SYNC_INTERVAL: z.coerce.number().int().min(60).max(86_400).default(60),
  /** Host name a docs hostname's CNAME must point to (shown in `docsRegistration.cnameTarget`, checked by the docs host). */
  SKIFF_DOCS_CNAME_TARGET: z.string().min(1).default("docs.skiff.dev"),
  /**
   * Docs-host role: comma-separated SHA-256 digests (hex) of the license keys this instance accepts at
   * `/api/docs/sync` (the instance's own SKIFF_LICENSE_KEY is always accepted). Keys themselves are never stored.
   */
  SKIFF_DOCS_HOST_LICENSE_SHA256: z
    .string()
    .default("")
    .refine((v) => v.split(",").every((d) => !d.trim() || /^[0-9a-f]{64}$/i.test(d.trim())), {
      message: "comma-separated 64-hex-digit SHA-256 digests",
    }),
  /** Docs-host role: comma-separated DNS servers (`ip` or `ip:port`) asked for CNAME checks; empty: the system's. */
  SKIFF_DOCS_DNS_SERVERS: z.string().default(""),
  SMTP_URL: z.string().optional(),
  SMTP_FROM: z.string().default("Skiff <no-reply@skiff.local>"),
  GITHUB_CLIENT_ID: z.string().optional(),
  GITHUB_CLIENT_SECRET: z.string().optional(),
  GOOGLE_CLIENT_ID: z.string().optional(),
  GOOGLE_CLIENT_SECRET: z.string().optional(),
  /** OpenID Connect issuer of Google sign-in (discovery document under it); default https://accounts.google.com. */
  GOOGLE_ISSUER: z.string().url().optional(),
  GITLAB_CLIENT_ID: z.string().optional(),
  GITLAB_CLIENT_SECRET: z.string().optional(),
  GITLAB_ISSUER: z.string().url().optional(),
});

/** Validated configuration; see README "Configuration". */
export type Config = z.infer<typeof schema>;

/**
 * Parses `env` (default `process.env`) into a {@link Config}.
 * @throws Error listing every invalid variable, so start-up fails with a clear message.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join("\n")}`);
  }
  return parsed.data;
}
