/**
 * Failures at each step, injected for real by PostgreSQL triggers that raise on insert of a marked row
 * (spec: Import status): the failing step leaves nothing behind (its transaction rolls back), earlier steps
 * stay (partial) or nothing exists (failed); rollback deletes every created resource and the record, leaving
 * zero rows; delete without rollback keeps the resources; retry after the cause is gone succeeds in place.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningSkiff } from "../../src/server/start.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { gql, startTestServer } from "../helpers/server.ts";
import {
  countResources,
  dockerRequest,
  FULL_IMPORT_COUNTS,
  failInsertsWhen,
  importReadyOrg,
  rest,
} from "./import-helpers.ts";

let db: TestDatabase;
let skiff: RunningSkiff;
beforeAll(async () => {
  db = await createTestDatabase();
  skiff = await startTestServer(db.url);
  await failInsertsWhen(db.knex, "projects", "name", "fail-at-project");
  await failInsertsWhen(db.knex, "databases", "name", "failatdb");
  await failInsertsWhen(db.knex, "applications", "name", "fail-at-app");
  await failInsertsWhen(db.knex, "environment_variables", "key", "FAIL_AT_VARS");
  await failInsertsWhen(db.knex, "domains", "host", "fail-at-domain");
  await failInsertsWhen(db.knex, "deployments", "title", "fail-at-deploy");
});
afterAll(async () => {
  await skiff?.stop();
  await db?.drop();
});

type Result = Record<string, string | null> & { importId: string; status: string };

const DELETE = `mutation($id: ID!, $rollback: Boolean) {
  deleteSiteImport(id: $id, rollbackResources: $rollback) { id rolledBack deletedProjectId } }`;

/** A request that reaches every step: database, application with variables, domain, deployment. */
function fullRequest(organizationId: string, name: string, overrides: Record<string, unknown> = {}) {
  return dockerRequest(organizationId, {
    name,
    database: { type: "postgres", name: "appdb", user: "app", password: "pw" },
    domain: `${name}-${Date.now()}.example.test`,
    envVars: { APP_ENV: "prod" },
    ...overrides,
  });
}

const zero = { projects: 0, environments: 0, databases: 0, applications: 0, variables: 0, domains: 0, deployments: 0 };

describe("a failure injected at each step", () => {
  const cases: Array<{
    step: string;
    status: "failed" | "partial";
    request: (orgId: string) => Record<string, unknown>;
    remaining: Partial<typeof zero>;
  }> = [
    { step: "project_creation", status: "failed", request: (o) => fullRequest(o, "x-fail-at-project"), remaining: {} },
    {
      step: "database_creation",
      status: "partial",
      request: (o) =>
        fullRequest(o, "x-db", { database: { type: "postgres", name: "failatdb", user: "u", password: "p" } }),
      remaining: { projects: 1, environments: 1 },
    },
    {
      step: "application_creation",
      status: "partial",
      request: (o) => fullRequest(o, "x-fail-at-app"),
      remaining: { projects: 1, environments: 1, databases: 1 },
    },
    {
      step: "application_creation",
      status: "partial",
      request: (o) => fullRequest(o, "x-vars", { envVars: { FAIL_AT_VARS: "1" } }),
      remaining: { projects: 1, environments: 1, databases: 1 },
    },
    {
      step: "domain_creation",
      status: "partial",
      request: (o) => fullRequest(o, "fail-at-domain"),
      remaining: { projects: 1, environments: 1, databases: 1, applications: 1, variables: 6 },
    },
    {
      step: "deployment",
      status: "partial",
      request: (o) => fullRequest(o, "x-fail-at-deploy"),
      remaining: { projects: 1, environments: 1, databases: 1, applications: 1, variables: 6, domains: 1 },
    },
  ];

  it.each(cases)(
    "$step ($status): keeps earlier steps only; rollback leaves zero rows",
    async ({ step, status, request, remaining }) => {
      const org = await importReadyOrg(db.knex);
      const res = await rest<Result>(
        skiff.url,
        "POST",
        "/api/site-import",
        { apiKey: org.owner.apiKey },
        request(org.organizationId),
      );
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ status, errorStep: step });
      expect(res.body.errorMessage).toMatch(
        new RegExp(`^Unexpected error during ${step}; nothing of this step was kept \\(errorId [0-9a-f-]{36}\\)$`),
      );
      expect(res.body.errorMessage).not.toContain("injected");
      expect(res.body.projectId ?? null).toEqual(status === "partial" ? expect.stringMatching(/^prj_/) : null);

      expect(await countResources(db.knex, org.organizationId)).toEqual({ ...zero, ...remaining, imports: 1 });
      const record = await db.knex("site_imports").where({ id: res.body.importId }).first();
      expect(record).toMatchObject({ status, errorStep: step, finishedAt: expect.any(Date) });
      // The record knows every resource that exists.
      expect(Boolean(record.databaseId)).toBe((remaining.databases ?? 0) > 0);
      expect(Boolean(record.applicationId)).toBe((remaining.applications ?? 0) > 0);
      expect(Boolean(record.domainId)).toBe((remaining.domains ?? 0) > 0);

      const rollback = await gql<{ deleteSiteImport: Record<string, unknown> }>(
        skiff.url,
        DELETE,
        { id: res.body.importId, rollback: true },
        { apiKey: org.owner.apiKey },
      );
      expect(rollback.errors).toBeUndefined();
      expect(rollback.data!.deleteSiteImport).toEqual({
        id: res.body.importId,
        rolledBack: true,
        deletedProjectId: res.body.projectId ?? null,
      });
      expect(await countResources(db.knex, org.organizationId)).toEqual({ ...zero, imports: 0 });
    },
  );
});

describe("delete and retry after a failure", () => {
  it("delete without rollback removes only the record", async () => {
    const org = await importReadyOrg(db.knex);
    const res = await rest<Result>(
      skiff.url,
      "POST",
      "/api/site-import",
      { apiKey: org.owner.apiKey },
      fullRequest(org.organizationId, "x-fail-at-deploy"),
    );
    const before = await countResources(db.knex, org.organizationId);
    const deleted = await gql<{ deleteSiteImport: Record<string, unknown> }>(
      skiff.url,
      DELETE,
      { id: res.body.importId },
      { apiKey: org.owner.apiKey },
    );
    expect(deleted.data!.deleteSiteImport).toEqual({
      id: res.body.importId,
      rolledBack: false,
      deletedProjectId: null,
    });
    expect(await countResources(db.knex, org.organizationId)).toEqual({ ...before, imports: 0 });
    const again = await rest(skiff.url, "GET", `/api/site-import/${res.body.importId}`, { apiKey: org.owner.apiKey });
    expect(again.status).toBe(404);
  });

  it("retry cleans up the partial project and re-runs the stored input (real password) on the same record", async () => {
    const org = await importReadyOrg(db.knex);
    const name = "x-retry-fail-at-deploy";
    const first = await rest<Result>(
      skiff.url,
      "POST",
      "/api/site-import",
      { apiKey: org.owner.apiKey },
      fullRequest(org.organizationId, name, {
        database: { type: "postgres", name: "appdb", user: "app", password: "real-secret" },
      }),
    );
    expect(first.body.status).toBe("partial");
    const oldProject = first.body.projectId;
    // Remove the cause, then retry.
    await db.knex.raw("drop trigger test_fail_deployments on deployments");
    try {
      const retried = await rest<{ result: { data: Result } }>(
        skiff.url,
        "POST",
        "/api/siteImport.retry",
        { apiKey: org.owner.apiKey },
        { siteImportId: first.body.importId },
      );
      expect(retried.status).toBe(200);
      const result = retried.body.result.data;
      expect(result).toMatchObject({
        importId: first.body.importId,
        status: "success",
        errorStep: null,
        errorMessage: null,
      });
      expect(result.projectId).not.toBe(oldProject);
      expect(await db.knex("projects").where({ id: oldProject }).first()).toBeUndefined();
      expect(await countResources(db.knex, org.organizationId)).toEqual(FULL_IMPORT_COUNTS);
      const record = await db.knex("site_imports").where({ id: first.body.importId }).first();
      expect(record).toMatchObject({ status: "success", attempts: 2, projectId: result.projectId });
      const dbRow = await db.knex("databases").where({ id: result.databaseId }).first();
      expect(skiff.services.secrets.decrypt(dbRow.passwordEncrypted)).toBe("real-secret");
    } finally {
      await failInsertsWhen(db.knex, "deployments", "title", "fail-at-deploy");
    }
  });

  it("retry of a failed import (nothing created) runs again once the prerequisite exists", async () => {
    const org = await importReadyOrg(db.knex);
    const first = await rest<Result>(
      skiff.url,
      "POST",
      "/api/site-import",
      { apiKey: org.owner.apiKey },
      {
        organizationId: org.organizationId,
        name: "later",
        source: { type: "github", repo: "a/b", githubId: "gitp_later" },
      },
    );
    expect(first.body).toMatchObject({ status: "failed", errorStep: "application_creation" });
    await db
      .knex("git_providers")
      .insert({ id: "gitp_later", organization_id: org.organizationId, type: "github", name: "gh" });
    const retried = await gql<{ retrySiteImport: Result }>(
      skiff.url,
      "mutation($id: ID!) { retrySiteImport(id: $id) { importId status } }",
      { id: first.body.importId },
      { apiKey: org.owner.apiKey },
    );
    expect(retried.data!.retrySiteImport).toEqual({ importId: first.body.importId, status: "success" });
  });
});
