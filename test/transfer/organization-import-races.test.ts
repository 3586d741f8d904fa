/**
 * The organization import (docs/organization-transfer.md "Import") racing other writes to its organization, made
 * deterministic by locks the test holds: the test blocks one import inside its work (a table or row lock taken in a
 * transaction of its own), waits in `pg_stat_activity` until the racing request has reached the point it is meant
 * to race at, then lets go. Two imports of one bundle into one organization create each item once (two
 * applications, one database, the variables once); a project deleted while an import of it runs answers 409 and
 * leaves nothing half-written, whether it is deleted between the plan and the first item or while an item runs.
 */
import type { Knex } from "knex";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OrganizationBundle } from "../../src/modules/transfer/bundle.schema.ts";
import type { RunningSkiff } from "../../src/server/start.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { createOrg } from "../helpers/seed.ts";
import { gql, startTestServer } from "../helpers/server.ts";

let db: TestDatabase;
let server: RunningSkiff;

beforeAll(async () => {
  db = await createTestDatabase();
  server = await startTestServer(db.url, { SKIFF_DEFAULT_REGISTRY_URL: "registry.example.test" });
}, 60_000);
afterAll(async () => {
  await server?.stop();
  await db?.drop();
});

/** What `POST …/import` answers. */
interface ImportAnswer {
  status: number;
  body: { created?: Array<{ kind: string; name: string }>; code?: string; error?: string };
}

/** `POST /api/organizations/{id}/import` of `bundle`, without a key. */
async function importInto(organizationId: string, apiKey: string, bundle: OrganizationBundle): Promise<ImportAnswer> {
  const res = await fetch(`${server.url}/api/organizations/${organizationId}/import`, {
    method: "POST",
    headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
    body: JSON.stringify({ bundle }),
  });
  return { status: res.status, body: (await res.json()) as ImportAnswer["body"] };
}

/** A GraphQL call as `apiKey` that must succeed. */
async function call<T>(apiKey: string, query: string, variables: Record<string, unknown>): Promise<T> {
  const res = await gql<T>(server.url, query, variables, { apiKey });
  expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
  return res.data!;
}

/**
 * The bundle of an organization made here: project `shop` with applications `web` and `worker` (Docker), a
 * postgres database `maindb` wired to both, and two variables on `web`.
 */
async function shopBundle(): Promise<OrganizationBundle> {
  const source = await createOrg(db.knex);
  const key = source.owner.apiKey;
  const { createProject } = await call<{ createProject: { environments: Array<{ id: string }> } }>(
    key,
    `mutation($o: ID!) { createProject(input: { organizationId: $o, name: "shop" }) { environments { id } } }`,
    { o: source.organizationId },
  );
  const environmentId = createProject.environments[0]!.id;
  const app = async (name: string) =>
    (
      await call<{ createApplication: { id: string } }>(
        key,
        `mutation($e: ID!, $n: String!) { createApplication(input: { environmentId: $e, name: $n,
          source: { type: docker, dockerImage: "nginx:1.27" } }) { id } }`,
        { e: environmentId, n: name },
      )
    ).createApplication.id;
  const web = await app("web");
  const worker = await app("worker");
  await call(
    key,
    `mutation($a: ID!) { setEnvironmentVariables(applicationId: $a, variables: [{ key: "API_KEY", value: "k" },
      { key: "LOG_LEVEL", value: "info" }]) { setKeys } }`,
    { a: web },
  );
  await call(
    key,
    `mutation($e: ID!, $a: [ID!]) { createDatabase(input: { environmentId: $e, type: postgres, name: "maindb",
      user: "app", applicationIds: $a }) { database { id } } }`,
    { e: environmentId, a: [web, worker] },
  );
  const res = await fetch(`${server.url}/api/organizations/${source.organizationId}/export`, {
    headers: { authorization: `Bearer ${key}` },
  });
  expect(res.status).toBe(200);
  return (await res.json()) as OrganizationBundle;
}

/** What organization `organizationId` holds: its projects', applications', databases' names and variables' count. */
async function contents(organizationId: string) {
  const projects = await db.knex("projects").where({ organization_id: organizationId }).orderBy("name").pluck("name");
  const applications = await db
    .knex("applications")
    .where({ organization_id: organizationId })
    .orderBy("name")
    .pluck("name");
  const databases = await db.knex("databases").where({ organization_id: organizationId }).orderBy("name").pluck("name");
  const [{ count }] = await db
    .knex("environment_variables as v")
    .join("applications as a", "a.id", "v.application_id")
    .where("a.organization_id", organizationId)
    .count({ count: "*" });
  return { projects, applications, databases, variables: Number(count) };
}

/** A backend of this test's database waiting for a lock: its pid, who holds what it waits for, and what it waits for. */
interface Waiter {
  pid: number;
  by: number[];
  locktype: string;
  relation: string | null;
}

/**
 * Polls (every 20 ms, up to 15 s) the backends of this test's database waiting for a lock, other than `blocker`'s,
 * until `done(waiters, blocker's pid)` holds. @throws when it never does.
 */
async function waitForWaiters(blocker: Knex.Transaction, done: (w: Waiter[], me: number) => boolean, what: string) {
  const me = Number((await blocker.raw("select pg_backend_pid() as pid")).rows[0].pid);
  const deadline = Date.now() + 15_000;
  for (;;) {
    const { rows } = await blocker.raw(
      `select a.pid, pg_blocking_pids(a.pid) as by, l.locktype, l.relation::regclass::text as relation
         from pg_stat_activity a join pg_locks l on l.pid = a.pid and not l.granted
        where a.datname = current_database() and a.pid <> pg_backend_pid()`,
    );
    if (done(rows as Waiter[], me)) return;
    if (Date.now() > deadline) throw new Error(`Never saw ${what}; waiting: ${JSON.stringify(rows)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The statement by which the test holds an environment's row: applications created in it wait. */
const LOCK_ENVIRONMENT = "select 1 from environments where id = ? for update";

/** The id of the environment `production` of project `shop` of `organizationId`. */
async function productionOf(organizationId: string): Promise<string> {
  const row = await db
    .knex("environments as e")
    .join("projects as p", "p.id", "e.project_id")
    .where({ "p.organization_id": organizationId, "p.name": "shop", "e.name": "production" })
    .first("e.id");
  return row.id;
}

/** Deletes project `name` of `organizationId` with `deleteProject`. */
async function deleteProjectNamed(organizationId: string, apiKey: string, name: string) {
  const id = await db.knex("projects").where({ organization_id: organizationId, name }).first("id");
  return gql<{ deleteProject: string }>(
    server.url,
    "mutation($id: ID!) { deleteProject(id: $id) }",
    { id: id.id },
    {
      apiKey,
    },
  );
}

/** `bundle` with its project alone (no applications, databases, members, webhook endpoints or docs theme). */
function onlyProject(bundle: OrganizationBundle): OrganizationBundle {
  const copy = structuredClone(bundle);
  for (const e of copy.projects[0]!.environments) {
    e.applications = [];
    e.databases = [];
  }
  return { ...copy, members: [], webhookEndpoints: [], docsTheme: null };
}

/** `bundle` without application `worker` and the database (the project there, one application missing). */
function withoutWorker(bundle: OrganizationBundle): OrganizationBundle {
  const copy = structuredClone(bundle);
  const environment = copy.projects[0]!.environments[0]!;
  environment.applications = environment.applications.filter((a) => a.name !== "worker");
  environment.databases = [];
  return copy;
}

describe("organization import: concurrent writes to its organization", () => {
  it("creates each item once when a second import of the bundle runs while the first is inside its work", async () => {
    const bundle = { ...(await shopBundle()), members: [] };
    const target = await createOrg(db.knex);
    const { apiKey } = target.owner;
    // The project is there: the first item the runs below create is an application.
    expect((await importInto(target.organizationId, apiKey, onlyProject(bundle))).status).toBe(200);
    const blocker = await db.knex.transaction();
    let first: Promise<ImportAnswer> | undefined;
    let second: Promise<ImportAnswer> | undefined;
    try {
      await blocker.raw(LOCK_ENVIRONMENT, [await productionOf(target.organizationId)]);
      first = importInto(target.organizationId, apiKey, bundle);
      await waitForWaiters(blocker, (w, me) => w.some((x) => x.by.includes(me)), "the first import at web");
      second = importInto(target.organizationId, apiKey, bundle);
      // The second waits where the first does, or for the organization's import lock the first holds.
      await waitForWaiters(
        blocker,
        (w, me) => w.filter((x) => x.by.includes(me) || x.locktype === "advisory").length === 2,
        "the second import behind the first",
      );
    } finally {
      await blocker.commit();
    }
    const answers = await Promise.all([first!, second!]);
    expect(await contents(target.organizationId)).toEqual({
      projects: ["shop"],
      applications: ["web", "worker"],
      databases: ["maindb"],
      // web: API_KEY, LOG_LEVEL and the database's; worker: the database's (as in the source organization).
      variables: (await contents(bundle.organization.id)).variables,
    });
    for (const answer of answers) expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const created = answers.flatMap((a) => a.body.created!.map((i) => `${i.kind} ${i.name}`));
    expect(created.filter((c, i) => created.indexOf(c) !== i)).toEqual([]);
    const plan = await fetch(`${server.url}/api/organizations/${target.organizationId}/import-plan`, {
      method: "POST",
      headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ bundle }),
    });
    expect(await plan.json()).toMatchObject({ creates: 0, conflicts: 0 });
  });

  it("answers 409 and writes nothing when the project is deleted between the plan and the first item", async () => {
    const bundle = await shopBundle();
    const target = await createOrg(db.knex);
    const { apiKey } = target.owner;
    expect((await importInto(target.organizationId, apiKey, withoutWorker(bundle))).status).toBe(200);
    const blocker = await db.knex.transaction();
    let importing: Promise<ImportAnswer> | undefined;
    try {
      // The plan reads the pending invitations last: it waits there, after the project was found.
      await blocker.raw("lock table invitations in access exclusive mode");
      importing = importInto(target.organizationId, apiKey, bundle);
      await waitForWaiters(blocker, (w) => w.some((x) => x.relation === "invitations"), "the plan at invitations");
      const deleted = await deleteProjectNamed(target.organizationId, apiKey, "shop");
      expect(deleted.errors).toBeUndefined();
    } finally {
      await blocker.commit();
    }
    const answer = await importing!;
    expect(answer.status, JSON.stringify(answer.body)).toBe(409);
    expect(answer.body.code).toBe("CONFLICT");
    expect(answer.body.error).toMatch(/project shop was deleted/);
    expect(await contents(target.organizationId)).toEqual({
      projects: [],
      applications: [],
      databases: [],
      variables: 0,
    });
  });

  it("answers 409 and leaves nothing half-written when the project is deleted while an item is being created", async () => {
    const bundle = await shopBundle();
    const target = await createOrg(db.knex);
    const { apiKey } = target.owner;
    expect((await importInto(target.organizationId, apiKey, withoutWorker(bundle))).status).toBe(200);
    const blocker = await db.knex.transaction();
    let importing: Promise<ImportAnswer> | undefined;
    let deleting: ReturnType<typeof deleteProjectNamed> | undefined;
    let deleteAnswered = false;
    try {
      await blocker.raw(LOCK_ENVIRONMENT, [await productionOf(target.organizationId)]);
      importing = importInto(target.organizationId, apiKey, bundle);
      await waitForWaiters(blocker, (w, me) => w.some((x) => x.by.includes(me)), "the import at application worker");
      deleting = deleteProjectNamed(target.organizationId, apiKey, "shop");
      void deleting.then(() => {
        deleteAnswered = true;
      });
      await waitForWaiters(
        blocker,
        (w, me) => deleteAnswered || w.some((x) => x.by.length > 0 && !x.by.includes(me)),
        "the deletion under way",
      );
    } finally {
      await blocker.commit();
    }
    const [answer, deleted] = await Promise.all([importing!, deleting!]);
    expect(deleted.errors).toBeUndefined();
    expect(answer.status, JSON.stringify(answer.body)).toBe(409);
    expect(answer.body.code).toBe("CONFLICT");
    expect(await contents(target.organizationId)).toEqual({
      projects: [],
      applications: [],
      databases: [],
      variables: 0,
    });
  });
});
