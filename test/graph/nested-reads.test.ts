/**
 * Nested reads without N+1: the same query over trees of 1 and 100 projects (3 environments, 5 applications each,
 * 3 deployments each) runs the same number of SQL statements — one, decrypted variables included — and so does the
 * project tree of `npm run bench:peer`: one compiled statement building the answer, the API key's lookup in it
 * (src/reads/compiler.ts), whatever its depth and breadth.
 */
import { describe, expect, it } from "vitest";
import { createOrg, createProjects } from "../helpers/seed.ts";
import { gql, useTestServer } from "../helpers/server.ts";

const TREE = `query Tree {
  organizations {
    id
    plan { name quotas { projects } }
    usage { projects applications }
    projects(first: 100) {
      totalCount
      pageInfo { hasNextPage endCursor }
      edges { cursor node {
        id name
        organization { id }
        environments { id name
          databases { id }
          applications { id name appName applicationStatus source { type dockerImage }
            project { id }
            deployments(first: 3) { id status title createdAt }
            domains { host port https }
            environmentVariables { key value }
          }
        }
      } }
    }
  }
}`;

// The full tree of 100 projects is estimated at ~2.5 M objects (list defaults × nesting), over the default
// SKIFF_MAX_QUERY_COST: this test is about SQL statements, so the operator's switch raises the limit.
// No job runner: its periodic statements would be counted with the requests'.
const t = useTestServer({ SKIFF_MAX_QUERY_COST: "10000000", SKIFF_WORKER: "false" });

/** The tree of bench/peer.ts: projects → environments → applications → deployments and domains (depth 4). */
const BENCH_TREE = `query Tree { projects(first: 100) { edges { node { id name
  environments { id name applications { id name appName applicationStatus
    deployments(first: 3) { id status title createdAt } domains { host port https } } } } } } }`;

/** Runs `query` and counts the SQL statements the server issued meanwhile (after the key's first use). */
async function countStatements(apiKey: string, query = TREE) {
  // The key's first use records its last-used time in the background: let that write pass first.
  await gql(t.skiff.url, "{ __typename }", {}, { apiKey });
  await new Promise((r) => setTimeout(r, 200));
  let statements = 0;
  const onQuery = () => statements++;
  t.skiff.services.knex.on("query", onQuery);
  try {
    const res = await gql(t.skiff.url, query, {}, { apiKey });
    return { res, statements };
  } finally {
    t.skiff.services.knex.off("query", onQuery);
  }
}

/** Two organizations: one with 1 project, one with 100, each project of the bench's shape (+ `variables`). */
async function smallAndLarge(variables: number) {
  const shape = {
    environments: 3,
    applicationsPerEnvironment: 5,
    deploymentsPerApplication: 3,
    domainsPerApplication: 1,
    variablesPerApplication: variables,
  };
  const small = await createOrg(t.db.knex);
  await createProjects(t.db.knex, small.organizationId, 1, shape);
  const large = await createOrg(t.db.knex);
  await createProjects(t.db.knex, large.organizationId, 100, shape);
  return { small, large };
}

describe("nested project tree", () => {
  it("issues the same number of SQL statements for 1 and 100 projects", async () => {
    const { small, large } = await smallAndLarge(2);
    const one = await countStatements(small.owner.apiKey);
    const hundred = await countStatements(large.owner.apiKey);

    expect(one.res.errors).toBeUndefined();
    expect(hundred.res.errors).toBeUndefined();
    type Tree = {
      organizations: Array<{
        projects: {
          totalCount: number;
          edges: Array<{
            node: {
              environments: Array<{
                applications: Array<{ deployments: unknown[]; environmentVariables: Array<{ value: string }> }>;
              }>;
            };
          }>;
        };
      }>;
    };
    const data = hundred.res.data as Tree;
    const projects = data.organizations[0]!.projects;
    expect(projects.totalCount).toBe(100);
    expect(projects.edges).toHaveLength(100);
    const apps = projects.edges.flatMap((e) => e.node.environments.flatMap((env) => env.applications));
    expect(apps).toHaveLength(1500);
    expect(apps.every((a) => a.deployments.length === 3)).toBe(true);
    expect(apps[0]!.environmentVariables).toEqual([
      { key: "VAR_0", value: "value-0" },
      { key: "VAR_1", value: "value-1" },
    ]);
    expect(hundred.statements).toBe(one.statements);
    // One statement: the key's lookup and the whole tree, the variables' rows included — their decrypted `value`
    // is the one resolver that runs, on the rows the statement carried (src/reads/resolved-sites.ts).
    expect(hundred.statements).toBe(1);
    console.log(`nested tree query: ${one.statements} SQL statements for 1 project, ${hundred.statements} for 100`);
  });

  it("reads the bench:peer tree in 1 statement, the key's lookup included, for 1 and 100 projects", async () => {
    const { small, large } = await smallAndLarge(0);
    const one = await countStatements(small.owner.apiKey, BENCH_TREE);
    const hundred = await countStatements(large.owner.apiKey, BENCH_TREE);
    expect(one.res.errors).toBeUndefined();
    expect(hundred.res.errors).toBeUndefined();
    type App = { deployments: Array<{ title: string }>; domains: unknown[] };
    const data = hundred.res.data as {
      projects: { edges: Array<{ node: { environments: Array<{ applications: App[] }> } }> };
    };
    const apps = data.projects.edges.flatMap((e) => e.node.environments.flatMap((env) => env.applications));
    expect(apps).toHaveLength(1500);
    expect(apps.every((a) => a.deployments.length === 3 && a.domains.length === 1)).toBe(true);
    expect(apps[0]!.deployments.map((d) => d.title)).toEqual(["deploy 2", "deploy 1", "deploy 0"]);
    // One compiled statement building the whole answer (src/reads/compiler.ts), which also looks the key up again
    // (resolved by the first request: src/server/remembered-callers.ts); started with `readMode: "executor"` the
    // resolvers read one level per statement (test/graph/compiled-reads.test.ts).
    expect(one.statements).toBe(1);
    expect(hundred.statements).toBe(1);
  });
});
