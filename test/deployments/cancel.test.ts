/**
 * Cancelling deployments, real PostgreSQL and GraphQL over HTTP, races made deterministic by a lock the test holds
 * in an uncommitted transaction (released once pg_stat_activity shows the server's backends waiting on it):
 * a running deployment cancelled leaves the application's status as its last finished deployment left it and its
 * log ends saying it was cancelled; concurrent cancels of one deployment are refused naming its status as it is
 * then. A deployment that ends while `queued` (superseded by a newer one, or cancelled) takes its job out of the
 * application's queue: 20 deploys at once leave one job, and a cancelled queued deployment none.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningSkiff } from "../../src/server/start.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { drainJobs } from "../helpers/jobs.ts";
import { lockWaiters } from "../helpers/lock-waiters.ts";
import { gql, startTestServer, useTestServer } from "../helpers/server.ts";
import { seededApplication } from "./deploy-helpers.ts";

const DEPLOY = `mutation($id: ID!, $title: String) { deployApplication(applicationId: $id, title: $title) { id status } }`;
const CANCEL = `mutation($id: ID!) { cancelDeployment(id: $id) { id status } }`;
const READ = `query($id: ID!) { application(id: $id) { applicationStatus
  deployments(first: 10) { id status errorMessage logs { level text } } } }`;

interface ReadData {
  application: {
    applicationStatus: string;
    deployments: Array<{ id: string; status: string; errorMessage: string | null; logs: Array<{ text: string }> }>;
  };
}

const t = useTestServer();

describe("cancelling a running deployment (dry-run, worker)", () => {
  it("puts the application back to what its last finished deployment left; the log ends saying cancelled", async () => {
    const seeded = await seededApplication(t.db.knex);
    const as = { apiKey: seeded.owner.apiKey };
    const read = async () => (await gql<ReadData>(t.skiff.url, READ, { id: seeded.applicationId }, as)).data!;
    const first = await gql(t.skiff.url, DEPLOY, { id: seeded.applicationId, title: "first" }, as);
    expect(first.errors).toBeUndefined();
    await drainJobs(t.db.knex);
    expect((await read()).application.applicationStatus).toBe("running");

    // The run renders the application's variables: it stops there, `running`, while the test holds the table.
    const holder = await t.db.knex.transaction();
    let id: string;
    try {
      await holder.raw("lock table environment_variables in access exclusive mode");
      const second = await gql<{ deployApplication: { id: string } }>(
        t.skiff.url,
        DEPLOY,
        { id: seeded.applicationId, title: "second" },
        as,
      );
      id = second.data!.deployApplication.id;
      await lockWaiters(t.db.knex, 1, "%environment_variables%");
      const during = await read();
      expect(during.application.applicationStatus).toBe("deploying");
      expect(during.application.deployments.find((d) => d.id === id)?.status).toBe("running");

      const cancelled = await gql<{ cancelDeployment: { status: string } }>(t.skiff.url, CANCEL, { id }, as);
      expect(cancelled.errors).toBeUndefined();
      expect(cancelled.data!.cancelDeployment.status).toBe("cancelled");
      // No deployment of the application runs any more: it is no longer `deploying`, even while the run goes on.
      expect((await read()).application.applicationStatus).toBe("running");
    } finally {
      await holder.rollback();
    }
    await drainJobs(t.db.knex);

    const after = await read();
    expect(after.application.applicationStatus).toBe("running");
    const d = after.application.deployments.find((x) => x.id === id)!;
    expect(d).toMatchObject({ status: "cancelled", errorMessage: "cancelled by a user" });
    const texts = d.logs.map((l) => l.text);
    expect(texts).not.toContain("deployment finished");
    expect(texts.at(-1)).toMatch(/^deployment cancelled: /);
  });
});

describe("without a worker", () => {
  let db: TestDatabase;
  let api: RunningSkiff;
  beforeAll(async () => {
    db = await createTestDatabase();
    api = await startTestServer(db.url, { SKIFF_WORKER: "false" });
  });
  afterAll(async () => {
    await api?.stop();
    await db?.drop();
  });

  it("refuses the losers of concurrent cancels naming the deployment's status as it is then", async () => {
    const seeded = await seededApplication(db.knex);
    const as = { apiKey: seeded.owner.apiKey };
    const deployed = await gql<{ deployApplication: { id: string; status: string } }>(
      api.url,
      DEPLOY,
      { id: seeded.applicationId },
      as,
    );
    const { id, status } = deployed.data!.deployApplication;
    expect(status).toBe("queued");

    const callers = 6;
    const holder = await db.knex.transaction();
    let answers: Array<Awaited<ReturnType<typeof gql<{ cancelDeployment: { status: string } }>>>>;
    try {
      await holder("deployments").where({ id }).forUpdate().first("id");
      const pending = Array.from({ length: callers }, () =>
        gql<{ cancelDeployment: { status: string } }>(api.url, CANCEL, { id }, as),
      );
      await lockWaiters(db.knex, callers);
      await holder.rollback();
      answers = await Promise.all(pending);
    } finally {
      if (!holder.isCompleted()) await holder.rollback();
    }
    const won = answers.filter((a) => a.data?.cancelDeployment.status === "cancelled");
    const refused = answers.filter((a) => a.errors);
    expect(won).toHaveLength(1);
    expect(refused).toHaveLength(callers - 1);
    for (const answer of refused) {
      expect(answer.errors![0]!.extensions?.code).toBe("CONFLICT");
      expect(answer.errors![0]!.message).toBe(
        `Deployment ${id} is cancelled: only queued or running deployments can be cancelled`,
      );
    }
  });
});

describe("deployments that end while queued (no worker: the queue as the mutations leave it)", () => {
  const idle = useTestServer({ SKIFF_WORKER: "false" });

  /** The `deployments.run` jobs waiting in the application's queue. */
  async function queuedRuns(applicationId: string): Promise<number> {
    const { rows } = await idle.db.knex.raw(
      "select count(*)::int as n from graphile_worker.jobs where task_identifier = 'deployments.run' and queue_name = ?",
      [`deploy:${applicationId}`],
    );
    return rows[0].n;
  }

  it("leave no job behind: 20 deploys at once queue one run, and cancelling it leaves none", async () => {
    const seeded = await seededApplication(idle.db.knex);
    const as = { apiKey: seeded.owner.apiKey };
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        gql<{ deployApplication: { id: string } }>(
          idle.skiff.url,
          DEPLOY,
          { id: seeded.applicationId, title: `d${i}` },
          as,
        ),
      ),
    );
    expect(results.filter((r) => r.errors)).toEqual([]);
    const statuses = await idle.db.knex("deployments").where({ application_id: seeded.applicationId }).pluck("status");
    expect(statuses.filter((s) => s === "queued")).toHaveLength(1);
    expect(statuses.filter((s) => s === "cancelled")).toHaveLength(19);
    expect(await queuedRuns(seeded.applicationId)).toBe(1);

    const [queued] = await idle.db
      .knex("deployments")
      .where({ application_id: seeded.applicationId, status: "queued" })
      .pluck("id");
    const cancelled = await gql(idle.skiff.url, CANCEL, { id: queued }, as);
    expect(cancelled.errors).toBeUndefined();
    expect(await queuedRuns(seeded.applicationId)).toBe(0);
  });
});
