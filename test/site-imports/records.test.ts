/**
 * Import records (spec: Import record, Site import rules 7–8, Import status "available actions"): list and get
 * with the masked input, organization isolation (404 exactly like a missing id), member visibility by grants,
 * the actions each status allows, the procedure surface, federation, and list reads without N+1.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningSkiff } from "../../src/server/start.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { drainJobs } from "../helpers/jobs.ts";
import { addMember, createGitProvider } from "../helpers/seed.ts";
import { gql, startTestServer } from "../helpers/server.ts";
import { countResources, dockerRequest, importReadyOrg, rest } from "./import-helpers.ts";

let db: TestDatabase;
let skiff: RunningSkiff;
let publicOnly: RunningSkiff;
/** Counts statements: no job runner, whose periodic statements would be counted with the requests'. */
let reader: RunningSkiff;
beforeAll(async () => {
  db = await createTestDatabase();
  skiff = await startTestServer(db.url);
  publicOnly = await startTestServer(db.url, { SKIFF_PUBLIC_API_ONLY: "true" });
  reader = await startTestServer(db.url, { SKIFF_WORKER: "false" });
});
afterAll(async () => {
  await reader?.stop();
  await publicOnly?.stop();
  await skiff?.stop();
  await db?.drop();
});

type Result = { importId: string; status: string; projectId: string | null; applicationId: string | null };
type ImportRecord = Record<string, unknown> & { id: string; status: string; inputConfig: Record<string, unknown> };

async function importOne(apiKey: string, body: unknown): Promise<Result> {
  return (await rest<Result>(skiff.url, "POST", "/api/site-import", { apiKey }, body)).body;
}

describe("list and get", () => {
  it("returns full records, newest first, with limit/offset and the database password masked", async () => {
    const org = await importReadyOrg(db.knex);
    const githubId = await createGitProvider(db.knex, org.organizationId, "github");
    const first = await importOne(org.owner.apiKey, {
      organizationId: org.organizationId,
      name: "first",
      database: { type: "postgres", name: "app", user: "app", password: "hunter2" },
      source: { type: "github", repo: "acme/app", githubId },
      envVars: { A: "1" },
    });
    const second = await importOne(org.owner.apiKey, dockerRequest(org.organizationId, { name: "second" }));
    const failed = await importOne(org.owner.apiKey, dockerRequest(org.organizationId, { name: "second" }));

    const all = await rest<ImportRecord[]>(skiff.url, "GET", "/api/site-import", { apiKey: org.owner.apiKey });
    expect(all.status).toBe(200);
    expect(all.body.map((r) => r.id)).toEqual([failed.importId, second.importId, first.importId]);
    const page = await rest<ImportRecord[]>(skiff.url, "GET", "/api/site-import?limit=1&offset=1", {
      apiKey: org.owner.apiKey,
    });
    expect(page.body.map((r) => r.id)).toEqual([second.importId]);
    const beyond = await rest<ImportRecord[]>(skiff.url, "GET", "/api/site-import?offset=10", {
      apiKey: org.owner.apiKey,
    });
    expect(beyond.body).toEqual([]);

    const one = await rest<ImportRecord>(skiff.url, "GET", `/api/site-import/${first.importId}`, {
      apiKey: org.owner.apiKey,
    });
    expect(one.status).toBe(200);
    expect(one.body).toEqual({
      id: first.importId,
      organizationId: org.organizationId,
      name: "first",
      status: "success",
      inputConfig: {
        organizationId: org.organizationId,
        name: "first",
        database: { type: "postgres", name: "app", user: "app", password: "********" },
        source: { type: "github", repo: "acme/app", githubId, branch: "main", buildPath: "/", buildType: "dockerfile" },
        envVars: { A: "1" },
        port: 80,
      },
      projectId: first.projectId,
      applicationId: first.applicationId,
      databaseId: expect.stringMatching(/^db_/),
      databaseType: "postgres",
      databaseServiceHost: expect.stringMatching(/-db\.skiff-org-[0-9a-z]{26}\.svc\.cluster\.local$/),
      domainId: null,
      deploymentId: expect.stringMatching(/^dpl_/),
      errorStep: null,
      errorMessage: null,
      attempts: 1,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
      updatedAt: expect.any(String),
      finishedAt: expect.any(String),
    });
    expect(JSON.stringify(all.body)).not.toContain("hunter2");
    const failedRecord = all.body[0]!;
    expect(failedRecord).toMatchObject({ status: "failed", errorStep: "project_creation", projectId: null });

    type Page = {
      siteImports: {
        totalCount: number;
        pageInfo: { hasNextPage: boolean; endCursor: string };
        edges: Array<{ node: { id: string } }>;
      };
    };
    const PAGE =
      "query($after: String) { siteImports(first: 2, after: $after) { totalCount pageInfo { hasNextPage endCursor } edges { node { id } } } }";
    const gqlPage = await gql<Page>(skiff.url, PAGE, {}, { apiKey: org.owner.apiKey });
    expect(gqlPage.data!.siteImports).toMatchObject({
      totalCount: 3,
      pageInfo: { hasNextPage: true },
      edges: [{ node: { id: failed.importId } }, { node: { id: second.importId } }],
    });
    const after = gqlPage.data!.siteImports.pageInfo.endCursor;
    const next = await gql<Page>(skiff.url, PAGE, { after }, { apiKey: org.owner.apiKey });
    expect(next.data!.siteImports.pageInfo.hasNextPage).toBe(false);
    expect(next.data!.siteImports.edges).toHaveLength(1);
  });

  it("answers another organization's record exactly like a missing one (REST 404, GraphQL NOT_FOUND)", async () => {
    const mine = await importReadyOrg(db.knex);
    const theirs = await importReadyOrg(db.knex);
    const foreign = await importOne(theirs.owner.apiKey, dockerRequest(theirs.organizationId));
    const missing = `${foreign.importId.slice(0, -4)}zzzz`;
    const a = await rest(skiff.url, "GET", `/api/site-import/${foreign.importId}`, { apiKey: mine.owner.apiKey });
    const b = await rest(skiff.url, "GET", `/api/site-import/${missing}`, { apiKey: mine.owner.apiKey });
    expect(a.status).toBe(404);
    expect(JSON.stringify(a.body).replaceAll(foreign.importId, "ID")).toBe(
      JSON.stringify(b.body).replaceAll(missing, "ID"),
    );
    const listed = await rest<ImportRecord[]>(skiff.url, "GET", "/api/site-import", { apiKey: mine.owner.apiKey });
    expect(listed.body).toEqual([]);
    for (const op of [
      "query($id: ID!) { siteImport(id: $id) { id } }",
      "mutation($id: ID!) { retrySiteImport(id: $id) { status } }",
      "mutation($id: ID!) { deleteSiteImport(id: $id, rollbackResources: true) { id } }",
    ]) {
      const res = await gql(skiff.url, op, { id: foreign.importId }, { apiKey: mine.owner.apiKey });
      expect(res.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
    }
    expect(await countResources(db.knex, theirs.organizationId)).toMatchObject({ projects: 1, imports: 1 });
  });

  it("shows members imports of granted projects only; members may not retry or delete", async () => {
    const org = await importReadyOrg(db.knex);
    const a = await importOne(org.owner.apiKey, dockerRequest(org.organizationId, { name: "granted" }));
    const b = await importOne(org.owner.apiKey, dockerRequest(org.organizationId, { name: "other" }));
    const failed = await importOne(org.owner.apiKey, dockerRequest(org.organizationId, { name: "other" }));
    const limited = await addMember(db.knex, org.organizationId, "member", { projectIds: [a.projectId!] });
    const member = await addMember(db.knex, org.organizationId, "member");

    const seen = await rest<ImportRecord[]>(skiff.url, "GET", "/api/site-import", { apiKey: limited.apiKey });
    expect(seen.body.map((r) => r.id)).toEqual([a.importId]);
    expect((await rest(skiff.url, "GET", `/api/site-import/${b.importId}`, { apiKey: limited.apiKey })).status).toBe(
      404,
    );
    expect(
      (await rest(skiff.url, "GET", `/api/site-import/${failed.importId}`, { apiKey: limited.apiKey })).status,
    ).toBe(404);
    const everything = await rest<ImportRecord[]>(skiff.url, "GET", "/api/site-import", { apiKey: member.apiKey });
    expect(everything.body).toHaveLength(3);

    const retry = await rest(
      skiff.url,
      "POST",
      "/api/siteImport.retry",
      { apiKey: member.apiKey },
      { siteImportId: failed.importId },
    );
    expect(retry.status).toBe(403);
    expect(retry.body).toEqual({ error: { message: expect.stringContaining("import:run"), code: "FORBIDDEN" } });
    const del = await rest(
      skiff.url,
      "POST",
      "/api/siteImport.delete",
      { apiKey: limited.apiKey },
      { siteImportId: a.importId },
    );
    expect(del.status).toBe(403);
  });
});

describe("members limited to applications", () => {
  it("see the imports of their applications only, and not the databases of a project seen through an application", async () => {
    const org = await importReadyOrg(db.knex);
    const imported = await importOne(
      org.owner.apiKey,
      dockerRequest(org.organizationId, {
        name: "with-db",
        database: { type: "postgres", name: "appdb", user: "app", password: "s3cret-pw" },
        envVars: { API_TOKEN: "t0ken-value" },
      }),
    );
    expect(imported.status).toBe("success");
    const environment = await db.knex("environments").where({ project_id: imported.projectId }).first("id");
    const sibling = await gql<{ createApplication: { id: string } }>(
      skiff.url,
      `mutation($e: ID!) { createApplication(input: { environmentId: $e, name: "sibling",
        source: { type: docker, dockerImage: "nginx:1.27" } }) { id } }`,
      { e: environment.id },
      { apiKey: org.owner.apiKey },
    );
    expect(sibling.errors).toBeUndefined();
    const siblingOnly = await addMember(db.knex, org.organizationId, "member", {
      applicationIds: [sibling.data!.createApplication.id],
    });
    const importedOnly = await addMember(db.knex, org.organizationId, "member", {
      applicationIds: [imported.applicationId!],
    });

    // The sibling's member sees the project as its application's container: not the import, its variables, nor the database.
    const list = await rest<ImportRecord[]>(skiff.url, "GET", "/api/site-import", { apiKey: siblingOnly.apiKey });
    expect(list.body).toEqual([]);
    expect(JSON.stringify(list.body)).not.toContain("t0ken-value");
    const tree = await gql<{
      projects: {
        nodes: Array<{ environments: Array<{ databases: unknown[]; applications: Array<{ name: string }> }> }>;
      };
    }>(
      skiff.url,
      "{ projects(first: 10) { nodes { environments { databases { name } applications { name } } } } }",
      {},
      { apiKey: siblingOnly.apiKey },
    );
    expect(tree.errors).toBeUndefined();
    expect(tree.data!.projects.nodes).toEqual([
      { environments: [{ databases: [], applications: [{ name: "sibling" }] }] },
    ]);

    // The imported application's member sees its import.
    const own = await rest<ImportRecord[]>(skiff.url, "GET", "/api/site-import", { apiKey: importedOnly.apiKey });
    expect(own.body.map((r) => r.id)).toEqual([imported.importId]);
  });
});

describe("actions allowed by the status table", () => {
  const RETRY = "mutation($id: ID!) { retrySiteImport(id: $id) { status } }";
  const DELETE =
    "mutation($id: ID!, $r: Boolean) { deleteSiteImport(id: $id, rollbackResources: $r) { id rolledBack } }";

  it("refuses to retry a success (CONFLICT) but deletes it, with or without its resources", async () => {
    const org = await importReadyOrg(db.knex);
    const done = await importOne(org.owner.apiKey, dockerRequest(org.organizationId));
    const retry = await gql(skiff.url, RETRY, { id: done.importId }, { apiKey: org.owner.apiKey });
    expect(retry.errors?.[0]?.extensions?.code).toBe("CONFLICT");
    expect(retry.errors?.[0]?.message).toContain("only partial or failed imports can be retried");
    const proc = await rest(
      skiff.url,
      "POST",
      "/api/siteImport.retry",
      { apiKey: org.owner.apiKey },
      { siteImportId: done.importId },
    );
    expect(proc.status).toBe(409);

    const rolled = await gql(skiff.url, DELETE, { id: done.importId, r: true }, { apiKey: org.owner.apiKey });
    expect(rolled.data).toEqual({ deleteSiteImport: { id: done.importId, rolledBack: true } });
    expect(await countResources(db.knex, org.organizationId)).toMatchObject({
      projects: 0,
      applications: 0,
      deployments: 0,
      imports: 0,
    });
  });

  it("refuses a rollback while the project holds what the import did not create (CONFLICT, nothing deleted); rolls back once it is gone", async () => {
    const org = await importReadyOrg(db.knex);
    const apiKey = org.owner.apiKey;
    const done = await importOne(apiKey, dockerRequest(org.organizationId, { name: "kept" }));
    const env = await db.knex("environments").where({ project_id: done.projectId }).first("id");
    const added = await gql<{ createApplication: { id: string } }>(
      skiff.url,
      "mutation($i: CreateApplicationInput!) { createApplication(input: $i) { id } }",
      { i: { environmentId: env.id, name: "hand-made", source: { type: "docker", dockerImage: "nginx:1.27" } } },
      { apiKey },
    );
    expect(added.errors).toBeUndefined();
    const before = await countResources(db.knex, org.organizationId);

    const refused = await gql(skiff.url, DELETE, { id: done.importId, r: true }, { apiKey });
    expect(refused.errors?.[0]?.extensions?.code).toBe("CONFLICT");
    expect(refused.errors?.[0]?.message).toContain('application "hand-made"');
    const proc = await rest(
      skiff.url,
      "POST",
      "/api/siteImport.delete",
      { apiKey },
      { siteImportId: done.importId, rollbackResources: true },
    );
    expect(proc.status).toBe(409);
    expect(await countResources(db.knex, org.organizationId)).toEqual(before);

    const removed = await gql(
      skiff.url,
      "mutation($id: ID!) { deleteApplication(id: $id) }",
      { id: added.data!.createApplication.id },
      { apiKey },
    );
    expect(removed.errors).toBeUndefined();
    const rolled = await gql(skiff.url, DELETE, { id: done.importId, r: true }, { apiKey });
    expect(rolled.data).toEqual({ deleteSiteImport: { id: done.importId, rolledBack: true } });
    expect(await countResources(db.knex, org.organizationId)).toMatchObject({ projects: 0, applications: 0 });
  });

  it("counts an environment added after the import as not the import's, even once the import's own is deleted", async () => {
    const org = await importReadyOrg(db.knex);
    const apiKey = org.owner.apiKey;
    const done = await importOne(apiKey, dockerRequest(org.organizationId, { name: "moved" }));
    const own = await db.knex("environments").where({ project_id: done.projectId }).first("id");
    const post = (path: string, body: unknown) => rest(skiff.url, "POST", path, { apiKey }, body);
    expect((await post("/api/environment.create", { projectId: done.projectId, name: "keep" })).status).toBe(200);
    expect((await post("/api/application.delete", { applicationId: done.applicationId })).status).toBe(200);
    expect((await post("/api/environment.delete", { environmentId: own.id })).status).toBe(200);
    const refused = await gql(skiff.url, DELETE, { id: done.importId, r: true }, { apiKey });
    expect(refused.errors?.[0]?.extensions?.code).toBe("CONFLICT");
    expect(refused.errors?.[0]?.message).toContain('environment "keep"');
  });

  it("a rollback racing a creation in its project: the creation is refused or the rollback is, never both kept and deleted", async () => {
    const org = await importReadyOrg(db.knex);
    const apiKey = org.owner.apiKey;
    for (let round = 0; round < 6; round++) {
      const done = await importOne(apiKey, dockerRequest(org.organizationId, { name: `race-${round}` }));
      const env = await db.knex("environments").where({ project_id: done.projectId }).first("id");
      const [rolled, created] = await Promise.all([
        rest(
          skiff.url,
          "POST",
          "/api/siteImport.delete",
          { apiKey },
          { siteImportId: done.importId, rollbackResources: true },
        ),
        rest<{ result?: { data: { id: string } } }>(
          skiff.url,
          "POST",
          "/api/application.create",
          { apiKey },
          {
            environmentId: env.id,
            name: `intruder-${round}`,
            source: { type: "docker", dockerImage: "nginx:1.27" },
          },
        ),
      ]);
      const kept =
        created.status === 200 ? await db.knex("applications").where({ id: created.body.result!.data.id }) : [];
      const what = `round ${round}: rollback ${rolled.status}, create ${created.status}`;
      // Either the creation came first (the rollback is refused, the application stays) or it found the project gone.
      if (created.status === 200) {
        expect(rolled.status, what).toBe(409);
        expect(kept, what).toHaveLength(1);
      } else {
        expect(rolled.status, what).toBe(200);
        expect(created.status, what).toBe(404);
      }
    }
  });

  it("while pending with a live run, a retry waits for it and delete is refused (CONFLICT); both are allowed once the run cannot resume", async () => {
    const org = await importReadyOrg(db.knex);
    const done = await importOne(org.owner.apiKey, dockerRequest(org.organizationId, { name: "stuck" }));
    await db.knex("site_imports").where({ id: done.importId }).update({ status: "pending", finished_at: null });
    // A run of the record queued for later: the import is still running as far as the state table goes.
    await db.knex.raw(
      "select graphile_worker.add_job('imports.run', json_build_object('importId', ?::text, 'run', 1), run_at => now() + interval '1 hour', job_key => ?)",
      [done.importId, `site-import:${done.importId}`],
    );
    const deleting = await gql(skiff.url, DELETE, { id: done.importId, r: true }, { apiKey: org.owner.apiKey });
    expect(deleting.errors?.[0]?.extensions?.code).toBe("CONFLICT");
    expect(deleting.errors?.[0]?.message).toContain("still running (pending)");
    // A retry is idempotent: it joins the live run's wait (cut short here by SKIFF_IMPORT_WAIT_MS) and answers pending.
    const shortWait = await startTestServer(db.url, { SKIFF_WORKER: "false", SKIFF_IMPORT_WAIT_MS: "300" });
    const joined = await gql<{ retrySiteImport: { status: string } }>(
      shortWait.url,
      RETRY,
      { id: done.importId },
      { apiKey: org.owner.apiKey },
    ).finally(() => shortWait.stop());
    expect(joined.errors).toBeUndefined();
    expect(joined.data?.retrySiteImport.status).toBe("pending");
    expect(await db.knex("site_imports").where({ id: done.importId }).first()).toMatchObject({ attempts: 1 });
    expect(await countResources(db.knex, org.organizationId)).toMatchObject({ projects: 1, imports: 1 });

    // Its run has no attempts left (the server or database stopped it for good): it can be retried.
    await db.knex.raw("update graphile_worker._private_jobs set attempts = max_attempts where key = ?", [
      `site-import:${done.importId}`,
    ]);
    const retried = await gql<{ retrySiteImport: { status: string } }>(
      skiff.url,
      RETRY,
      { id: done.importId },
      { apiKey: org.owner.apiKey },
    );
    expect(retried.data?.retrySiteImport.status).toBe("success");
    expect(await countResources(db.knex, org.organizationId)).toMatchObject({
      projects: 1,
      applications: 1,
      imports: 1,
    });
  });
});

describe("procedure surface", () => {
  it("serves siteImport.* by POST and, for queries, by GET with ?input=<json>", async () => {
    const org = await importReadyOrg(db.knex);
    const auth = { apiKey: org.owner.apiKey };
    const imported = await rest<{ result: { data: Result } }>(
      skiff.url,
      "POST",
      "/api/siteImport.import",
      auth,
      dockerRequest(org.organizationId, { name: "proc" }),
    );
    expect(imported.status).toBe(200);
    expect(imported.body.result.data).toMatchObject({ status: "success", databaseId: null });
    const id = imported.body.result.data.importId;

    const failed = await rest<{ result: { data: Result } }>(
      skiff.url,
      "POST",
      "/api/siteImport.import",
      auth,
      dockerRequest(org.organizationId, { name: "proc" }),
    );
    expect(failed.status).toBe(200);
    expect(failed.body.result.data).toMatchObject({ status: "failed", errorStep: "project_creation" });

    const q = (input: unknown) => `?input=${encodeURIComponent(JSON.stringify(input))}`;
    const got = await rest<{ result: { data: ImportRecord } }>(
      skiff.url,
      "GET",
      `/api/siteImport.get${q({ siteImportId: id })}`,
      auth,
    );
    expect(got.body.result.data).toMatchObject({ id, status: "success", name: "proc" });
    const listed = await rest<{ result: { data: { items: ImportRecord[]; totalCount: number } } }>(
      skiff.url,
      "GET",
      `/api/siteImport.list${q({ limit: 1 })}`,
      auth,
    );
    expect(listed.body.result.data).toMatchObject({ totalCount: 2, hasMore: true, limit: 1, offset: 0 });
    expect(listed.body.result.data.items).toHaveLength(1);
    const listedPost = await rest<{ result: { data: { items: ImportRecord[] } } }>(
      skiff.url,
      "POST",
      "/api/siteImport.list",
      auth,
      {},
    );
    expect(listedPost.body.result.data.items).toHaveLength(2);
    const preview = await rest<{ result: { data: { valid: boolean; errors: string[] } } }>(
      skiff.url,
      "GET",
      `/api/siteImport.preview${q(dockerRequest(org.organizationId, { name: "proc" }))}`,
      auth,
    );
    expect(preview.body.result.data).toMatchObject({
      valid: false,
      errors: [expect.stringContaining('"proc" already exists')],
    });

    const badJson = await rest(skiff.url, "GET", "/api/siteImport.list?input=%7Bnope", auth);
    expect(badJson.status).toBe(400);
    expect(badJson.body).toMatchObject({
      error: { code: "BAD_USER_INPUT", fieldErrors: { input: [expect.any(String)] } },
    });
    const unknown = await rest(skiff.url, "POST", "/api/siteImport.get", auth, { siteImportId: "imp_nope" });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: { message: expect.any(String), code: "NOT_FOUND" } });
    expect((await rest(skiff.url, "POST", "/api/siteImport.get", {}, { siteImportId: id })).status).toBe(401);

    const deleted = await rest<{ result: { data: unknown } }>(skiff.url, "POST", "/api/siteImport.delete", auth, {
      siteImportId: id,
      rollbackResources: true,
    });
    expect(deleted.body.result.data).toEqual({
      id,
      rolledBack: true,
      deletedProjectId: imported.body.result.data.projectId,
    });
  });

  it("siteImport.list refuses a body siteImport.get would refuse: not an object, an unknown field, a wrong type", async () => {
    const org = await importReadyOrg(db.knex);
    const auth = { apiKey: org.owner.apiKey };
    const post = (path: string, body: string) =>
      fetch(`${skiff.url}${path}`, {
        method: "POST",
        headers: { authorization: `Bearer ${auth.apiKey}`, "content-type": "application/json" },
        body,
      }).then(async (res) => ({ status: res.status, body: (await res.json()) as { error: Record<string, unknown> } }));
    // A body that is not an object is refused before either row runs (docs/rest.md).
    for (const body of ['"x"', "[]", "1", "null"]) {
      const list = await post("/api/siteImport.list", body);
      const get = await post("/api/siteImport.get", body);
      expect(list.status, body).toBe(400);
      expect(list.body, body).toEqual({
        error: expect.stringMatching(/^Body must be a JSON object, not /),
        code: "BAD_REQUEST",
        details: { fieldErrors: {}, formErrors: [list.body.error] },
      });
      expect(list.body, body).toEqual(get.body);
    }
    const unknown = await post("/api/siteImport.list", '{"limit":1,"bogus":1}');
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatchObject({ code: "BAD_USER_INPUT", fieldErrors: { bogus: ["Unknown field"] } });
    for (const [body, field] of [
      ['{"limit":"5"}', "limit"],
      ['{"offset":"0"}', "offset"],
      ['{"limit":true}', "limit"],
      ['{"limit":1.5}', "limit"],
    ]) {
      const res = await post("/api/siteImport.list", body!);
      expect(res.status, body).toBe(400);
      expect(res.body.error.code, body).toBe("BAD_USER_INPUT");
      expect(Object.keys(res.body.error.fieldErrors as object), body).toEqual([field]);
    }
    const typed = await rest(
      skiff.url,
      "GET",
      `/api/siteImport.list?input=${encodeURIComponent('{"limit":"5"}')}`,
      auth,
    );
    expect(typed.status).toBe(400);
    // What it takes: no body, `{}`, integers or null (the default).
    for (const body of ["", "{}", '{"limit":5,"offset":0}', '{"limit":null}']) {
      const res = await fetch(`${skiff.url}/api/siteImport.list`, {
        method: "POST",
        headers: { authorization: `Bearer ${auth.apiKey}`, "content-type": "application/json" },
        body,
      });
      expect(res.status, body).toBe(200);
    }
  });

  it("hides the procedures, not the documented paths, when SKIFF_PUBLIC_API_ONLY=true", async () => {
    const org = await importReadyOrg(db.knex);
    const auth = { apiKey: org.owner.apiKey };
    expect(
      (await rest(publicOnly.url, "POST", "/api/siteImport.import", auth, dockerRequest(org.organizationId))).status,
    ).toBe(404);
    expect((await rest(publicOnly.url, "GET", "/api/siteImport.list", auth)).status).toBe(404);
    expect(
      (await rest(publicOnly.url, "POST", "/api/site-import", auth, dockerRequest(org.organizationId))).status,
    ).toBe(200);
    expect((await rest(publicOnly.url, "GET", "/api/site-import", auth)).status).toBe(200);
  });
});

describe("reads", () => {
  it("resolves SiteImport entities by key, hiding other organizations' records", async () => {
    const mine = await importReadyOrg(db.knex);
    const theirs = await importReadyOrg(db.knex);
    const a = await importOne(mine.owner.apiKey, dockerRequest(mine.organizationId));
    const b = await importOne(theirs.owner.apiKey, dockerRequest(theirs.organizationId));
    const res = await gql<{ _entities: Array<{ id: string; status: string } | null> }>(
      skiff.url,
      "query($reps: [_Any!]!) { _entities(representations: $reps) { ... on SiteImport { id status } } }",
      {
        reps: [
          { __typename: "SiteImport", id: a.importId },
          { __typename: "SiteImport", id: b.importId },
        ],
      },
      { apiKey: mine.owner.apiKey },
    );
    expect(res.errors).toBeUndefined();
    expect(res.data!._entities).toEqual([{ id: a.importId, status: "success" }, null]);
  });

  it("lists records with their resources in the same number of SQL statements for 1 and 20 imports", async () => {
    const LIST = `{ siteImports(first: 100) { totalCount edges { node { id inputConfig databaseType organization { name }
      project { name environments { name } } application { appName domains { host } } database { serviceHost }
      domain { host } deployment { status } } } } }`;
    const count = async (apiKey: string) => {
      let statements = 0;
      const onQuery = () => statements++;
      reader.services.knex.on("query", onQuery);
      try {
        const res = await gql<{ siteImports: { totalCount: number } }>(reader.url, LIST, {}, { apiKey });
        expect(res.errors).toBeUndefined();
        return { statements, total: res.data!.siteImports.totalCount };
      } finally {
        reader.services.knex.off("query", onQuery);
      }
    };
    const small = await importReadyOrg(db.knex);
    const large = await importReadyOrg(db.knex);
    const full = (orgId: string, i: number) =>
      dockerRequest(orgId, {
        name: `n-${i}`,
        domain: `n${i}-${orgId.slice(-8)}.example.test`,
        database: { type: "postgres", name: "d", user: "u", password: "p" },
      });
    await importOne(small.owner.apiKey, full(small.organizationId, 0));
    for (let i = 0; i < 20; i++) await importOne(large.owner.apiKey, full(large.organizationId, i));
    // The imports' deployments run as background jobs on the same pool: let them finish before counting.
    await drainJobs(db.knex);
    const one = await count(small.owner.apiKey);
    const twenty = await count(large.owner.apiKey);
    expect([one.total, twenty.total]).toEqual([1, 20]);
    expect(twenty.statements).toBe(one.statements);
  });
});
