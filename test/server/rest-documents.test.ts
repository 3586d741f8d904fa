/**
 * REST rows' documents are parsed and validated once, at start-up: the document store Apollo is
 * given holds each of them pinned, so a REST call finds its document already validated whatever the LRU evicts;
 * a row whose document does not validate stops the start-up with its path in the message.
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.ts";
import { restRoutes } from "../../src/modules/index.ts";
import { queryLimits } from "../../src/server/query-limits.ts";
import { RestDocumentStore } from "../../src/server/rest-documents.ts";
import { buildSchema } from "../../src/server/schema.ts";
import type { RestRoute } from "../../src/shared/rest-route.ts";
import { createAgentTokenFor, createOrg, createProjects } from "../helpers/seed.ts";
import { gql, useTestServer } from "../helpers/server.ts";

const t = useTestServer();
const hash = (text: string) => createHash("sha256").update(text).digest("hex");

describe("REST documents", () => {
  it("pins every GraphQL row's validated document; other documents go to the LRU", async () => {
    const schema = buildSchema();
    const store = new RestDocumentStore();
    store.pin(restRoutes, schema, queryLimits(loadConfig()).validate);
    const rows = restRoutes.filter((r): r is RestRoute => "operation" in r);
    expect(rows.length).toBeGreaterThan(10);
    expect(store.size).toBe(new Set(rows.map((r) => r.operation)).size);
    const row = rows.find((r) => r.path === "/api/agent/projects")!;
    const pinned = await store.get(`schemahash:${hash(row.operation)}`);
    expect(pinned?.kind).toBe("Document");
    // Apollo storing the same text again leaves the pinned document as it is.
    await store.set(`schemahash:${hash(row.operation)}`, { kind: "Document" } as never);
    expect(await store.get(`other:${hash(row.operation)}`)).toBe(pinned);
    expect(await store.get(`schemahash:${hash("{ __typename }")}`)).toBeUndefined();
  });

  it("refuses to start with a row whose document does not validate", () => {
    const broken = { ...(restRoutes.find((r) => "operation" in r) as RestRoute), operation: "query Broken { nope }" };
    expect(() => new RestDocumentStore().pin([broken], buildSchema(), queryLimits(loadConfig()).validate)).toThrow(
      new RegExp(broken.path.replaceAll("/", "\\/")),
    );
  });

  it("answers a pinned row and the same operation on /graphql alike", async () => {
    const org = await createOrg(t.db.knex);
    await createProjects(t.db.knex, org.organizationId, 2, { applicationsPerEnvironment: 1 });
    const token = await createAgentTokenFor(t.db.knex, org.organizationId, org.owner);
    const rest = await fetch(`${t.skiff.url}/api/agent/projects`, { headers: { "x-api-key": token } });
    expect(rest.status).toBe(200);
    const projects = (await rest.json()) as Array<{ projectId: string }>;
    const row = restRoutes.find((r): r is RestRoute => "operation" in r && r.path === "/api/agent/projects")!;
    const viaGraphql = await gql<{ projects: { nodes: Array<{ projectId: string }> } }>(
      t.skiff.url,
      row.operation,
      { first: 100 },
      { apiKey: org.owner.apiKey },
    );
    // The row's body is the operation's `projects.nodes` (aliases spell the documented names).
    expect(projects).toEqual(viaGraphql.data!.projects.nodes);
    expect(projects).toHaveLength(2);
  });
});
