/**
 * Federation 2: the subgraph SDL composes with a second subgraph that extends Project, and
 * `_entities` resolves a Project by key (with visibility: another organization's project is null).
 */
import { composeServices } from "@apollo/composition";
import { parse } from "graphql";
import { describe, expect, it } from "vitest";
import { createOrg, createProjects } from "../helpers/seed.ts";
import { gql, useTestServer } from "../helpers/server.ts";

const t = useTestServer();

const ENTITIES = `query($reps: [_Any!]!) { _entities(representations: $reps) { ... on Project { id name } } }`;

describe("federation subgraph", () => {
  it("serves its SDL anonymously and composes with another subgraph", async () => {
    const res = await gql<{ _service: { sdl: string } }>(t.skiff.url, "{ _service { sdl } }");
    expect(res.errors).toBeUndefined();
    const sdl = res.data!._service.sdl;
    expect(sdl).toContain('@key(fields: "id")');
    const billing = `
      extend schema @link(url: "https://specs.apollo.dev/federation/v2.3", import: ["@key"])
      type Project @key(fields: "id") { id: ID! monthlyCostCents: Int! }
      type Query { invoiceCount: Int! }
    `;
    const result = composeServices([
      { name: "skiff", typeDefs: parse(sdl), url: `${t.skiff.url}/graphql` },
      { name: "billing", typeDefs: parse(billing), url: "http://127.0.0.1:1/graphql" },
    ]);
    expect(result.errors ?? []).toEqual([]);
    expect(result.supergraphSdl).toContain("monthlyCostCents");
  });

  it("resolves Project entities by key, hiding other organizations' projects", async () => {
    const mine = await createOrg(t.db.knex);
    const theirs = await createOrg(t.db.knex);
    const [myProject] = await createProjects(t.db.knex, mine.organizationId, 1);
    const [theirProject] = await createProjects(t.db.knex, theirs.organizationId, 1);
    const reps = [
      { __typename: "Project", id: myProject },
      { __typename: "Project", id: theirProject },
    ];
    const res = await gql<{ _entities: Array<{ id: string } | null> }>(
      t.skiff.url,
      ENTITIES,
      { reps },
      { apiKey: mine.owner.apiKey },
    );
    expect(res.errors).toBeUndefined();
    expect(res.data!._entities[0]).toMatchObject({ id: myProject });
    expect(res.data!._entities[1]).toBeNull();
  });

  it("requires credentials for _entities", async () => {
    const res = await gql(t.skiff.url, ENTITIES, { reps: [{ __typename: "Project", id: "prj_x" }] });
    expect(res.errors?.[0]?.extensions?.code).toBe("UNAUTHENTICATED");
  });
});
