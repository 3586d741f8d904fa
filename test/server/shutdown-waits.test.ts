/**
 * Requests waiting for background work while the instance shuts down, on a real server with real sockets and no
 * job runner (SKIFF_WORKER=false: nothing they wait for can happen here): each is answered before the drain's
 * deadline — an import 202 with its pending record, a webhook test over HTTP and over the WebSocket with its
 * pending delivery —, the WebSocket's operation sends its result and `complete` before the socket is closed with
 * 1012, and nothing fails with `EXECUTION_TIME_LIMIT` for having waited.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { createOrg } from "../helpers/seed.ts";
import { gql, startTestServer } from "../helpers/server.ts";
import { insertWebhook, orgNumber } from "../webhooks/webhook-helpers.ts";

const SHUTDOWN_TIMEOUT_S = 4;
let db: TestDatabase;
beforeAll(async () => {
  db = await createTestDatabase();
});
afterAll(async () => {
  await db?.drop();
});

describe("shutdown with requests waiting for jobs", () => {
  it("answers imports 202 and webhook tests pending over HTTP and WebSocket, then closes the socket 1012", async () => {
    const skiff = await startTestServer(db.url, {
      SKIFF_WORKER: "false",
      SKIFF_SHUTDOWN_TIMEOUT: String(SHUTDOWN_TIMEOUT_S),
      // Shorter than the waits below: a wait must not count as execution time.
      SKIFF_EXECUTION_TIMEOUT_MS: "1000",
    });
    try {
      const { organizationId, owner } = await createOrg(db.knex);
      const auth = { "content-type": "application/json", authorization: `Bearer ${owner.apiKey}` };
      const registry = await gql(
        skiff.url,
        "mutation($i: CreateContainerRegistryInput!) { createContainerRegistry(input: $i) { id } }",
        { i: { organizationId, name: "Docker Hub", url: "docker.io" } },
        { apiKey: owner.apiKey },
      );
      expect(registry.errors).toBeUndefined();
      const hook = await insertWebhook(db.knex, organizationId, "https://127.0.0.1:9/hooks");
      const number = await orgNumber(db.knex, organizationId);

      const ws = new WebSocket(`${skiff.url.replace("http", "ws")}/graphql`, "graphql-transport-ws");
      const messages: Array<{ type: string; id?: string; payload?: unknown }> = [];
      ws.on("message", (m) => messages.push(JSON.parse(String(m))));
      const closed = new Promise<{ code: number; seen: number }>((resolve) =>
        ws.once("close", (code) => resolve({ code, seen: messages.length })),
      );
      await new Promise((resolve) => ws.once("open", resolve));
      ws.send(JSON.stringify({ type: "connection_init", payload: { authorization: `Bearer ${owner.apiKey}` } }));
      while (!messages.some((m) => m.type === "connection_ack")) await new Promise((r) => setTimeout(r, 10));
      ws.send(
        JSON.stringify({
          id: "sub",
          type: "subscribe",
          payload: { query: "subscription { siteImportUpdated { importId status } }" },
        }),
      );
      const testMutation = `mutation { testWebhook(organizationId: "${organizationId}", webhookUuid: "${hook.id}") { deliveryId firstAttempt { attempt } } }`;
      ws.send(JSON.stringify({ id: "test", type: "subscribe", payload: { query: testMutation } }));

      const imported = fetch(`${skiff.url}/api/site-import`, {
        method: "POST",
        headers: auth,
        body: JSON.stringify({
          organizationId,
          name: `wait-${randomBytes(3).toString("hex")}`,
          source: { type: "docker", dockerImage: "nginx:1.27" },
          port: 80,
        }),
      });
      const tested = fetch(`${skiff.url}/api/v1/orgs/${number}/webhooks/${hook.id}/test`, {
        method: "POST",
        headers: { authorization: `Bearer ${owner.apiKey}` },
      });
      // Both requests and the WebSocket's test are waiting (their import and delivery rows are written).
      for (;;) {
        const imports = Number((await db.knex("site_imports").count({ n: "*" }).first())?.n);
        const deliveries = Number((await db.knex("webhook_deliveries").count({ n: "*" }).first())?.n);
        if (imports === 1 && deliveries === 2) break;
        await new Promise((r) => setTimeout(r, 20));
      }
      await new Promise((r) => setTimeout(r, 1200)); // past the execution time limit
      const stopping = Date.now();
      const stopped = skiff.stop();

      const importAnswer = await imported;
      expect(importAnswer.status).toBe(202);
      expect(await importAnswer.json()).toMatchObject({ importId: expect.stringMatching(/^imp_/), status: "pending" });
      const testAnswer = await tested;
      expect(testAnswer.status).toBe(202);
      expect(await testAnswer.json()).toMatchObject({ event: "ping", pending: true });
      // Answered by the answer-by moment (a quarter of the timeout before its end), not cut at the deadline.
      expect(Date.now() - stopping).toBeLessThan(SHUTDOWN_TIMEOUT_S * 1000);

      const { code, seen } = await closed;
      await stopped;
      expect(code).toBe(1012);
      const ofTest = messages.slice(0, seen).filter((m) => m.id === "test");
      expect(ofTest).toEqual([
        {
          id: "test",
          type: "next",
          payload: { data: { testWebhook: { deliveryId: expect.any(String), firstAttempt: null } } },
        },
        { id: "test", type: "complete" },
      ]);
      ws.terminate();
    } finally {
      await skiff.stop();
    }
  }, 60_000);
});
