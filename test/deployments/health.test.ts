/**
 * Health probes (spec "Deploy events"): a loopback HTTPS app server answering, going down (two
 * failed probes) and coming back gives `app.health_changed` events healthy → unhealthy → healthy, the application
 * status follows, and a single failure changes nothing. Probes are real `deployments.probe-health` jobs.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningSkiff } from "../../src/server/start.ts";
import { webhookEvent } from "../../src/shared/events/catalogue.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { type HttpsReceiver, startHttpsReceiver } from "../helpers/https-receiver.ts";
import { drainJobs } from "../helpers/jobs.ts";
import { startTestServer } from "../helpers/server.ts";
import { insertWebhook } from "../webhooks/webhook-helpers.ts";
import { addDomain, seededApplication } from "./deploy-helpers.ts";

let db: TestDatabase;
let skiff: RunningSkiff;
let appServer: HttpsReceiver;
beforeAll(async () => {
  appServer = await startHttpsReceiver();
  db = await createTestDatabase();
  skiff = await startTestServer(db.url, {
    SKIFF_OUTBOUND_ALLOW: "127.0.0.1",
    SKIFF_HEALTH_PORT: String(appServer.port),
    SKIFF_HEALTH_INTERVAL: "60", // one planned probe per minute, due at once: no future job keeps drainJobs waiting
  });
});
afterAll(async () => {
  await skiff?.stop();
  await db?.drop();
  await appServer?.close();
});

async function probe(applicationId: string) {
  await db.knex.raw(
    "select graphile_worker.add_job('deployments.probe-health', json_build_object('applicationId', ?::text, 'force', true))",
    [applicationId],
  );
  // The minute's cron jobs (docs.sync and others) share the serial background queue with the probe: on a loaded
  // machine they may wait their turn longer than drainJobs' default.
  await drainJobs(db.knex, 30_000, { background: true });
}

describe("health probes", () => {
  it("emit app.health_changed when the app server goes down (two failures) and comes back", async () => {
    const app = await seededApplication(db.knex, { application_status: "running", health_path: "/healthz" });
    await addDomain(db.knex, app.organizationId, app.applicationId, "127.0.0.1");
    await insertWebhook(db.knex, app.organizationId, "https://192.0.2.1/hooks", ["app.health_changed"]);
    const state = async () =>
      db.knex("applications").where({ id: app.applicationId }).first("health", "application_status");

    appServer.respond({ status: 200 });
    await probe(app.applicationId);
    expect(await state()).toEqual({ health: "healthy", applicationStatus: "running" });
    expect(appServer.requests.at(-1)!.path).toBe("/healthz");

    appServer.respond({ close: true }); // down: connections dropped without an answer
    await probe(app.applicationId);
    expect(await state()).toEqual({ health: "healthy", applicationStatus: "running" }); // one failure is not enough
    await probe(app.applicationId);
    expect(await state()).toEqual({ health: "unhealthy", applicationStatus: "error" });

    appServer.respond({ status: 204 });
    await probe(app.applicationId);
    expect(await state()).toEqual({ health: "healthy", applicationStatus: "running" });

    const rows = await db
      .knex("webhook_deliveries")
      .where({ organization_id: app.organizationId, event: "app.health_changed" })
      .orderBy("created_at");
    const data = rows.map((r) => JSON.parse(r.body).data);
    expect(data.map((d) => [d.from, d.to])).toEqual([
      ["unknown", "healthy"],
      ["healthy", "unhealthy"],
      ["unhealthy", "healthy"],
    ]);
    for (const d of data) {
      expect(webhookEvent("app.health_changed")!.data.safeParse(d).success).toBe(true);
      expect(d.application).toMatchObject({ application_id: app.applicationId, project_id: app.projectId });
    }
  });
});
