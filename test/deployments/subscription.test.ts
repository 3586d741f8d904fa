/**
 * `deploymentUpdated(applicationId)` over graphql-ws with a real WebSocket client: a manual deployment's status
 * changes (queued, running, done) and its log lines (including "dry run: nothing applied") arrive; a deployment
 * superseded by a newer one is reported cancelled; another organization's owner gets NOT_FOUND; an `after` beyond the
 * newest event of the log answers BAD_USER_INPUT, and from the newest cursor the next deployment arrives. Fan-out: the
 * statements an event costs the server are the same for 1 subscriber as for 12 (owners, members, members granted
 * the application), and a member granted only another project cannot subscribe. A subscription completes when its
 * application is deleted, by `deleteApplication` or with its project (then, resumed or not, it is NOT_FOUND).
 */
import { type Client, createClient } from "graphql-ws";
import { afterAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { cursorOf, seqOfCursor } from "../../src/shared/event-log.ts";
import { drainJobs } from "../helpers/jobs.ts";
import { newestSeq } from "../helpers/resume-subscriber.ts";
import { addMember, createProjects } from "../helpers/seed.ts";
import { gql, type TestServer, useTestServer } from "../helpers/server.ts";
import { seededApplication } from "./deploy-helpers.ts";

const t = useTestServer();
const clients: Client[] = [];
afterAll(async () => {
  await Promise.all(clients.map((c) => c.dispose()));
});

type Update = {
  deploymentId: string;
  status: string;
  logLine: { level: string; text: string } | null;
  cursor: string;
};

/** Subscribes `apiKey` to `applicationId`'s updates (resuming after `after` when given), collecting what arrives. */
function subscribe(apiKey: string, applicationId: string, server: TestServer = t, after?: string) {
  const client = createClient({
    url: `${server.skiff.url.replace("http", "ws")}/graphql`,
    webSocketImpl: WebSocket,
    retryAttempts: 0,
    connectionParams: { authorization: `Bearer ${apiKey}` },
  });
  clients.push(client);
  const updates: Update[] = [];
  const errors: Array<{ extensions?: { code?: string } }> = [];
  const state = { completed: false };
  client.subscribe<{ deploymentUpdated: Update }>(
    {
      query: `subscription($id: ID!, $after: String) { deploymentUpdated(applicationId: $id, after: $after) { deploymentId status logLine { level text } deployment { id } cursor } }`,
      variables: { id: applicationId, after: after ?? null },
    },
    {
      next: (msg) => {
        if (msg.errors) errors.push(...(msg.errors as unknown as typeof errors));
        if (msg.data) updates.push(msg.data.deploymentUpdated);
      },
      error: (e) => errors.push(...(Array.isArray(e) ? e : [e as never])),
      complete: () => {
        state.completed = true;
      },
    },
  );
  return { updates, errors, state };
}

async function until(check: () => boolean, timeoutMs = 10_000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Deploys `app` as its owner and runs the deployment's jobs to the end; @returns the deployment's id. */
async function deployed(app: { applicationId: string; owner: { apiKey: string } }): Promise<string> {
  const res = await gql<{ deployApplication: { id: string } }>(
    t.skiff.url,
    `mutation($id: ID!) { deployApplication(applicationId: $id) { id } }`,
    { id: app.applicationId },
    { apiKey: app.owner.apiKey },
  );
  await drainJobs(t.db.knex);
  return res.data!.deployApplication.id;
}

describe("deploymentUpdated", () => {
  it("streams status changes and log lines of the application's deployments; other organizations get NOT_FOUND", async () => {
    const app = await seededApplication(t.db.knex);
    const sub = subscribe(app.owner.apiKey, app.applicationId);
    await until(() => t.skiff.services.pubsub.listenerCount("deployment.updated") > 0);
    const id = await deployed(app);
    await until(() => sub.updates.some((u) => u.status === "done"));
    expect(sub.updates.every((u) => u.deploymentId === id)).toBe(true);
    expect(sub.updates.filter((u) => !u.logLine).map((u) => u.status)).toEqual(["queued", "running", "done"]);
    expect(sub.updates.flatMap((u) => (u.logLine ? [u.logLine.text] : []))).toContain("dry run: nothing applied");

    const other = await seededApplication(t.db.knex);
    const denied = subscribe(other.owner.apiKey, app.applicationId);
    await until(() => denied.errors.length > 0);
    expect(denied.errors[0]?.extensions?.code).toBe("NOT_FOUND");
  });

  it("answers BAD_USER_INPUT for an after beyond the newest event of the log; from the newest, the next deployment arrives", async () => {
    const app = await seededApplication(t.db.knex);
    await deployed(app); // events of the application at or before the cursor
    const newest = await newestSeq(t.db.knex);
    // Just past the newest event, far past it, and 0 (before the first event: never a cursor of an event).
    const refused = [cursorOf(newest + 1), "ZXZnamRneHI", cursorOf(0)].map((after) =>
      subscribe(app.owner.apiKey, app.applicationId, t, after),
    );
    await until(() => refused.every((r) => r.errors.length > 0));
    for (const r of refused) {
      expect(r.errors.map((e) => e.extensions?.code)).toEqual(["BAD_USER_INPUT"]);
      expect(r.updates).toEqual([]);
    }

    const baseline = t.skiff.services.pubsub.listenerCount("deployment.updated");
    const sub = subscribe(app.owner.apiKey, app.applicationId, t, cursorOf(newest));
    await until(() => t.skiff.services.pubsub.listenerCount("deployment.updated") > baseline);
    const id = await deployed(app);
    await until(() => sub.updates.some((u) => u.status === "done"));
    expect(sub.errors).toEqual([]);
    // Nothing of the earlier deployment (at or before the cursor): every change of the new one, each after it.
    expect(sub.updates.every((u) => u.deploymentId === id)).toBe(true);
    expect(sub.updates.filter((u) => !u.logLine).map((u) => u.status)).toEqual(["queued", "running", "done"]);
    expect(sub.updates.every((u) => seqOfCursor(u.cursor) > newest)).toBe(true);
  });

  it("reads an event's deployment once however many subscribers see it", async () => {
    const app = await seededApplication(t.db.knex);
    const deploymentId = await deployed(app);
    const [otherProject] = await createProjects(t.db.knex, app.organizationId, 1);
    const member = await addMember(t.db.knex, app.organizationId, "member");
    const granted = await addMember(t.db.knex, app.organizationId, "member", { applicationIds: [app.applicationId] });
    const outsider = await addMember(t.db.knex, app.organizationId, "member", { projectIds: [otherProject!] });
    const keys = [app.owner.apiKey, member.apiKey, granted.apiKey];

    const baseline = t.skiff.services.pubsub.listenerCount("deployment.updated");
    const denied = subscribe(outsider.apiKey, app.applicationId);
    await until(() => denied.errors.length > 0);
    expect(denied.errors[0]?.extensions?.code).toBe("NOT_FOUND");

    /** Statements the server issues while 4 log-line events reach `subscribers` (each receives all 4). */
    const statementsFor = async (subscribers: ReturnType<typeof subscribe>[]) => {
      await until(() => t.skiff.services.pubsub.listenerCount("deployment.updated") >= baseline + subscribers.length);
      await new Promise((r) => setTimeout(r, 300)); // their access statements are done
      let statements = 0;
      const onQuery = () => statements++;
      t.skiff.services.knex.on("query", onQuery);
      try {
        for (let i = 0; i < 4; i++) {
          await t.skiff.services.pubsub.publish("deployment.updated", {
            id: deploymentId,
            applicationId: app.applicationId,
            status: "done",
            log: { at: new Date().toISOString(), level: "info", text: `line ${i}` },
          });
        }
        await until(() =>
          subscribers.every((s) => s.updates.filter((u) => u.logLine?.text.startsWith("line")).length >= 4),
        );
      } finally {
        t.skiff.services.knex.removeListener("query", onQuery);
      }
      for (const s of subscribers) {
        expect(s.errors).toEqual([]);
        expect(s.updates.map((u) => u.logLine?.text)).toEqual(["line 0", "line 1", "line 2", "line 3"]);
        s.updates.length = 0;
      }
      return statements;
    };
    const one = [subscribe(app.owner.apiKey, app.applicationId)];
    const oneCost = await statementsFor(one);
    const many = Array.from({ length: 12 }, (_, i) => subscribe(keys[i % keys.length]!, app.applicationId));
    const manyCost = await statementsFor([...one, ...many]);
    console.info(`deploymentUpdated fan-out: ${oneCost} statements for 4 events and 1 subscriber, ${manyCost} for 13`);
    expect(manyCost).toBe(oneCost);
  });
});

describe("deploymentUpdated without a worker", () => {
  const idle = useTestServer({ SKIFF_WORKER: "false" });

  it("reports a queued deployment, and the older queued one it supersedes as cancelled, at commit", async () => {
    const app = await seededApplication(idle.db.knex);
    const sub = subscribe(app.owner.apiKey, app.applicationId, idle);
    await until(() => idle.skiff.services.pubsub.listenerCount("deployment.updated") > 0);
    const queued: string[] = [];
    for (const title of ["first", "second"]) {
      const r = await gql<{ deployApplication: { id: string } }>(
        idle.skiff.url,
        `mutation($id: ID!, $title: String) { deployApplication(applicationId: $id, title: $title) { id } }`,
        { id: app.applicationId, title },
        { apiKey: app.owner.apiKey },
      );
      queued.push(r.data!.deployApplication.id);
    }
    await until(() => sub.updates.some((u) => u.deploymentId === queued[1] && u.status === "queued"));
    expect(sub.updates.map((u) => [queued.indexOf(u.deploymentId), u.status])).toEqual([
      [0, "queued"],
      [0, "cancelled"],
      [1, "queued"],
    ]);
  });

  it("completes when the application is deleted, alone or with its project; a resume afterwards is NOT_FOUND", async () => {
    const DELETE_APP = "mutation($id: ID!) { deleteApplication(id: $id) }";
    const DELETE_PROJECT = "mutation($id: ID!) { deleteProject(id: $id) }";
    for (const [mutation, target] of [
      [DELETE_APP, "applicationId"],
      [DELETE_PROJECT, "projectId"],
    ] as const) {
      const app = await seededApplication(t.db.knex);
      const baseline = t.skiff.services.pubsub.listenerCount("deployment.updated");
      const sub = subscribe(app.owner.apiKey, app.applicationId);
      await until(() => t.skiff.services.pubsub.listenerCount("deployment.updated") > baseline);
      await deployed(app);
      await until(() => sub.updates.some((u) => u.status === "done"));
      const before = sub.updates.find((u) => u.status === "queued")!.cursor;
      const deleted = await gql(t.skiff.url, mutation, { id: app[target] }, { apiKey: app.owner.apiKey });
      expect(deleted.errors).toBeUndefined();
      await until(() => sub.state.completed);
      expect(sub.errors).toEqual([]);
      expect(t.skiff.services.pubsub.listenerCount("deployment.updated")).toBe(baseline);

      // A client that lost its socket before the deletion and resumes finds the application gone.
      const resumed = subscribe(app.owner.apiKey, app.applicationId, t, before);
      await until(() => resumed.state.completed || resumed.errors.length > 0);
      expect(resumed.errors.map((e) => e.extensions?.code)).toEqual(["NOT_FOUND"]);
      expect(resumed.updates).toEqual([]);
    }
  });
});
