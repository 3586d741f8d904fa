/**
 * Spec: Site import rule 8 — GET by id answers 404 when the import belongs to another organization; the caller's
 * organization is the one the list shows: a session's active organization, an API key's bound one. A user who is a
 * member of two organizations, signed in with B not active, reads, retries and deletes none of B's imports through
 * the REST paths or the procedures (404 exactly like a missing id) — on the first request and on those that follow
 * (a remembered session, whose compiled statements are kept), also after the same document text ran on /graphql,
 * where by-id reads span every organization the session belongs to (docs/graphql.md). Switching the active
 * organization switches which imports are found. A body naming an organization (`organizationId` of an import or
 * preview) may still name any of the caller's.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId } from "../../src/db/ids.ts";
import { OPERATIONS } from "../../src/modules/site-imports/site-import.operations.ts";
import type { RunningSkiff } from "../../src/server/start.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { gql, startTestServer } from "../helpers/server.ts";
import { sessionFor } from "../helpers/session.ts";
import { dockerRequest, importReadyOrg, rest } from "./import-helpers.ts";

let db: TestDatabase;
let skiff: RunningSkiff;
let a: Awaited<ReturnType<typeof importReadyOrg>>;
let b: Awaited<ReturnType<typeof importReadyOrg>>;
let inA: string;
let inB: string;
let cookie: string;

beforeAll(async () => {
  db = await createTestDatabase();
  skiff = await startTestServer(db.url);
  a = await importReadyOrg(db.knex);
  b = await importReadyOrg(db.knex);
  // A's owner is an owner of B too.
  await db.knex("members").insert({
    id: newId("member"),
    organization_id: b.organizationId,
    user_id: a.owner.userId,
    role: "owner",
  });
  const imported = async (apiKey: string, organizationId: string) =>
    (await rest<{ importId: string }>(skiff.url, "POST", "/api/site-import", { apiKey }, dockerRequest(organizationId)))
      .body.importId;
  inA = await imported(a.owner.apiKey, a.organizationId);
  inB = await imported(b.owner.apiKey, b.organizationId);
  cookie = await sessionFor(db.knex, skiff.url, a.owner);
}, 120_000);
afterAll(async () => {
  await skiff?.stop();
  await db?.drop();
});

/** Makes `organizationId` the session's active organization. */
async function activate(organizationId: string) {
  const res = await gql(
    skiff.url,
    "mutation($id: ID!) { setActiveOrganization(id: $id) { activeOrganization { id } } }",
    { id: organizationId },
    { cookie },
  );
  expect(res.errors).toBeUndefined();
}

/** Every by-id read and change of the REST and procedure surfaces for import `id`: status and body of each. */
async function byId(id: string) {
  const input = encodeURIComponent(JSON.stringify({ siteImportId: id }));
  const calls = {
    "GET /api/site-import/:id": rest(skiff.url, "GET", `/api/site-import/${id}`, { cookie }),
    "GET /api/siteImport.get": rest(skiff.url, "GET", `/api/siteImport.get?input=${input}`, { cookie }),
    "POST /api/siteImport.get": rest(skiff.url, "POST", "/api/siteImport.get", { cookie }, { siteImportId: id }),
  };
  // The body names the id asked for: replaced, so that answers for two ids compare.
  const answers: Record<string, { status: number; body: string }> = {};
  for (const [row, call] of Object.entries(calls)) {
    const { status, body } = await call;
    answers[row] = { status, body: JSON.stringify(body).replaceAll(id, "<id>") };
  }
  return answers;
}

/** What a missing import answers on each by-id row. */
const missing = () => byId("imp_doesnotexist0000000000");

describe("by-id reads follow the active organization, as the list does", () => {
  it("answers another organization's import 404 like a missing one on every REST and procedure by-id row", async () => {
    await activate(a.organizationId);
    const list = await rest<Array<{ id: string }>>(skiff.url, "GET", "/api/site-import", { cookie });
    expect(list.body.map((r) => r.id)).toEqual([inA]);
    const absent = await missing();
    for (const round of [1, 2]) {
      const other = await byId(inB);
      for (const [row, answer] of Object.entries(other)) {
        expect(answer.status, `${row} round ${round}`).toBe(404);
        expect(answer.body, `${row} round ${round}`).toEqual(absent[row]?.body);
      }
      for (const [row, answer] of Object.entries(await byId(inA))) expect(answer.status, row).toBe(200);
    }
    for (const name of ["retry", "delete"]) {
      const res = await rest(skiff.url, "POST", `/api/siteImport.${name}`, { cookie }, { siteImportId: inB });
      expect(res.status, name).toBe(404);
    }
    expect(await db.knex("site_imports").where({ id: inB }).first()).toBeDefined();
  });

  it("keeps GraphQL's by-id read across the session's organizations without widening the REST row after it", async () => {
    await activate(a.organizationId);
    // The REST row's own document text, sent to /graphql: the same parsed document, another organization scope.
    const graphql = await gql<{ siteImport: { id: string } | null }>(
      skiff.url,
      OPERATIONS.get,
      { id: inB },
      { cookie },
    );
    expect(graphql.data?.siteImport?.id).toBe(inB);
    expect((await rest(skiff.url, "GET", `/api/site-import/${inB}`, { cookie })).status).toBe(404);
    expect((await gql(skiff.url, OPERATIONS.get, { id: inB }, { cookie })).data).toEqual(graphql.data);
  });

  it("finds the other organization's imports once it is the active one, and no longer the first's", async () => {
    await activate(b.organizationId);
    try {
      const list = await rest<Array<{ id: string }>>(skiff.url, "GET", "/api/site-import", { cookie });
      expect(list.body.map((r) => r.id)).toEqual([inB]);
      for (const [row, answer] of Object.entries(await byId(inB))) expect(answer.status, row).toBe(200);
      for (const [row, answer] of Object.entries(await byId(inA))) expect(answer.status, row).toBe(404);
    } finally {
      await activate(a.organizationId);
    }
  });

  it("lets an import or preview name any organization of the caller", async () => {
    await activate(a.organizationId);
    const preview = await rest<{ valid: boolean }>(
      skiff.url,
      "POST",
      "/api/site-import/preview",
      { cookie },
      dockerRequest(b.organizationId),
    );
    expect(preview.status).toBe(200);
    expect(preview.body.valid).toBe(true);
  });
});
