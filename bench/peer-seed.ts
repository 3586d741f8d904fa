/**
 * The data of `npm run bench:peer`, inserted directly into a migrated scratch database: one
 * organization on the `unlimited` plan (which has the `webhooks` feature the webhook fields' gate asks for) with
 * an owner and an API key; 50 projects × 3 environments × 5 applications × 3 deployments + 1 domain each
 * (test/helpers/seed.ts); 50 site import records in the states an import ends in (success, partial, failed)
 * with their step progress and the ids of what they created (projects and applications of the tree);
 * 5 webhook endpoints, each with 25 deliveries of 2 attempts (a failure, then a success): 50 log entries each.
 * Every seeded time has whole milliseconds, so answers compare exactly whatever the server's time format.
 */
import type { Knex } from "knex";
import { newId } from "../src/db/ids.ts";
import { createSecretBox } from "../src/db/secrets.ts";
import { createAgentTokenFor, createOrg, createProjects, setPassword, TEST_SECRET } from "../test/helpers/seed.ts";

/** The seeded owner's password (a session caller signs in with it). */
export const OWNER_PASSWORD = "bench-owner-password";

/** Counts of the seeded data. */
export const SEED = {
  projects: 50,
  environments: 3,
  applicationsPerEnvironment: 5,
  deploymentsPerApplication: 3,
  domainsPerApplication: 1,
  siteImports: 50,
  webhookEndpoints: 5,
  deliveriesPerEndpoint: 25,
  attemptsPerDelivery: 2,
} as const;

/** What the shapes' variables point at (ids of seeded rows) and how the callers authenticate. */
export interface PeerSeed {
  organizationId: string;
  /** The owner's API key (`x-api-key`). */
  apiKey: string;
  /** The owner's agent token (for `GET /api/agent/projects`). */
  agentToken: string;
  /** The owner's e-mail and password ({@link OWNER_PASSWORD}), to sign in with (`BENCH_CALLER=session`). */
  ownerEmail: string;
  /** The first project (oldest). */
  projectId: string;
  /** The first application of the first project's first environment. */
  applicationId: string;
  /** Webhook endpoint ids (`webhook_<uuid>`), oldest first. */
  webhookUuids: string[];
}

/** A time `seconds` after 2026-01-01T00:00:00.000Z plus `ms` milliseconds. */
const at = (seconds: number, ms = 0) => new Date(Date.UTC(2026, 0, 1, 0, 0, seconds, ms));

/** Inserts `rows` into `table` in batches of 1,000. */
async function insert(knex: Knex, table: string, rows: Record<string, unknown>[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 1000) await knex(table).insert(rows.slice(i, i + 1000));
}

/**
 * How far each seeded import got, cycling: the step it failed at (null: none) and its status. All at rest: a
 * `pending` record without a queued run would be ended as interrupted by `imports.expire-interrupted` within a
 * minute of the servers' start, changing shape 6's answers after they were checked equal.
 */
const IMPORT_OUTCOMES = [
  { status: "success", errorStep: null, done: 5 },
  { status: "success", errorStep: null, done: 5 },
  { status: "partial", errorStep: "domain_creation", done: 3 },
  { status: "failed", errorStep: "project_creation", done: 0 },
  { status: "failed", errorStep: "application_creation", done: 2 },
] as const;
const STEPS = ["project_creation", "database_creation", "application_creation", "domain_creation", "deployment"];

/**
 * The progress of step `step` (number `n` in execution order) of an import with `outcome`: the first `done` steps
 * committed (the database step skipped: no `database` in the request), the failed step failed, the rest pending.
 */
function stepStatus(step: string, n: number, outcome: (typeof IMPORT_OUTCOMES)[number]): string {
  if (n < outcome.done) return step === "database_creation" ? "skipped" : "done";
  return step === outcome.errorStep ? "failed" : "pending";
}

/** Site import records pointing at the tree's projects and applications (each application with its project). */
async function seedSiteImports(
  knex: Knex,
  organizationId: string,
  userId: string,
  applications: Array<{ id: string; projectId: string }>,
): Promise<void> {
  const box = createSecretBox(TEST_SECRET);
  const rows: Record<string, unknown>[] = [];
  for (let i = 0; i < SEED.siteImports; i++) {
    const outcome = IMPORT_OUTCOMES[i % IMPORT_OUTCOMES.length]!;
    const app = applications[(i * 7) % applications.length]!;
    const name = `site-${i}`;
    const steps = Object.fromEntries(STEPS.map((step, n) => [step, stepStatus(step, n, outcome)]));
    const input = { organizationId, name, source: { type: "docker", dockerImage: "nginx:1.27" } };
    rows.push({
      id: newId("siteImport"),
      organization_id: organizationId,
      created_by_user_id: userId,
      name,
      status: outcome.status,
      input_encrypted: box.encrypt(JSON.stringify(input)),
      project_id: outcome.done >= 1 ? app.projectId : null,
      application_id: outcome.done >= 3 ? app.id : null,
      error_step: outcome.errorStep,
      error_message: outcome.errorStep ? `seeded failure at ${outcome.errorStep}` : null,
      attempts: 1 + (i % 3),
      steps: JSON.stringify(steps),
      app_name: `site-${i}-app`,
      created_at: at(i, 123),
      updated_at: at(i + 60, 456),
      finished_at: at(i + 60, 456),
    });
  }
  await insert(knex, "site_imports", rows);
}

/** Webhook endpoints with their deliveries and attempt log. @returns the endpoint ids, oldest first. */
async function seedWebhooks(knex: Knex, organizationId: string, userId: string): Promise<string[]> {
  const box = createSecretBox(TEST_SECRET);
  const endpoints: Record<string, unknown>[] = [];
  const deliveries: Record<string, unknown>[] = [];
  const attempts: Record<string, unknown>[] = [];
  // Ids ascending with creation time, as Skiff lists endpoints (created_at, id): PostGraphile orders by id alone.
  const ids = Array.from({ length: SEED.webhookEndpoints }, () => `webhook_${crypto.randomUUID()}`).sort();
  for (const [e, endpointId] of ids.entries()) {
    endpoints.push({
      id: endpointId,
      organization_id: organizationId,
      url: `https://hooks-${e}.example.test/skiff`,
      events: ["course.completed", "user.signed_up"],
      secret_encrypted: box.encrypt(`whsec_${e}`),
      is_active: e % 4 !== 3,
      description: e % 2 ? `endpoint ${e}` : null,
      created_by_user_id: userId,
      created_at: at(e, 7),
      updated_at: at(e + 30, 9),
    });
    for (let d = 0; d < SEED.deliveriesPerEndpoint; d++) {
      const deliveryId = `dlv_${(e * 1000 + d).toString(16).padStart(16, "0")}`;
      const event = d % 2 ? "course.completed" : "user.signed_up";
      deliveries.push({
        id: deliveryId,
        endpoint_id: endpointId,
        organization_id: organizationId,
        event,
        body: JSON.stringify({ event, data: { n: d } }),
        status: "delivered",
        attempts: SEED.attemptsPerDelivery,
        created_at: at(100 + d),
        updated_at: at(100 + d, 500),
      });
      for (let a = 1; a <= SEED.attemptsPerDelivery; a++) {
        const success = a === SEED.attemptsPerDelivery;
        attempts.push({
          delivery_id: deliveryId,
          endpoint_id: endpointId,
          event,
          attempt: a,
          success,
          response_status: success ? 200 : 503,
          response_body: success ? "ok" : "unavailable",
          error_message: success ? null : "HTTP 503",
          duration_ms: 10 + a + d,
          created_at: at(100 + d, a * 100),
        });
      }
    }
  }
  await insert(knex, "webhook_endpoints", endpoints);
  await insert(knex, "webhook_deliveries", deliveries);
  await insert(knex, "webhook_delivery_attempts", attempts);
  return endpoints.map((row) => row.id as string);
}

/** Seeds everything listed in the file's docstring into the migrated database of `knex`. */
export async function seedPeerBench(knex: Knex): Promise<PeerSeed> {
  const org = await createOrg(knex);
  const projectIds = await createProjects(knex, org.organizationId, SEED.projects, SEED);
  const applications = (await knex("applications")
    .select("id", "project_id as projectId")
    .whereIn("project_id", projectIds)
    .orderBy("id")) as Array<{ id: string; projectId: string }>;
  await setPassword(knex, org.owner.userId, OWNER_PASSWORD);
  await seedSiteImports(knex, org.organizationId, org.owner.userId, applications);
  const webhookUuids = await seedWebhooks(knex, org.organizationId, org.owner.userId);
  const firstApplication = (await knex("applications as a")
    .join("environments as e", "e.id", "a.environment_id")
    .where("a.project_id", projectIds[0]!)
    .orderBy("e.id")
    .orderBy("a.id")
    .first("a.id")) as { id: string };
  return {
    organizationId: org.organizationId,
    apiKey: org.owner.apiKey,
    agentToken: await createAgentTokenFor(knex, org.organizationId, org.owner),
    ownerEmail: org.owner.email,
    projectId: projectIds[0]!,
    applicationId: firstApplication.id,
    webhookUuids,
  };
}
