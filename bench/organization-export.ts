/**
 * The organization bundle's case of `npm run bench:import` (docs/organization-transfer.md): an organization of
 * BENCH_EXPORT_APPS (default 500) applications — in 10 projects, each application with a domain and 3 variables, one
 * database per project, a webhook endpoint — exported through `GET /api/organizations/{id}/export` with an age
 * recipient, then planned for import into itself (`POST /api/organizations/{id}/import-plan` with the identity: every
 * item EXISTS), then imported (`POST /api/organizations/{id}/import`) into a fresh organization of the same server —
 * without its domains and webhook endpoint, which are unique on an instance and checked outbound — against Skiff
 * started in its own process on a scratch database (bench/harness.ts). Prints seconds of each, the bundle's size,
 * and the server's peak resident memory (VmHWM, Linux) before and after. The scratch database is dropped at the end.
 */
import { readFileSync } from "node:fs";
import { generateIdentity, identityToRecipient } from "age-encryption";
import { newId } from "../src/db/ids.ts";
import { createKnex, migrateLatest } from "../src/db/knex.ts";
import { createSecretBox } from "../src/db/secrets.ts";
import { createOrg, TEST_SECRET } from "../test/helpers/seed.ts";
import { scratchDatabase, startServerProcess } from "./harness.ts";

const apps = Number(process.env.BENCH_EXPORT_APPS ?? 500);
const PROJECTS = 10;

/** The peak resident set of process `pid` in MB (VmHWM of /proc), or NaN off Linux. */
function peakRssMb(pid: number | undefined): number {
  try {
    const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return kb ? Number(kb) / 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

/** Seeds the organization in a few bulk statements. @returns its id and the owner's API key. */
async function seed(knex: ReturnType<typeof createKnex>): Promise<{ organizationId: string; apiKey: string }> {
  const box = createSecretBox(TEST_SECRET);
  const { organizationId, owner } = await createOrg(knex);
  for (let p = 0; p < PROJECTS; p++) {
    const projectId = newId("project");
    const environmentId = newId("environment");
    await knex("projects").insert({ id: projectId, organization_id: organizationId, name: `project-${p}` });
    await knex("environments").insert({ id: environmentId, project_id: projectId, name: "production" });
    await knex("databases").insert({
      id: newId("database"),
      organization_id: organizationId,
      project_id: projectId,
      environment_id: environmentId,
      type: "postgres",
      name: "app",
      username: "app",
      password_encrypted: box.encrypt(`bench-password-${p}`),
      service_host: `bench-${organizationId}-${p}.svc.cluster.local`,
    });
    const rows = Array.from({ length: Math.ceil(apps / PROJECTS) }, (_, i) => ({
      id: newId("application"),
      organization_id: organizationId,
      project_id: projectId,
      environment_id: environmentId,
      name: `app-${i}`,
      app_name: `app-${p}-${i}-${organizationId.slice(-8)}`,
      source_type: "docker",
      source: JSON.stringify({ dockerImage: "nginx:1.27" }),
      build_type: "dockerfile",
    }));
    await knex("applications").insert(rows);
    await knex("domains").insert(
      rows.map((r) => ({
        id: newId("domain"),
        organization_id: organizationId,
        application_id: r.id,
        host: `${r.app_name}.bench.test`,
      })),
    );
    await knex("environment_variables").insert(
      rows.flatMap((r) =>
        ["APP_ENV", "API_KEY", "SECRET_KEY"].map((key) => ({
          id: newId("envVar"),
          application_id: r.id,
          key,
          value_encrypted: box.encrypt(`${key}-${r.id}`),
        })),
      ),
    );
  }
  await knex("webhook_endpoints").insert({
    id: `webhook_${organizationId}`,
    organization_id: organizationId,
    url: "https://hooks.bench.test/skiff",
    events: ["deployment.succeeded"],
    secret_encrypted: box.encrypt("whsec_bench"),
  });
  return { organizationId, apiKey: owner.apiKey };
}

const db = await scratchDatabase();
const knex = createKnex(db.url, { max: 2 });
await migrateLatest(knex);
// The imported applications need a container registry (an application's prerequisite).
const server = await startServerProcess(db.url, { SKIFF_DEFAULT_REGISTRY_URL: "registry.bench.test" }, TEST_SECRET);
try {
  const { organizationId, apiKey } = await seed(knex);
  const identity = await generateIdentity();
  const recipient = await identityToRecipient(identity);
  const headers = { authorization: `Bearer ${apiKey}` };
  const before = peakRssMb(server.process.pid);

  let started = performance.now();
  const res = await fetch(`${server.url}/api/organizations/${organizationId}/export?recipient=${recipient}`, {
    headers,
  });
  const text = await res.text();
  const exportSeconds = (performance.now() - started) / 1000;
  if (res.status !== 200) throw new Error(`export answered ${res.status}: ${text.slice(0, 200)}`);
  const afterExport = peakRssMb(server.process.pid);

  started = performance.now();
  const planRes = await fetch(`${server.url}/api/organizations/${organizationId}/import-plan`, {
    method: "POST",
    headers: { ...headers, "content-type": "application/json" },
    body: `{"bundle":${text},"identity":${JSON.stringify(identity)}}`,
  });
  const plan = (await planRes.json()) as { exists?: number; creates?: number; conflicts?: number; error?: string };
  const planSeconds = (performance.now() - started) / 1000;
  if (planRes.status !== 200) throw new Error(`import plan answered ${planRes.status}: ${plan.error}`);

  const afterPlan = peakRssMb(server.process.pid);

  const bundle = JSON.parse(text) as {
    projects: Array<{ environments: Array<{ applications: Array<{ domains: unknown[] }> }> }>;
    webhookEndpoints: unknown[];
  };
  for (const p of bundle.projects) for (const e of p.environments) for (const a of e.applications) a.domains = [];
  bundle.webhookEndpoints = [];
  const target = await createOrg(knex);
  started = performance.now();
  const importRes = await fetch(`${server.url}/api/organizations/${target.organizationId}/import`, {
    method: "POST",
    headers: { authorization: `Bearer ${target.owner.apiKey}`, "content-type": "application/json" },
    body: JSON.stringify({ bundle, identity }),
  });
  const imported = (await importRes.json()) as { created?: unknown[]; error?: string };
  const importSeconds = (performance.now() - started) / 1000;
  if (importRes.status !== 200) throw new Error(`import answered ${importRes.status}: ${imported.error}`);

  console.log(
    `organization export (${apps} applications, ${db.label}): ${exportSeconds.toFixed(2)} s, ` +
      `${(Buffer.byteLength(text) / 1024).toFixed(0)} KiB   import plan: ${planSeconds.toFixed(2)} s ` +
      `(${plan.exists} exist, ${plan.creates} create, ${plan.conflicts} conflict)   ` +
      `import into a fresh organization: ${importSeconds.toFixed(2)} s (${imported.created?.length} created)   ` +
      `server peak RSS ${before.toFixed(0)} MB before, ${afterExport.toFixed(0)} MB after the export, ` +
      `${afterPlan.toFixed(0)} MB after the plan, ${peakRssMb(server.process.pid).toFixed(0)} MB after the import`,
  );
} finally {
  await server.stop();
  await knex.destroy();
  await db.drop();
}
