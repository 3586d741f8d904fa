/**
 * Invalid input on every surface (spec: Site import rule 3, Errors): 400 `{ error, details: { fieldErrors,
 * formErrors } }` on REST with the same precise field paths GraphQL reports as BAD_USER_INPUT; nothing
 * written; never a 500 for bad input.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningSkiff } from "../../src/server/start.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { gql, startTestServer } from "../helpers/server.ts";
import { countResources, dockerRequest, importReadyOrg, rest } from "./import-helpers.ts";

let db: TestDatabase;
let skiff: RunningSkiff;
let org: Awaited<ReturnType<typeof importReadyOrg>>;
beforeAll(async () => {
  db = await createTestDatabase();
  skiff = await startTestServer(db.url);
  org = await importReadyOrg(db.knex);
});
afterAll(async () => {
  await skiff?.stop();
  await db?.drop();
});

type Invalid = { error: string; details: { fieldErrors: Record<string, string[]>; formErrors: string[] } };

/** Expects the organization to hold nothing at all: no project, import, or anything an import makes. */
async function expectNothingWritten(): Promise<void> {
  expect(await countResources(db.knex, org.organizationId)).toEqual({
    projects: 0,
    environments: 0,
    databases: 0,
    applications: 0,
    variables: 0,
    domains: 0,
    deployments: 0,
    imports: 0,
  });
}

/** A refused request: its name, its body for an organization, the field paths refused. */
type Case = [string, (orgId: string) => unknown, string[]];

describe("invalid import requests", () => {
  const cases: Case[] = [
    ["missing required fields", () => ({}), ["organizationId", "name", "source"]],
    [
      "github without repo and provider",
      (o) => ({ organizationId: o, name: "x", source: { type: "github" } }),
      ["source.repo", "source.githubId"],
    ],
    [
      "gitlab without provider",
      (o) => ({ organizationId: o, name: "x", source: { type: "gitlab", repo: "a/b" } }),
      ["source.gitlabId"],
    ],
    [
      "docker without image",
      (o) => ({ organizationId: o, name: "x", source: { type: "docker" } }),
      ["source.dockerImage"],
    ],
    ["git without URL", (o) => ({ organizationId: o, name: "x", source: { type: "git" } }), ["source.customGitUrl"]],
    [
      "bad repo format",
      (o) => ({ organizationId: o, name: "x", source: { type: "github", repo: "nope", githubId: "g" } }),
      ["source.repo"],
    ],
    ...["../../etc", "a/..", "./.", "a/./b", "a/b/c"].map(
      (repo): Case => [
        `github repo ${repo}`,
        (o) => ({ organizationId: o, name: "x", source: { type: "github", repo, githubId: "g" } }),
        ["source.repo"],
      ],
    ),
    [
      "gitlab repo stepping out",
      (o) => ({ organizationId: o, name: "x", source: { type: "gitlab", repo: "group/../../x", gitlabId: "g" } }),
      ["source.repo"],
    ],
    [
      "field of another source type",
      (o) => dockerRequest(o, { source: { type: "docker", dockerImage: "nginx", githubId: "g" } }),
      ["source.githubId"],
    ],
    ["unknown source type", (o) => dockerRequest(o, { source: { type: "svn" } }), ["source.type"]],
    [
      "http clone URL",
      (o) => ({ organizationId: o, name: "x", source: { type: "git", customGitUrl: "http://h/x.git" } }),
      ["source.customGitUrl"],
    ],
    [
      "incomplete database",
      (o) => dockerRequest(o, { database: { type: "postgres", name: "db" } }),
      ["database.user", "database.password"],
    ],
    [
      "unknown database type",
      (o) => dockerRequest(o, { database: { type: "oracle", name: "d", user: "u", password: "p" } }),
      ["database.type"],
    ],
    ["bad domain", (o) => dockerRequest(o, { domain: "https://shop.example.com/" }), ["domain"]],
    [
      "bad env var name and value",
      (o) => dockerRequest(o, { envVars: { "1X": "a", OK: 5 } }),
      ["envVars.1X", "envVars.OK"],
    ],
    ["port out of range", (o) => dockerRequest(o, { port: 70000 }), ["port"]],
    ["port not an integer", (o) => dockerRequest(o, { port: "80" }), ["port"]],
    ["unknown field", (o) => dockerRequest(o, { envVar: {} }), ["envVar"]],
    ["empty name", (o) => dockerRequest(o, { name: "   " }), ["name"]],
    ["invisible name", (o) => dockerRequest(o, { name: "\u200b" }), ["name"]],
    ["name with a direction override", (o) => dockerRequest(o, { name: "pohs\u202e" }), ["name"]],
    ["name with a zero-width space", (o) => dockerRequest(o, { name: "shop\u200b" }), ["name"]],
    ["name with a line separator", (o) => dockerRequest(o, { name: "shop\u2028two" }), ["name"]],
    ["name with a paragraph separator", (o) => dockerRequest(o, { name: "shop\u2029two" }), ["name"]],
    ["Hangul filler name", (o) => dockerRequest(o, { name: "\u3164" }), ["name"]],
    ["name with a Hangul choseong filler", (o) => dockerRequest(o, { name: "shop\u115f" }), ["name"]],
  ];

  it.each(cases)("answers 400 with field errors and writes nothing: %s", async (_label, build, fields) => {
    const body = build(org.organizationId);
    for (const path of ["/api/site-import", "/api/site-import/preview"]) {
      const res = await rest<Invalid>(skiff.url, "POST", path, { apiKey: org.owner.apiKey }, body);
      expect(res.status).toBe(400);
      expect(res.body.error).toEqual(expect.any(String));
      expect(Object.keys(res.body.details.fieldErrors).sort()).toEqual([...fields].sort());
      expect(res.body.details.formErrors).toEqual([]);
    }
    const proc = await rest<{ error: { code: string; fieldErrors: Record<string, string[]> } }>(
      skiff.url,
      "POST",
      "/api/siteImport.import",
      { apiKey: org.owner.apiKey },
      body,
    );
    expect(proc.status).toBe(400);
    expect(proc.body.error.code).toBe("BAD_USER_INPUT");
    expect(Object.keys(proc.body.error.fieldErrors).sort()).toEqual([...fields].sort());
    await expectNothingWritten();
  });

  it("reports a non-object body in formErrors and writes nothing", async () => {
    for (const body of [[1, 2], "text", 42]) {
      const res = await rest<Invalid>(skiff.url, "POST", "/api/site-import", { apiKey: org.owner.apiKey }, body);
      expect(res.status).toBe(400);
      expect(res.body.details.formErrors).toEqual([expect.any(String)]);
    }
    await expectNothingWritten();
  });

  it("reports the same field paths through GraphQL as BAD_USER_INPUT and writes nothing", async () => {
    const res = await gql(
      skiff.url,
      "mutation($input: SiteImportInput!) { importSite(input: $input) { importId } }",
      { input: { organizationId: org.organizationId, name: "x", source: { type: "github", repo: "bad" } } },
      { apiKey: org.owner.apiKey },
    );
    expect(res.errors?.[0]?.extensions).toMatchObject({
      code: "BAD_USER_INPUT",
      fieldErrors: { "source.repo": [expect.any(String)], "source.githubId": ["Required for github sources"] },
    });
    await expectNothingWritten();
  });

  it("never answers 500 for malformed JSON, wrong content or junk ids, and writes nothing", async () => {
    const raw = await fetch(`${skiff.url}/api/site-import`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${org.owner.apiKey}` },
      body: "{nope",
    });
    expect(raw.status).toBe(400);
    const noBody = await rest(skiff.url, "POST", "/api/site-import", { apiKey: org.owner.apiKey });
    expect(noBody.status).toBe(400);
    for (const id of ["nope", "imp_00000000000000000000000000", "%00", "'; drop table site_imports; --"]) {
      const res = await rest(skiff.url, "GET", `/api/site-import/${encodeURIComponent(id)}`, {
        apiKey: org.owner.apiKey,
      });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: expect.any(String) });
    }
    await expectNothingWritten();
  });

  it("validates list limit and offset (1..100, ≥ 0) with field errors", async () => {
    const refused = ["limit=0", "limit=101", "limit=abc", "offset=-1", "limit=1.5", "limit=", "offset="];
    // One rule for integer query parameters: canonical decimal, given once.
    refused.push("limit=%201", "limit=1%20", "limit=+5", "limit=%2B5", "limit=05", "offset=00", "limit=1e1");
    refused.push("limit=1&limit=2", "offset=0&offset=0");
    for (const query of refused) {
      const res = await rest<Invalid>(skiff.url, "GET", `/api/site-import?${query}`, { apiKey: org.owner.apiKey });
      expect(res.status, query).toBe(400);
      expect(Object.keys(res.body.details.fieldErrors), query).toEqual([query.split("=")[0]]);
    }
    for (const query of ["limit=1", "limit=100", "offset=0", "offset=10", "limit=50&offset=0"]) {
      const res = await rest(skiff.url, "GET", `/api/site-import?${query}`, { apiKey: org.owner.apiKey });
      expect(res.status, query).toBe(200);
    }
    const gqlRes = await gql(skiff.url, "{ siteImports(first: 500) { totalCount } }", {}, { apiKey: org.owner.apiKey });
    expect(gqlRes.errors?.[0]?.extensions).toMatchObject({
      code: "BAD_USER_INPUT",
      fieldErrors: { first: [expect.any(String)] },
    });
  });
});
