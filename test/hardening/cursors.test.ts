/**
 * Connection cursors are opaque: a cursor whose row id is not an id of the connection's own table (a NUL byte, SQL,
 * another table's id, undecodable or oversized text) is refused before any SQL with BAD_USER_INPUT "Invalid cursor"
 * and `fieldErrors.after`, the same on every connection of the schema (`projects`, `Organization.projects`,
 * `siteImports`, `auditEvents`), and nothing is logged. A cursor the API wrote pages on; one naming another
 * organization's row shows nothing of that organization.
 */
import { typeid } from "typeid-js";
import { beforeAll, describe, expect, it } from "vitest";
import { createOrg, createProjects } from "../helpers/seed.ts";
import { captureLogs, gql, useTestServer } from "../helpers/server.ts";

const logs = captureLogs("warn");
const t = useTestServer({ SKIFF_WORKER: "false" }, logs.logger);
let org: Awaited<ReturnType<typeof createOrg>>;
let other: Awaited<ReturnType<typeof createOrg>>;
let otherProjects: string[];

beforeAll(async () => {
  org = await createOrg(t.db.knex);
  other = await createOrg(t.db.knex);
  await createProjects(t.db.knex, org.organizationId, 5);
  otherProjects = await createProjects(t.db.knex, other.organizationId, 3);
});

/** The cursor the API writes for row `id`. */
const cursorOf = (id: string) => Buffer.from(`c:${id}`, "utf8").toString("base64url");

/** Every connection of the schema taking `after`, as an operation with a `$after` variable, and its id prefix. */
const CONNECTIONS = [
  {
    name: "projects",
    prefix: "prj",
    query: "query($after: String) { projects(first: 2, after: $after) { totalCount } }",
  },
  {
    name: "Organization.projects",
    prefix: "prj",
    query: "query($after: String) { organizations { projects(first: 2, after: $after) { totalCount } } }",
  },
  {
    name: "siteImports",
    prefix: "imp",
    query: "query($after: String) { siteImports(first: 2, after: $after) { totalCount } }",
  },
  {
    name: "auditEvents",
    prefix: "aud",
    query: "query($after: String) { auditEvents(first: 2, after: $after) { edges { cursor } } }",
  },
];

/** Cursors no compiled read wrote for a connection whose ids start with `prefix`. */
function forgedCursors(prefix: string): Array<[string, string]> {
  const foreign = prefix === "app" ? "prj" : "app";
  return [
    ["a NUL byte", cursorOf(`${prefix}_\u0000`)],
    ["a NUL byte after a whole id", cursorOf(`${typeid(prefix).toString()}\u0000`)],
    ["SQL", cursorOf("' OR 1=1--")],
    ["another table's id", cursorOf(typeid(foreign).toString())],
    ["a bare prefix", cursorOf(`${prefix}_`)],
    ["an id in capitals", cursorOf(typeid(prefix).toString().toUpperCase())],
    ["no `c:`", Buffer.from(typeid(prefix).toString()).toString("base64url")],
    ["not base64url", `${cursorOf(typeid(prefix).toString())}+/=`],
    ["an oversized cursor", cursorOf(`${typeid(prefix).toString()}${"0".repeat(200)}`)],
    ["an empty cursor payload", cursorOf("")],
  ];
}

describe("connection cursors", () => {
  for (const connection of CONNECTIONS) {
    it(`refuses forged cursors on ${connection.name} before any SQL, naming after`, async () => {
      const before = logs.lines.length;
      for (const [what, after] of forgedCursors(connection.prefix)) {
        const res = await gql(t.skiff.url, connection.query, { after }, { apiKey: org.owner.apiKey });
        expect(res.errors, what).toHaveLength(1);
        expect(res.errors?.[0]?.message, what).toBe("Invalid cursor");
        expect(res.errors?.[0]?.extensions, what).toMatchObject({
          code: "BAD_USER_INPUT",
          fieldErrors: { after: ["Not a cursor returned by this API"] },
        });
      }
      // Nothing reached PostgreSQL: no failed statement, no retry through the resolvers, no warning.
      expect(logs.lines.slice(before)).toEqual([]);
    });

    it(`accepts a cursor of its own form on ${connection.name}`, async () => {
      const res = await gql(
        t.skiff.url,
        connection.query,
        { after: cursorOf(typeid(connection.prefix).toString()) },
        { apiKey: org.owner.apiKey },
      );
      expect(res.errors).toBeUndefined();
    });
  }

  it("pages on with the cursors the API writes; another organization's row shows nothing of it", async () => {
    const query =
      "query($after: String) { projects(first: 2, after: $after) { edges { cursor node { id } } pageInfo { endCursor hasNextPage } } }";
    type Page = {
      projects: { edges: Array<{ cursor: string; node: { id: string } }>; pageInfo: { endCursor: string } };
    };
    const seen: string[] = [];
    let after: string | null = null;
    for (let i = 0; i < 3; i++) {
      const res: Awaited<ReturnType<typeof gql<Page>>> = await gql<Page>(
        t.skiff.url,
        query,
        { after },
        { apiKey: org.owner.apiKey },
      );
      expect(res.errors).toBeUndefined();
      seen.push(...res.data!.projects.edges.map((e) => e.node.id));
      after = res.data!.projects.pageInfo.endCursor;
    }
    expect(seen).toHaveLength(5);
    expect(new Set(seen).size).toBe(5);
    const foreign = await gql<Page>(
      t.skiff.url,
      query,
      { after: cursorOf(otherProjects[0]!) },
      { apiKey: org.owner.apiKey },
    );
    expect(foreign.errors).toBeUndefined();
    for (const edge of foreign.data!.projects.edges) expect(otherProjects).not.toContain(edge.node.id);
  });
});
