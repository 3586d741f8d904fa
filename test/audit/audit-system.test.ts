/**
 * Changes the platform's jobs make with no request are in the audit log with actor `SYSTEM` (docs/audit-log.md,
 * "Changes made by the platform"), written in the change's transaction: an interrupted site import ended by
 * `imports.expire-interrupted`, and a webhook endpoint deactivated after 5 days of failed deliveries (a real HTTPS
 * receiver on loopback answering 500; the 410 case is in test/webhooks/recovery.test.ts). A change that does not
 * happen (the import already ended) leaves no entry. An import's run names what it created.
 */
import { describe, expect, it } from "vitest";
import { systemContext } from "../../src/modules/context.ts";
import { expireInterruptedImports } from "../../src/modules/site-imports/site-import.jobs.ts";
import { startHttpsReceiver } from "../helpers/https-receiver.ts";
import { useTestServer } from "../helpers/server.ts";
import { dockerRequest, importReadyOrg, rest } from "../site-imports/import-helpers.ts";
import { COURSE_COMPLETED, insertWebhook, orgNumber, rest as webhookRest } from "../webhooks/webhook-helpers.ts";

const t = useTestServer({ SKIFF_OUTBOUND_ALLOW: "127.0.0.1" });

/** The entries of `action` in `organizationId`'s log. */
const entriesOf = (organizationId: string, action: string) =>
  t.db.knex("audit_events").where({ organizationId, action }).orderBy("id");

/** A site import of a docker image (with `overrides`) in a new organization, run to success over REST. */
async function imported(overrides: Record<string, unknown> = {}) {
  const org = await importReadyOrg(t.db.knex);
  const done = await rest(
    t.skiff.url,
    "POST",
    "/api/site-import",
    { apiKey: org.owner.apiKey },
    dockerRequest(org.organizationId, overrides),
  );
  expect(done.body.status).toBe("success");
  return { org, done };
}

describe("changes made by jobs", () => {
  it("an interrupted import ended by imports.expire-interrupted leaves one SYSTEM entry naming it", async () => {
    const { org, done } = await imported();
    const id = done.body.importId as string;
    // As a run whose every attempt was used up leaves it: pending after the project step, no job left.
    await t.db
      .knex("site_imports")
      .where({ id })
      .update({
        status: "pending",
        finished_at: null,
        steps: JSON.stringify({
          project_creation: "done",
          database_creation: "skipped",
          application_creation: "pending",
          domain_creation: "skipped",
          deployment: "pending",
        }),
      });
    // Ended by this call, or by the server's own minutely run of the job if it came first: one entry either way.
    await expireInterruptedImports(systemContext(t.skiff.services));
    expect(await t.db.knex("site_imports").where({ id }).first()).toMatchObject({ status: "partial" });
    const entries = await entriesOf(org.organizationId, "system.site_import_interrupted");
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      actorKind: "SYSTEM",
      actorUserId: null,
      credentialKind: null,
      surface: "SYSTEM",
      targetIds: [id],
      outcome: "ok",
      clientAddress: null,
    });
    // Nothing left to end: no second entry.
    await expireInterruptedImports(systemContext(t.skiff.services));
    expect(await entriesOf(org.organizationId, "system.site_import_interrupted")).toHaveLength(1);
  });

  it("an import's run leaves one SYSTEM entry naming the import and everything it created", async () => {
    const { org, done } = await imported({
      database: { type: "postgres", name: "shop", user: "shop", password: "s3cret-pass" },
      domain: `shop-${Date.now()}.example.test`,
    });
    const record = await t.db.knex("site_imports").where({ id: done.body.importId }).first();
    const made = [record.projectId, record.databaseId, record.applicationId, record.domainId, record.deploymentId];
    expect(made.every((id) => typeof id === "string")).toBe(true);
    const entries = await entriesOf(org.organizationId, "system.site_import_finished");
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      actorKind: "SYSTEM",
      surface: "SYSTEM",
      outcome: "ok",
      targetIds: [record.id, ...made],
    });
    // Found by any of them: who made this project?
    const byProject = await rest(
      t.skiff.url,
      "GET",
      `/api/audit-events?organization_id=${org.organizationId}&target_id=${record.projectId}`,
      { apiKey: org.owner.apiKey },
    );
    expect(byProject.status).toBe(200);
    expect(JSON.stringify(byProject.body)).toContain("system.site_import_finished");
  });

  it("a webhook endpoint deactivated after 5 days of failures leaves one SYSTEM entry naming it", async () => {
    const org = await importReadyOrg(t.db.knex);
    const failing = await startHttpsReceiver({ behaviour: { status: 500, body: "down" } });
    try {
      const hook = await insertWebhook(t.db.knex, org.organizationId, `${failing.url}/down`);
      // Failing for 6 days already: the next failed delivery ends the streak.
      await t.db
        .knex("webhook_endpoints")
        .where({ id: hook.id })
        .update({ failing_since: new Date(Date.now() - 6 * 24 * 3600_000) });
      const orgId = await orgNumber(t.db.knex, org.organizationId);
      const published = await webhookRest(t.skiff.url, "POST", `/api/v1/orgs/${orgId}/events`, org.owner.apiKey, {
        event: "course_completed",
        data: COURSE_COMPLETED,
      });
      expect(published.status).toBe(202);
      let endpoint: { isActive: boolean } | undefined;
      for (let i = 0; i < 300; i++) {
        endpoint = await t.db.knex("webhook_endpoints").where({ id: hook.id }).first();
        if (!endpoint?.isActive) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(endpoint).toMatchObject({ isActive: false });
      const entries = await entriesOf(org.organizationId, "system.webhook_endpoint_deactivated_failing");
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({
        actorKind: "SYSTEM",
        actorUserId: null,
        surface: "SYSTEM",
        targetIds: [hook.id],
        outcome: "ok",
      });
    } finally {
      await failing.close();
    }
  }, 60_000);
});
