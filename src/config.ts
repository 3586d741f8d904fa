/**
 * Every environment variable Skiff reads, validated once at start-up (zod). The schema's descriptions are the
 * documentation: docs/configuration.md is generated from them (`npm run docs:config`).
 */
import { isIP, isIPv4, isIPv6 } from "node:net";
import ipaddr from "ipaddr.js";
import { z } from "zod";
import { parseAllowList } from "./http/address-policy.ts";
import { parseTrustedProxies } from "./http/client-address.ts";

/** A boolean variable: `true` or `1`, `false` or `0` (`fallback` when unset). */
function boolean(fallback: "true" | "false") {
  return z
    .enum(["true", "false", "1", "0"])
    .default(fallback)
    .transform((v) => v === "true" || v === "1");
}

/**
 * A numeric variable in decimal digits (an optional `-` and fraction, which `schema`'s `.int()` and bounds may refuse),
 * checked by `schema`, which holds its bounds and default. `0x10f3`, `1e3`, `Infinity` are refused (z.coerce.number()
 * read them as numbers, and an empty value as 0).
 */
function decimal<T extends z.ZodType>(schema: T) {
  return z.preprocess((value, ctx) => {
    if (typeof value !== "string") return value;
    const text = value.trim();
    if (/^-?[0-9]+(\.[0-9]+)?$/.test(text)) return Number(text);
    ctx.addIssue({ code: "custom", message: `not a number in decimal digits: ${JSON.stringify(value)}` });
    return z.NEVER;
  }, schema);
}

/** A web address: an absolute `http://` or `https://` URL. */
function webUrl() {
  return z.url({ protocol: /^https?$/, error: "not an http:// or https:// URL" });
}

/** A PostgreSQL connection URL (`postgres://` or `postgresql://`; the rest is the driver's, sockets included). */
const postgresUrl = z.string().regex(/^postgres(ql)?:\/\//i, "not a postgres:// or postgresql:// URL");

/** Whether `text` is an IPv4 CIDR in dotted decimal (`10.0.0.0/8`): four octets 0–255, a prefix 0–32, no leading zeros. */
function isIPv4Cidr(text: string): boolean {
  return /\/(0|[1-9][0-9]?)$/.test(text) && ipaddr.IPv4.isValidCIDRFourPartDecimal(text);
}

/** Whether `text` is a DNS server as node's `dns.setServers` takes it: `ip`, `ipv4:port`, `[ipv6]` or `[ipv6]:port`. */
function isDnsServer(text: string): boolean {
  if (isIP(text) !== 0) return true;
  const match = /^(?:\[([^\]]+)\]|([0-9.]+))(?::([0-9]{1,5}))?$/.exec(text);
  if (!match) return false;
  const [, v6, v4, port] = match;
  if (v6 !== undefined ? !isIPv6(v6) : !isIPv4(v4!)) return false;
  return port === undefined || (Number(port) >= 1 && Number(port) <= 65535);
}

/**
 * Millicores of a CPU quantity as rendered workloads and tenant quotas take it: `<n>m` (`250m`) or cores with up to
 * three decimals (`1`, `1.5`). The one parser of CPU quantities: the configuration checks SKIFF_WORKLOAD_RESOURCES
 * with it, the renderer (src/modules/deployments/tenant.manifests.ts) sums with it.
 * @throws Error naming the quantity and the forms taken.
 */
export function cpuMillicores(q: string): number {
  const milli = /^([0-9]+)m$/.exec(q);
  if (milli) return Number(milli[1]);
  if (/^[0-9]+(\.[0-9]{1,3})?$/.test(q)) return Math.round(Number(q) * 1000);
  throw new Error(`unsupported CPU quantity ${q} (use millicores such as 250m, or cores such as 1 or 1.5)`);
}

/**
 * Mebibytes of a memory quantity as rendered workloads and tenant quotas take it: a whole number of `Mi` (`512Mi`)
 * or `Gi` (`2Gi`, `1.5Gi`: a whole number of Mi). The one parser of memory quantities, as {@link cpuMillicores} is
 * of CPU's. @throws Error naming the quantity and the forms taken.
 */
export function memoryMebibytes(q: string): number {
  const match = /^([0-9]+(?:\.[0-9]+)?)(Mi|Gi)$/.exec(q);
  const mebibytes = match ? Number(match[1]) * (match[2] === "Gi" ? 1024 : 1) : Number.NaN;
  if (!Number.isInteger(mebibytes))
    throw new Error(`unsupported memory quantity ${q} (use Mi or Gi, e.g. 512Mi or 2Gi)`);
  return mebibytes;
}

/** A quantity `parse` (one of the two above) takes, its error message being the issue's. */
function quantity(parse: (q: string) => number) {
  return z.string().superRefine((value, ctx) => {
    try {
      parse(value);
    } catch (error) {
      ctx.addIssue({ code: "custom", message: (error as Error).message });
    }
  });
}

/** `JSON.parse(text)`, or undefined when it is not JSON (the schema then says what is wrong). */
function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The schema of Skiff's environment. Each variable's `.describe()` text is its documentation:
 * `npm run docs:config` (scripts/config-docs.ts) renders docs/configuration.md from it, and
 * test/docs/config-docs.test.ts fails when that page is stale. Links in the texts are relative to docs/.
 */
export const configSchema = z.object({
  HOST: z.string().default("0.0.0.0").describe("Listen address."),
  PORT: decimal(z.number().int().min(0).max(65535).default(4000)).describe("Listen port (`0`: any free port)."),
  SKIFF_BASE_URL: webUrl()
    .optional()
    .describe(
      "Public base URL, used in links (invitations, OAuth callbacks, deploy URLs) and as trusted origin. Unset: `http://localhost:$PORT`.",
    ),
  DATABASE_URL: postgresUrl
    .optional()
    .describe(
      "PostgreSQL URL (`postgres://` or `postgresql://`). Unset: an embedded PostgreSQL in `$SKIFF_DATA_DIR/postgres` (see [The embedded PostgreSQL](operations.md#the-embedded-postgresql)).",
    ),
  SKIFF_DB_POOL_MAX: decimal(z.number().int().min(1).max(1000).default(10)).describe(
    "Largest request connection pool of one instance (Knex: GraphQL, REST, job handlers' queries). More connections than the database server has cores make each statement dearer (measured on 2 cores at 32 concurrent requests: 20 instead of 10 cost PostgreSQL ~20% more CPU per small read, and 5 ~20% less than 10); raise it for a larger server or long transactions. See [Connections per instance](operations.md#connections-per-instance).",
  ),
  SKIFF_AUTH_POOL_MAX: decimal(z.number().int().min(1).max(1000).default(10)).describe(
    "Largest sign-in connection pool of one instance (better-auth: sessions, sign-in, API keys, attempt limits).",
  ),
  DATABASE_SESSION_URL: postgresUrl
    .optional()
    .describe(
      "PostgreSQL URL (`postgres://` or `postgresql://`) for session work: subscriptions' LISTEN/NOTIFY, the job runner (graphile-worker's pool and LISTEN, liveness connections) and migrations (their advisory lock). Set it to a direct or session-mode URL when `DATABASE_URL` goes through a transaction-mode pooler; see [Behind a connection pooler](operations.md#behind-a-connection-pooler). Unset: `DATABASE_URL` (or the embedded PostgreSQL) for everything.",
    ),
  SKIFF_DATA_DIR: z
    .string()
    .default(".data")
    .describe(
      "Embedded PostgreSQL data (`postgres/`), its password, log and lock (`skiff.lock`: one Skiff per directory), and the generated secret.",
    ),
  SKIFF_EMBEDDED_PG_PORT: decimal(z.number().int().min(1).max(65535).default(54329)).describe(
    "Port of the embedded PostgreSQL (loopback only).",
  ),
  SKIFF_SECRET: z
    .string()
    .min(32)
    .optional()
    .describe(
      "Signs sessions and encrypts stored secrets (AES-256-GCM). Set it in production and keep it stable: a start whose secret does not open the database's stored secrets is refused, saying so. Unset: generated into `$SKIFF_DATA_DIR/secret`.",
    ),
  LOG_LEVEL: z
    .enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"])
    .default("info")
    .describe(
      "pino log level (JSON lines on stdout; human-readable when stdout is a terminal). At `info`, one line per HTTP request once it is answered (`request completed`: method, URL with credentials redacted, status, `responseTime` in ms); `debug` adds `incoming request` when a request arrives.",
    ),
  SKIFF_BOOTSTRAP: boolean("true").describe(
    "`false` skips the first-run account creation (see [First start](operations.md#first-start)).",
  ),
  SKIFF_BOOTSTRAP_EMAIL: z.string().email().default("owner@skiff.local").describe("First owner's e-mail."),
  SKIFF_BOOTSTRAP_PASSWORD: z
    .string()
    .min(8)
    .optional()
    .describe("First owner's password. Unset: generated and printed once."),
  SKIFF_BOOTSTRAP_API_KEY: z
    .string()
    .min(16)
    .optional()
    .describe("First API key's value (accepted as is, stored hashed). Unset: generated and printed once."),
  SKIFF_PUBLIC_API_ONLY: boolean("false").describe(
    "`true`: every path except the published ones (`/graphql`, `/api/auth/*` and the REST paths of the OpenAPI documents: `/api/agent/*`, `/api/site-import*`, webhooks, deploy URLs, docs theming, `/api/payment-gateway/events`) and the operator's `/healthz`, `/readyz`, `/metrics` answers 404: the internal procedures (`/api/siteImport.*`, the management procedures such as `/api/application.create`) and the dashboard's pages included.",
  ),
  SKIFF_MCP: z
    .enum(["true", "false", "1", "0"])
    .optional()
    .transform((v) => (v === undefined ? undefined : v === "true" || v === "1"))
    .describe(
      "Serve the MCP server at `/mcp` (Model Context Protocol over Streamable HTTP, agent tokens only; see [Agent API](agent-api.md#mcp-server)). Unset: served unless `SKIFF_PUBLIC_API_ONLY=true`, since the spec's published list does not name `/mcp`; `true` serves it there too; `false` never.",
    ),
  SKIFF_GATEWAY_URL: webUrl()
    .optional()
    .describe(
      "Base URL of the payment gateway (`{gateway_host}`: management API and checkout), e.g. `http://127.0.0.1:4010` for the sandbox. Unset: payment gateway services cannot be created (`BAD_USER_INPUT`), except that `npm start` with the embedded database starts the sandbox and uses it (see [Payments](payments.md)).",
    ),
  SKIFF_GATEWAY_API_KEY: z
    .string()
    .optional()
    .describe(
      "Bearer credential of the gateway's invite-only management API (also the key the sandbox requires when set).",
    ),
  SKIFF_SANDBOX_GATEWAY_PORT: decimal(z.number().int().min(0).max(65535).default(4010)).describe(
    "Port of the sandbox payment gateway (`npm run gateway:sandbox`, or beside `npm start`; see [Payments](payments.md)). `0`: none is started beside `npm start` (`npm run gateway:sandbox` then takes a free port and prints it).",
  ),
  SKIFF_AGENT_RATE_LIMIT: decimal(z.number().int().min(1).default(120)).describe(
    "Agent API requests per minute per agent token (the spec's limit). Raise it only for benchmarks (`npm run bench:agent` does).",
  ),
  SKIFF_AUDIT_RETENTION_DAYS: decimal(z.number().int().min(1).max(36500).default(400)).describe(
    "Days an audit log entry is kept; older entries are deleted by the hourly `audit.prune` job (see [Audit log](audit-log.md)).",
  ),
  SKIFF_DEFAULT_REGISTRY_URL: z
    .string()
    .optional()
    .describe("Platform default container registry for organizations that have none."),
  SKIFF_CLUSTER_DOMAIN: z
    .string()
    .default("svc.cluster.local")
    .describe(
      "The cluster's DNS suffix of Services (`DB_HOST` = `<app>-db.<organization namespace>.<suffix>`, the database Service the deployers render in the organization's namespace); outbound calls refuse it and its subdomains.",
    ),
  SKIFF_ROUTING: z
    .enum(["ingress", "gateway"])
    .default("ingress")
    .describe(
      "How the kubernetes deployer routes an application's domains: `ingress`, one `Ingress` per domain (class `SKIFF_INGRESS_CLASS`, TLS by cert-manager's annotation), or `gateway`, one Gateway API `HTTPRoute` per domain attached to `SKIFF_HTTPROUTE_GATEWAY` with a cert-manager `Certificate` per `https` domain (see [Routing](deployments.md#routing)).",
    ),
  SKIFF_INGRESS_CLASS: z
    .string()
    .regex(/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/, "an IngressClass name (DNS subdomain)")
    .optional()
    .describe(
      "`ingressClassName` of the rendered Ingresses (e.g. `traefik`, `haproxy`, `nginx`). Unset: none, so the cluster's default IngressClass takes them.",
    ),
  SKIFF_HTTPROUTE_GATEWAY: z
    .string()
    .regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?\/[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/, "namespace/name of a Gateway")
    .default("skiff/skiff")
    .transform((v) => {
      const [namespace, name] = v.split("/") as [string, string];
      return { namespace, name };
    })
    .describe("The parent Gateway (`namespace/name`) of the HTTPRoutes when `SKIFF_ROUTING=gateway`."),
  SKIFF_HTTPROUTE_LISTENER: z
    .string()
    .regex(/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/, "a listener name")
    .optional()
    .describe(
      "The listener (`sectionName`) of that Gateway the HTTPRoutes attach to. Unset: every listener that admits them.",
    ),
  SKIFF_CERT_ISSUER: z
    .string()
    .min(1)
    .default("letsencrypt")
    .describe(
      "The cert-manager `ClusterIssuer` of the certificates of `https` domains (Ingress annotation, or `Certificate` with `SKIFF_ROUTING=gateway`).",
    ),
  SKIFF_DEPLOYER: z
    .enum(["dry-run", "kubernetes"])
    .default("dry-run")
    .describe(
      "What runs deployments: `dry-run` renders and stores the Kubernetes manifests, applies nothing; `kubernetes` applies them with server-side apply and waits for the rollout (see [Deployers](deployments.md#deployers)).",
    ),
  KUBECONFIG: z
    .string()
    .min(1)
    .optional()
    .describe(
      "Kubeconfig file of the `kubernetes` deployer; each organization's objects go to its own namespace (see [Tenant namespaces](deployments.md#tenant-namespaces)). Unset: `~/.kube/config`, else the in-cluster service account.",
    ),
  SKIFF_TENANT_INGRESS_NAMESPACE: z
    .string()
    .regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/, "a namespace name")
    .default("ingress")
    .describe(
      "Namespace of the ingress controller (or Gateway) whose pods the NetworkPolicy of every tenant namespace admits (see [Tenant namespaces](deployments.md#tenant-namespaces)).",
    ),
  SKIFF_TENANT_BLOCKED_CIDRS: z
    .string()
    .default("10.0.0.0/8,172.16.0.0/12,192.168.0.0/16,100.64.0.0/10,169.254.0.0/16")
    .transform((v, ctx) => {
      const cidrs = v
        .split(",")
        .map((c) => c.trim())
        .filter(Boolean);
      for (const cidr of cidrs.filter((c) => !isIPv4Cidr(c))) {
        ctx.addIssue({ code: "custom", message: `not an IPv4 CIDR such as 10.0.0.0/8: ${JSON.stringify(cidr)}` });
      }
      if (cidrs.length === 0) ctx.addIssue({ code: "custom", message: "no CIDR listed" });
      return cidrs;
    })
    .describe(
      "Comma-separated IPv4 CIDRs that tenant pods may not reach outside their namespace: the cluster's pod, service and node ranges and the cloud metadata address. Every other address (the internet) is allowed out, with the cluster DNS.",
    ),
  SKIFF_SERVICE_ACCOUNT: z
    .string()
    .regex(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?\/[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/, "namespace/name of a ServiceAccount")
    .default("skiff/skiff")
    .transform((v) => {
      const [namespace, name] = v.split("/") as [string, string];
      return { namespace, name };
    })
    .describe(
      "Skiff's own ServiceAccount (`namespace/name`), which the `kubernetes` deployer binds to the ClusterRole `skiff-tenant` in every tenant namespace it creates.",
    ),
  SKIFF_LEGACY_NAMESPACE: z
    .string()
    .regex(/^([a-z0-9]([-a-z0-9]*[a-z0-9])?)?$/, "a namespace name")
    .default("skiff-apps")
    .describe(
      "The single namespace older installs applied every organization's objects to: the reconcile moves each organization's labelled objects out of it into the organization's namespace (see [Migrating from skiff-apps](operations.md#migrating-from-skiff-apps)). Skiff needs the ClusterRole `skiff-tenant` bound there while it is emptied (`deploy/components/legacy-skiff-apps`): a refused listing fails the reconcile. Empty: no legacy namespace is looked at.",
    ),
  SKIFF_ROLLOUT_TIMEOUT: decimal(z.number().min(1).max(86_400).default(300)).describe(
    "Seconds the `kubernetes` deployer waits for a Deployment's rollout before the deployment ends `error`. Also bounds each request to the API server, at most 30 s: one that does not answer in time fails its step (the deployment ends `error`; a reconcile is retried). See [Deployers](deployments.md#deployers).",
  ),
  SKIFF_BUILD_TIMEOUT: decimal(z.number().min(1).max(86_400).default(1800)).describe(
    "Seconds the `kubernetes` deployer waits for a git source's build Job before the deployment ends `error`.",
  ),
  SKIFF_RECONCILE_INTERVAL: decimal(z.number().int().min(0).max(86_400).default(600)).describe(
    "Seconds between two periodic reconciles under the `kubernetes` deployer: every organization's cluster objects are compared with its rows and the ones no row calls for deleted (counted in `skiff_reconcile_deleted_objects_total`); `0` turns them off. Planned once a minute. Changes reconcile at once whatever this is (see [Deleting](deployments.md#deleting)).",
  ),
  SKIFF_HEALTH_INTERVAL: decimal(z.number().int().min(0).max(3600).default(30)).describe(
    "Seconds between health probes of a deployed application with a domain (`GET https://<domain><healthPath>`); `0` turns them off. Planned once a minute, so values above 60 probe once a minute.",
  ),
  SKIFF_WORKLOAD_RESOURCES: z
    .string()
    .default("{}")
    .transform((v, ctx) => {
      const amounts = z.strictObject({
        cpu: quantity(cpuMillicores).optional(),
        memory: quantity(memoryMebibytes).optional(),
      });
      const kind = z.strictObject({ requests: amounts.optional(), limits: amounts.optional() });
      const json = safeJson(v);
      if (json === undefined) {
        ctx.addIssue({ code: "custom", message: `not JSON: ${JSON.stringify(v.slice(0, 60))}` });
        return z.NEVER;
      }
      const parsed = z
        .record(z.string(), z.strictObject({ app: kind.optional(), database: kind.optional(), build: kind.optional() }))
        .safeParse(json);
      if (!parsed.success) {
        const issues = parsed.error.issues.map((i) => `${i.path.join(".") || "(the value)"}: ${i.message}`);
        ctx.addIssue({ code: "custom", message: `not a valid resources override: ${issues.join("; ")}` });
        return z.NEVER;
      }
      return parsed.data;
    })
    .describe(
      'JSON overriding the requests/limits of rendered workloads per plan (`"free"`, `"pro"`, `"unlimited"`, or `"*"` for all): `{"pro":{"app":{"limits":{"memory":"2Gi"}},"build":{…},"database":{…}}}` (see [Builds, workload policy and secrets](deployments.md#builds-workload-policy-and-secrets)). CPU in millicores (`250m`) or cores with up to three decimals (`1`, `1.5`); memory in whole `Mi` (`512Mi`) or `Gi` (`2Gi`, `1.5Gi`). Other quantities (`1G`, `1k`, `512M`) are refused at start: the tenant quotas are sums of these.',
    ),
  SKIFF_DEPLOY_RATE_LIMIT: decimal(z.number().int().min(1).default(30)).describe(
    "Deploy trigger URL requests per minute per token (429 + `Retry-After` above). Raise only for benchmarks (`npm run bench:deploy` does).",
  ),
  SKIFF_HEALTH_PORT: decimal(z.number().int().min(1).max(65535).default(443)).describe(
    "Port health probes connect to (the ingress's HTTPS port).",
  ),
  SKIFF_OUTBOUND_ALLOW: z
    .string()
    .default("")
    .superRefine((value, ctx) => {
      try {
        parseAllowList(value);
      } catch (err) {
        ctx.addIssue({ code: "custom", message: (err as Error).message });
      }
    })
    .describe(
      "Comma-separated CIDRs, addresses and host names (`*.corp.internal` for subdomains) that outbound calls may reach although the SSRF checks refuse them (see [Outbound HTTP](operations.md#outbound-http)). Logged as a warning at start when set.",
    ),
  SKIFF_OUTBOUND_DNS_CACHE_SECONDS: decimal(z.number().min(0).max(3600).default(1)).describe(
    "How long outbound calls reuse a host name's resolved addresses, seconds (0: every call resolves it). Under load one resolution per host and period serves every call; longer periods spare the resolver but check each call against an older answer. Every call still checks every address it dials; a failed resolution is not kept, and save-time URL checks always resolve afresh (see [Outbound HTTP](operations.md#outbound-http)).",
  ),
  SKIFF_MAX_QUERY_DEPTH: decimal(
    z.number().int().min(5, "must be at least 5: the REST paths' own operations nest 5 deep").default(15),
  ).describe(
    "Deepest field nesting accepted in a GraphQL operation (HTTP and WebSocket); deeper ones answer `GRAPHQL_VALIDATION_FAILED`. At least 5: the REST paths run GraphQL operations nested that deep.",
  ),
  SKIFF_MAX_QUERY_COST: decimal(z.number().int().min(1).default(200_000)).describe(
    "Highest estimated cost of a GraphQL operation (HTTP and WebSocket): fields × list sizes at every nesting level (`first`, or 5 for lists without it). Over it: 400 `QUERY_COST_EXCEEDED` with `cost` and `limit`.",
  ),
  SKIFF_MAX_RESPONSE_BYTES: decimal(
    z
      .number()
      .int()
      .min(1024)
      .default(10 * 1024 * 1024),
  ).describe(
    "Largest GraphQL answer (bytes); larger: 413 `RESPONSE_TOO_LARGE` with `size` and `limit` (over WebSocket, a query's or mutation's result is that error).",
  ),
  SKIFF_EXECUTION_TIMEOUT_MS: decimal(z.number().int().min(1).max(600_000).default(10_000)).describe(
    "Longest GraphQL execution (ms); past it the remaining fields fail and the answer is 400 `EXECUTION_TIME_LIMIT`.",
  ),
  SKIFF_TRUST_PROXY: z
    .string()
    .default("")
    .transform((v, ctx) => {
      try {
        return parseTrustedProxies(v);
      } catch (error) {
        ctx.addIssue({ code: "custom", message: (error as Error).message });
        return z.NEVER;
      }
    })
    .describe(
      "The reverse proxies in front of Skiff, whose `X-Forwarded-For` entries are believed: a comma-separated list of addresses and CIDRs (e.g. `10.0.0.0/8,fd00::/8`; also `loopback`, `linklocal`, `uniquelocal`), or a hop count (`1`: one proxy, whatever its address). The client address — per-address sign-in and sign-up limits, the WebSocket limit on unauthenticated sockets, request logs, session addresses — is the rightmost address of the socket's peer and `X-Forwarded-For` that is not a trusted proxy; entries left of it, which a client can write, are ignored. Empty or `false`: no proxy, the header is ignored. `true` is refused (it would believe the leftmost entry, which any client chooses). See [Behind a reverse proxy](operations.md#behind-a-reverse-proxy).",
    ),
  SKIFF_TRUSTED_ORIGINS: z
    .string()
    .default("")
    .transform((v, ctx) => {
      const origins: string[] = [];
      for (const entry of v
        .split(",")
        .map((o) => o.trim())
        .filter(Boolean)) {
        const url = /^https?:\/\//i.test(entry) ? URL.parse(entry) : null;
        if (url) origins.push(url.origin);
        else ctx.addIssue({ code: "custom", message: `not an http:// or https:// origin: ${JSON.stringify(entry)}` });
      }
      return origins;
    })
    .describe(
      "Comma-separated `http(s)://` origins besides `SKIFF_BASE_URL`'s whose pages may use the session cookie: sign in (others: 403 `INVALID_ORIGIN`), send cookie-authenticated requests other than GET, HEAD and OPTIONS to `/graphql` and the REST paths (others: 403 `INVALID_ORIGIN`; a request without `Origin` is not concerned) and open cookie-authenticated WebSockets (others: 4403). Header-authenticated requests are unaffected. With `SKIFF_BASE_URL` unset, `http://localhost:<PORT>`, `http://127.0.0.1:<PORT>` and `http://[::1]:<PORT>` are all trusted.",
    ),
  SKIFF_PREPARED_READS: z
    .enum(["auto", "true", "false", "1", "0"])
    .default("auto")
    .describe(
      "Compiled reads as named prepared statements (PostgreSQL plans a repeated operation once per connection): `auto` uses them unless `DATABASE_SESSION_URL` is set (a transaction-mode pooler in front of `DATABASE_URL` may not keep a connection's prepared statements); `true`/`false` force. At most 200 distinct statements per instance are prepared, each after its third use. The changes made in one statement with their audit entry are prepared too (a few statements per instance). When off, statements that libraries name themselves on `DATABASE_URL` (the rate limiters') are sent unnamed too; set `true` behind a pooler only if it keeps prepared statements (PgBouncer ≥ 1.21 with `max_prepared_statements`).",
    ),
  SKIFF_INTROSPECTION: boolean("true").describe(
    "`false` refuses GraphQL introspection (`__schema`, `__type`). On by default in every `NODE_ENV`: the schema is public anyway through `_service`.",
  ),
  SKIFF_SHUTDOWN_TIMEOUT: decimal(z.number().min(0).max(3600).default(10)).describe(
    "Seconds SIGTERM/SIGINT give in-flight requests to be answered. A request waiting for background work (an import waiting for its run) stops waiting a quarter of this before the end (at most 2 s before) and answers what it has (an import: 202, pending); a request still unanswered at the end gets 503 (see [Graceful shutdown](operations.md#graceful-shutdown)).",
  ),
  SKIFF_METRICS_PORT: z
    .string()
    .default("9464")
    .transform((v, ctx) => {
      if (v === "main") return "main" as const;
      const port = /^\s*[0-9]+\s*$/.test(v) ? Number(v) : Number.NaN;
      if (port >= 0 && port <= 65535) return port;
      ctx.addIssue({ code: "custom", message: "a port (0-65535) or `main`" });
      return z.NEVER;
    })
    .describe(
      "Port of `GET /metrics` (Prometheus), a listener of its own on `HOST` that the public Service and routes do not expose; `0`: any free port (logged at start). `main`: served on `PORT` beside the API instead (local use; at the network edge, block it or set `SKIFF_METRICS_TOKEN`).",
    ),
  SKIFF_METRICS_TOKEN: z
    .string()
    .min(1)
    .optional()
    .describe(
      "When set, `GET /metrics` requires `Authorization: Bearer <token>` (401 otherwise). Unset: `/metrics` is open to whoever reaches `SKIFF_METRICS_PORT` (keep that port off public routes).",
    ),
  OTEL_EXPORTER_OTLP_ENDPOINT: webUrl()
    .optional()
    .describe(
      "OTLP/HTTP collector base URL (e.g. `http://collector:4318`): traces are exported to `<endpoint>/v1/traces`. Unset: tracing off. The standard `OTEL_*` variables apply (`OTEL_SERVICE_NAME`, default `skiff`; `OTEL_EXPORTER_OTLP_HEADERS`; …).",
    ),
  SKIFF_WORKER: boolean("true").describe(
    "`false`: this instance runs no background jobs (API only); instances with workers on the same database run them.",
  ),
  SKIFF_IMPORT_WAIT_MS: decimal(z.number().int().min(0).max(600_000).default(60_000)).describe(
    "How long an import or retry request waits for its run (ms); past it the answer is the pending record (REST 202) and the run goes on.",
  ),
  SKIFF_IDEMPOTENCY_TTL_HOURS: decimal(z.number().int().min(1).max(720).default(24)).describe(
    "How long an `Idempotency-Key` of an import request is kept (hours): within it, the same key with the same request answers the same import; past it the key is free again (pruned hourly).",
  ),
  SKIFF_WORKER_CONCURRENCY: decimal(z.number().int().min(1).max(100).default(4)).describe(
    "Background jobs one instance runs at once, and webhook attempts it runs at once besides (requests in flight to receivers; with the outcomes waiting to be written in batches, at most twice as many).",
  ),
  SKIFF_EVENT_LOG_RETENTION_SECONDS: decimal(
    z
      .number()
      .int()
      .min(60)
      .max(30 * 86_400)
      .default(86_400),
  ).describe(
    "How long live events (`siteImportUpdated`, `deploymentUpdated`) stay in the event log, in seconds: a client resumes with its last `cursor` (`after`) within this time; an older cursor answers `CURSOR_EXPIRED` ([Resuming](subscriptions.md#resuming-after-a-dropped-connection)). Pruned every minute, in batches.",
  ),
  SKIFF_WEBHOOK_ENDPOINT_CONCURRENCY: decimal(z.number().int().min(1).max(100).optional()).describe(
    "Webhook attempts to one endpoint one instance runs at once; a due delivery beyond it waits in the queue (durably, holding nothing, not counted as an attempt) until one of the endpoint's attempts ends, so a receiver that hangs holds at most this many of the instance's `SKIFF_WORKER_CONCURRENCY` attempts in flight ([Isolation](webhooks.md#isolation-of-slow-receivers)). Unset: a tenth of `SKIFF_WORKER_CONCURRENCY`, at least 1.",
  ),
  SKIFF_WEBHOOK_LEASE_SECONDS: decimal(z.number().int().min(11).max(3600).default(30)).describe(
    "How long an instance holds a webhook delivery whose attempt it runs (seconds, more than the attempt's 10 s budget): the attempt of an instance that died (`kill -9`, a lost machine) is made again by another once its lease has expired ([Delivery](webhooks.md#delivery)).",
  ),
  SKIFF_WEBHOOK_RECOVER_RATE: decimal(z.number().int().min(1).max(10_000).default(20)).describe(
    "Deliveries per second a webhook recovery re-sends to its endpoint (`POST …/webhooks/{uuid}/recover`): the first attempts of the deliveries it queues are spread at this rate ([Recovering after downtime](webhooks.md#recovering-after-downtime)).",
  ),
  SKIFF_WORKER_LOCAL_QUEUE: decimal(z.number().int().min(0).max(1000).optional()).describe(
    "Ready jobs one instance fetches and locks per query, handed to its workers as they free up (graphile-worker's local queue; a job waits there at most 5 minutes); `0`: one query per job. Unset: `SKIFF_WORKER_CONCURRENCY`.",
  ),
  SKIFF_WORKER_POOL_MAX: decimal(z.number().int().min(2).max(1000).optional()).describe(
    "Largest job-runner connection pool of one instance (graphile-worker: its LISTEN, job fetches and completions). Unset: `SKIFF_WORKER_CONCURRENCY` + 2.",
  ),
  SKIFF_WORKER_SHUTDOWN_TIMEOUT_MS: decimal(z.number().int().min(0).max(600_000).default(10_000)).describe(
    "On shutdown, how long running jobs may finish (ms) before they are aborted and returned to the queue (at most `SKIFF_SHUTDOWN_TIMEOUT`: both run side by side).",
  ),
  SKIFF_DOCS_HOST_URL: webUrl()
    .optional()
    .describe(
      "Docs host this instance reports its docs hostnames to (`POST <url>/api/docs/sync`), with `SKIFF_LICENSE_KEY` (required with it). Unset: the instance is its own docs host (it registers in-process). See [The docs host role](docs-theming.md#the-docs-host-role).",
    ),
  SKIFF_LICENSE_KEY: z
    .string()
    .min(16)
    .optional()
    .describe(
      "License key authenticating this instance's synchronisation at the docs host (`Authorization: Bearer`). Required with `SKIFF_DOCS_HOST_URL`: a start with that but not this is refused.",
    ),
  SKIFF_LICENSE_SYNC_INTERVAL: decimal(z.number().int().min(60).max(86_400).default(60)).describe(
    "Seconds between two docs-hostname synchronisations; the job ticks every minute, so it is honoured in whole minutes.",
  ),
  SKIFF_DOCS_CNAME_TARGET: z
    .string()
    .min(1)
    .default("docs.skiff.dev")
    .describe(
      "Name a docs hostname's CNAME must point to: shown to owners (`docsRegistration.cnameTarget`) and checked by the docs host.",
    ),
  SKIFF_DOCS_HOST_LICENSE_SHA256: z
    .string()
    .default("")
    .refine((v) => v.split(",").every((d) => !d.trim() || /^[0-9a-f]{64}$/i.test(d.trim())), {
      message: "comma-separated 64-hex-digit SHA-256 digests",
    })
    .describe(
      'Docs-host role: comma-separated SHA-256 digests (hex) of the license keys accepted at `/api/docs/sync` (`printf %s "$KEY" | sha256sum`). The instance\'s own `SKIFF_LICENSE_KEY` is always accepted. Keys are never stored, only digests.',
    ),
  SKIFF_DOCS_DNS_SERVERS: z
    .string()
    .default("")
    .superRefine((value, ctx) => {
      for (const server of value
        .split(",")
        .map((s) => s.trim())
        .filter((s) => s && !isDnsServer(s))) {
        ctx.addIssue({
          code: "custom",
          message: `not an IP address (with an optional port: 1.1.1.1:53, [::1]:53): ${JSON.stringify(server)}`,
        });
      }
    })
    .describe(
      "Docs-host role: comma-separated DNS servers (IP addresses, with an optional port: `1.1.1.1`, `1.1.1.1:53`, `[2606:4700::1111]:53`) asked for the CNAME check. Empty: the system's.",
    ),
  SMTP_URL: z
    .url({ protocol: /^smtps?$/, hostname: /./, error: "not an smtp:// or smtps:// URL" })
    .optional()
    .describe(
      "Outgoing mail (nodemailer URL, e.g. `smtps://user:pass@smtp.example.com:465`). Unset: mails go to the local outbox (see [Mail](sign-in.md#mail)).",
    ),
  SMTP_FROM: z.string().default("Skiff <no-reply@skiff.local>").describe("Sender of outgoing mail."),
  GITHUB_CLIENT_ID: z
    .string()
    .optional()
    .describe("With `GITHUB_CLIENT_SECRET`: enables GitHub sign-in (one without the other is refused)."),
  GITHUB_CLIENT_SECRET: z
    .string()
    .optional()
    .describe("With `GITHUB_CLIENT_ID`: enables GitHub sign-in (one without the other is refused)."),
  GOOGLE_CLIENT_ID: z
    .string()
    .optional()
    .describe(
      "With `GOOGLE_CLIENT_SECRET`: enables Google sign-in (OpenID Connect; one without the other is refused).",
    ),
  GOOGLE_CLIENT_SECRET: z
    .string()
    .optional()
    .describe("With `GOOGLE_CLIENT_ID`: enables Google sign-in (OpenID Connect; one without the other is refused)."),
  GOOGLE_ISSUER: webUrl()
    .optional()
    .describe(
      "OpenID Connect issuer of Google sign-in (discovery document under it; only changed for tests). Unset: `https://accounts.google.com`.",
    ),
  GITLAB_CLIENT_ID: z
    .string()
    .optional()
    .describe(
      "With `GITLAB_CLIENT_SECRET`: enables GitLab sign-in (OpenID Connect; one without the other is refused).",
    ),
  GITLAB_CLIENT_SECRET: z
    .string()
    .optional()
    .describe("With `GITLAB_CLIENT_ID`: enables GitLab sign-in (OpenID Connect; one without the other is refused)."),
  GITLAB_ISSUER: webUrl()
    .optional()
    .describe(
      "OpenID Connect issuer of GitLab sign-in (set it for a self-managed GitLab). Unset: `https://gitlab.com`.",
    ),
});

/** Validated configuration; see docs/configuration.md. */
export type Config = z.infer<typeof configSchema>;

/** An invalid configuration; its message names every wrong variable, one per line (start-up prints it alone). */
export class ConfigError extends Error {
  override name = "ConfigError";
}

/** Variables whose empty value means something of its own (documented); for every other one empty is unset. */
const EMPTY_IS_A_VALUE: ReadonlySet<string> = new Set(["SKIFF_LEGACY_NAMESPACE"]);

/** Variables that only work together: `[set, needs, why]`: `set` without `needs` is refused. */
const REQUIRED_WITH: readonly (readonly [set: string, needs: string, why: string])[] = [
  ["GITHUB_CLIENT_ID", "GITHUB_CLIENT_SECRET", "GitHub sign-in needs both"],
  ["GITHUB_CLIENT_SECRET", "GITHUB_CLIENT_ID", "GitHub sign-in needs both"],
  ["GOOGLE_CLIENT_ID", "GOOGLE_CLIENT_SECRET", "Google sign-in needs both"],
  ["GOOGLE_CLIENT_SECRET", "GOOGLE_CLIENT_ID", "Google sign-in needs both"],
  ["GITLAB_CLIENT_ID", "GITLAB_CLIENT_SECRET", "GitLab sign-in needs both"],
  ["GITLAB_CLIENT_SECRET", "GITLAB_CLIENT_ID", "GitLab sign-in needs both"],
  ["SKIFF_DOCS_HOST_URL", "SKIFF_LICENSE_KEY", "the docs host authenticates the synchronisation with it"],
];

/**
 * Parses `env` (default `process.env`) into a {@link Config}. An empty variable is unset (its default), except those
 * of {@link EMPTY_IS_A_VALUE}.
 * @throws ConfigError listing every invalid variable, so start-up fails with a clear message.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const set = Object.fromEntries(
    Object.entries(env).filter(([name, value]) => value !== undefined && (value !== "" || EMPTY_IS_A_VALUE.has(name))),
  );
  const parsed = configSchema.safeParse(set);
  const lines = (parsed.error?.issues ?? []).map((i) => `  ${i.path.join(".")}: ${i.message}`);
  for (const [name, needs, why] of REQUIRED_WITH) {
    if (set[name] !== undefined && set[needs] === undefined) lines.push(`  ${needs}: required with ${name} (${why})`);
  }
  if (!parsed.success || lines.length > 0) throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  return parsed.data;
}

/** Whether `/mcp` is served: `SKIFF_MCP` when set, else everywhere but a public-only deployment (`SKIFF_PUBLIC_API_ONLY`). */
export function mcpEnabled(config: Pick<Config, "SKIFF_MCP" | "SKIFF_PUBLIC_API_ONLY">): boolean {
  return config.SKIFF_MCP ?? !config.SKIFF_PUBLIC_API_ONLY;
}
