/**
 * The deliveries' queue statements are named prepared statements, planned once per connection (docs/webhooks.md
 * "Benchmark"): their generic plans must find deliveries through an index on a new database, whose empty
 * `webhook_deliveries` the planner takes for a few pages, or every claim and outcome would scan the whole table
 * as it grows until the next ANALYZE replans them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { outcomeStatement } from "../../src/modules/webhooks/webhook-attempt-batches.ts";
import { claimStatement } from "../../src/modules/webhooks/webhook-dispatcher.ts";
import { subscribedEndpoints } from "../../src/modules/webhooks/webhook-emit.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { genericPlan } from "../helpers/generic-plan.ts";

let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(() => db.drop());

describe("webhook queue statements' generic plans on a new database", () => {
  it("the outcome statement updates its deliveries by primary key", async () => {
    const entry = {
      deliveryId: "dlv_0000000000000000",
      endpointId: "webhook_x",
      event: "course_completed",
      attempt: 1,
      success: true,
      responseStatus: 200,
      responseBody: "",
      errorMessage: null,
      durationMs: 1,
      retryInMs: null,
    };
    const plan = await genericPlan(db.knex, outcomeStatement(db.knex, [entry]).toSQL().toNative().sql);
    expect(plan).toMatch(/Index Scan using webhook_deliveries_pkey on webhook_deliveries/);
    expect(plan).not.toMatch(/Seq Scan on webhook_deliveries/);
  });

  it("the claim takes due deliveries from the due index and leases them by primary key", async () => {
    const { text } = claimStatement(db.knex, {
      held: [],
      busy: [],
      partly: [],
      slots: [],
      free: 50,
      cap: 5,
      leaseSeconds: 30,
      lockedBy: "test",
    });
    const plan = await genericPlan(db.knex, text);
    expect(plan).toMatch(/Index Scan using webhook_deliveries_due_index on webhook_deliveries/);
    expect(plan).toMatch(/Index Scan using webhook_deliveries_pkey on webhook_deliveries d/);
    expect(plan).not.toMatch(/Seq Scan on webhook_deliveries/);
  });

  it("an emission reads the organization's endpoints by its index, whichever endpoints it goes to", async () => {
    for (const endpointId of [undefined, "webhook_x"]) {
      const { sql } = subscribedEndpoints(db.knex, "org_x", "course_completed", endpointId).toSQL().toNative();
      const plan = await genericPlan(db.knex, sql);
      expect(plan).toMatch(/Index (Only )?Scan using webhook_endpoints_\w+ on webhook_endpoints e/);
      expect(plan).not.toMatch(/Seq Scan on webhook_endpoints/);
    }
  });
});
