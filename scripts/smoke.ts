/**
 * One request per surface against a running Skiff (CI's smoke runs of the variants: DATABASE_URL, an ordinary
 * user, a 0700 directory): `node scripts/smoke.ts <base URL> <API key> <owner e-mail> <password> [metrics URL]`, the
 * credentials the first start printed. Checks GraphQL over HTTP, a graphql-ws subscription, the REST rows (site
 * import history, webhooks), sign-in, the agent API with an agent token made from that session (never by a key),
 * the OpenAPI documents, the dashboard, /readyz, and /metrics at the metrics URL (default: the metrics listener's
 * default port on the base URL's host, SKIFF_METRICS_PORT) while the API's port has none. Prints one line per
 * surface; exits 1 on the first failure.
 */
import { createClient } from "graphql-ws";
import WebSocket from "ws";

const [base, apiKey, email, password, metricsArgument] = process.argv.slice(2);
if (!base || !apiKey || !email || !password) {
  console.error("usage: node scripts/smoke.ts <base URL> <API key> <owner e-mail> <password> [metrics URL]");
  process.exit(2);
}
const metricsUrl = metricsArgument ?? `http://${new URL(base).hostname}:9464/metrics`;
const auth = { authorization: `Bearer ${apiKey}`, "content-type": "application/json" };

/** Fails the smoke run with `what` unless `ok`. */
function check(ok: boolean, what: string, detail: unknown): void {
  if (!ok) {
    console.error(`smoke: ${what} failed: ${typeof detail === "string" ? detail : JSON.stringify(detail)}`);
    process.exit(1);
  }
  console.log(`smoke: ${what} ok`);
}

async function call(path: string, init: RequestInit = {}) {
  const res = await fetch(`${base}${path}`, { ...init, headers: { ...auth, ...init.headers } });
  const text = await res.text();
  return { status: res.status, text, json: () => JSON.parse(text) };
}

async function graphql(query: string, variables: Record<string, unknown> = {}) {
  const res = await call("/graphql", { method: "POST", body: JSON.stringify({ query, variables }) });
  return { status: res.status, body: res.json() };
}

const viewer = await graphql("{ viewer { activeOrganization { id databaseId name } } }");
const org = viewer.body.data?.viewer?.activeOrganization;
check(viewer.status === 200 && Boolean(org?.id), "GraphQL (POST /graphql)", viewer.body);

const subscription = await new Promise<unknown>((resolve) => {
  const client = createClient({
    url: `${base.replace(/^http/, "ws")}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: { authorization: `Bearer ${apiKey}` },
    retryAttempts: 0,
  });
  const timer = setTimeout(() => resolve("no event within 10 s"), 10_000);
  const stop = client.subscribe(
    { query: "subscription { heartbeat }" },
    {
      next: (msg) => {
        clearTimeout(timer);
        stop();
        Promise.resolve(client.dispose()).catch(() => {});
        resolve(msg.data?.heartbeat === true ? true : msg);
      },
      error: (err) => resolve(err),
      complete: () => {},
    },
  );
});
check(subscription === true, "subscription (graphql-ws heartbeat)", subscription);

const imports = await call("/api/site-import");
check(imports.status === 200, "REST site import history (GET /api/site-import)", imports.text);

const webhooks = await call(`/api/v1/orgs/${org.databaseId}/webhooks`);
check(webhooks.status === 200 && Array.isArray(webhooks.json()), "REST webhooks (GET …/webhooks)", webhooks.text);

// As the dashboard signs in: from the server's own origin (fetch marks its requests as a browser's, which need one).
const signIn = await fetch(`${base}/api/auth/sign-in/email`, {
  method: "POST",
  headers: { "content-type": "application/json", origin: new URL(base).origin },
  body: JSON.stringify({ email, password }),
});
const cookie = signIn.headers
  .getSetCookie()
  .map((c) => c.split(";")[0])
  .join("; ");
check(signIn.status === 200 && cookie !== "", "sign-in (POST /api/auth/sign-in/email)", signIn.status);
const token = await fetch(`${base}/graphql`, {
  method: "POST",
  headers: { "content-type": "application/json", cookie },
  body: JSON.stringify({ query: "mutation { createAgentToken(input: {}) { token } }" }),
}).then(async (res) => ({
  status: res.status,
  body: (await res.json()) as { data?: { createAgentToken?: { token?: string } } },
}));
const agentToken = token.body.data?.createAgentToken?.token as string | undefined;
check(Boolean(agentToken), "agent token (createAgentToken)", token.body);
const agent = await call("/api/agent/projects", { headers: { authorization: `Bearer ${agentToken}` } });
check(agent.status === 200 && Array.isArray(agent.json()), "agent API (GET /api/agent/projects)", agent.text);

for (const path of ["/api/openapi.json", "/api/agent/openapi.json"]) {
  const doc = await call(path);
  check(doc.status === 200 && String(doc.json().openapi).startsWith("3.1"), `OpenAPI (${path})`, doc.status);
}

const page = await fetch(`${base}/import-sites`);
check(page.status === 200 && (await page.text()).includes('<div id="root">'), "dashboard (/import-sites)", page.status);

const ready = await fetch(`${base}/readyz`);
check(ready.status === 200, "readiness (/readyz)", ready.status);
const metrics = await (await fetch(metricsUrl)).text();
check(/^skiff_http_request_duration_seconds_count/m.test(metrics), `metrics (${metricsUrl})`, metrics.slice(0, 200));
const publicMetrics = await fetch(`${base}/metrics`);
check(publicMetrics.status === 404, "no /metrics on the API's port", publicMetrics.status);
