/**
 * A query multiplying list sizes through nesting is refused by its cost before it runs
 * (400 QUERY_COST_EXCEEDED with cost and limit), on HTTP and graphql-ws, while /healthz answers, and so is
 * `_entities` over many representations (counted from the variables or the literal); the
 * response-size cap answers 413; ordinary dashboard queries stay under the limit.
 */
import { createClient } from "graphql-ws";
import { beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { createOrg, createProjects } from "../helpers/seed.ts";
import { gql, useTestServer } from "../helpers/server.ts";

const t = useTestServer({ SKIFF_MAX_RESPONSE_BYTES: "4096" });
let org: Awaited<ReturnType<typeof createOrg>>;

/** A 293-byte amplification query: three aliases of two nested 100-project pages. */
const AMPLIFY =
  "{a:organizations{...F} b:organizations{...F} c:organizations{...F}} fragment F on Organization{" +
  "projects(first:100){edges{node{id name organization{projects(first:100){edges{node{id name}}}}}}}}";

beforeAll(async () => {
  org = await createOrg(t.db.knex);
  await createProjects(t.db.knex, org.organizationId, 100);
});

describe("query cost", () => {
  it("refuses the amplification query with its cost and the limit, before executing it, while /healthz answers", async () => {
    expect(AMPLIFY.length).toBeLessThanOrEqual(293);
    const auth = { apiKey: org.owner.apiKey };
    // One warm-up refusal (connection, JIT); then 5 refusals, each alongside a /healthz call. Their times are printed,
    // not asserted (a shared machine decides them): the refusal itself is checked, and that nothing was executed.
    await gql(t.skiff.url, AMPLIFY, {}, auth);
    const refusals: number[] = [];
    const healths: number[] = [];
    for (let i = 0; i < 5; i++) {
      const started = performance.now();
      const [res, health] = await Promise.all([
        gql(t.skiff.url, AMPLIFY, {}, auth),
        (async () => {
          const s = performance.now();
          const r = await fetch(`${t.skiff.url}/healthz`);
          return { status: r.status, ms: performance.now() - s };
        })(),
      ]);
      refusals.push(performance.now() - started);
      healths.push(health.ms);
      expect(res.status).toBe(400);
      expect(res.errors?.[0]?.extensions?.code).toBe("QUERY_COST_EXCEEDED");
      expect(res.errors?.[0]?.extensions?.limit).toBe(t.skiff.services.config.SKIFF_MAX_QUERY_COST);
      expect(res.errors?.[0]?.extensions?.cost).toBeGreaterThan(t.skiff.services.config.SKIFF_MAX_QUERY_COST);
      expect(res.data).toBeUndefined();
      expect(health.status).toBe(200);
    }
    console.info("amplification refusal ms", refusals.map(Math.round), "healthz ms", healths.map(Math.round));
  });

  it("counts `first` from variables and the defaults of unbounded lists", async () => {
    const query =
      "query($n:Int){organizations{projects(first:$n){edges{node{organization{projects(first:$n){edges{node{id name}}}}}}}}}";
    const small = await gql(t.skiff.url, query, { n: 5 }, { apiKey: org.owner.apiKey });
    expect(small.status).toBe(200);
    const big = await gql(t.skiff.url, query, { n: 100 }, { apiKey: org.owner.apiKey });
    expect(big.status).toBe(400);
    expect(big.errors?.[0]?.extensions?.code).toBe("QUERY_COST_EXCEEDED");
  });

  it("costs a connection's `nodes` as its `edges { node }`: one page, not a list of its own", async () => {
    const tree = "id environments { applications { deployments(first: 50) { id status title createdAt } } }";
    const cost = async (query: string) => {
      const res = await gql(t.skiff.url, query, {}, { apiKey: org.owner.apiKey });
      return res.status === 200 ? "ok" : res.errors?.[0]?.extensions?.cost;
    };
    const viaEdges = Number(await cost(`{ projects(first: 100) { edges { node { ${tree} } } } }`));
    const viaNodes = Number(await cost(`{ projects(first: 100) { nodes { ${tree} } } }`));
    // Over the limit both ways, at the same cost but for the 100 `node` fields.
    expect(viaEdges - viaNodes).toBe(100);
    // The README's organization tree, written with `nodes`, is answered.
    const readme = `{ organizations { name projects(first: 20) { totalCount nodes { name environments { name applications {
      name appName applicationStatus deployments(first: 3) { status createdAt } domains { host } } } } } } }`;
    expect(await cost(readme)).toBe("ok");
  });

  it("multiplies the selection of `_entities` by the number of representations (variables or literal)", async () => {
    // About 2,500 per entity: 100 representations cost about 250,000, over the limit of 200,000; 10 are well under.
    const selection = "... on Project { environments { applications { deployments(first: 50) { id status } } } }";
    const query = `query($reps: [_Any!]!) { _entities(representations: $reps) { ${selection} } }`;
    const reps = (n: number) => Array.from({ length: n }, (_, i) => ({ __typename: "Project", id: `prj_missing${i}` }));
    const auth = { apiKey: org.owner.apiKey };
    const few = await gql(t.skiff.url, query, { reps: reps(10) }, auth);
    expect(few.status).toBe(200);
    expect(few.data?._entities).toHaveLength(10);
    const limit = t.skiff.services.config.SKIFF_MAX_QUERY_COST;
    for (const many of [
      await gql(t.skiff.url, query, { reps: reps(100) }, auth),
      await gql(
        t.skiff.url,
        `{ _entities(representations: [${reps(100)
          .map((r) => `{ __typename: "Project", id: "${r.id}" }`)
          .join(", ")}]) { ${selection} } }`,
        {},
        auth,
      ),
    ]) {
      expect(many.status).toBe(400);
      expect(many.data).toBeUndefined();
      expect(many.errors?.[0]?.extensions).toMatchObject({ code: "QUERY_COST_EXCEEDED", limit });
      const cost = many.errors?.[0]?.extensions?.cost as number;
      expect(cost).toBeGreaterThan(limit);
      // The cost is 1 + the number of representations × the cost of one entity.
      expect(cost % 100).toBe(1);
    }
    // 14,000 representations are refused before execution (not by the execution time limit).
    const huge = await gql(t.skiff.url, query, { reps: reps(14_000) }, auth);
    expect(huge.errors?.[0]?.extensions?.code).toBe("QUERY_COST_EXCEEDED");
  });

  it("applies the same limit on graphql-ws", async () => {
    const client = createClient({
      url: `${t.skiff.url.replace("http", "ws")}/graphql`,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      connectionParams: { authorization: `Bearer ${org.owner.apiKey}` },
    });
    const outcome = await new Promise<unknown>((resolve) => {
      client.subscribe({ query: AMPLIFY }, { next: resolve, error: resolve, complete: () => resolve(null) });
    });
    expect(JSON.stringify(outcome)).toMatch(/QUERY_COST_EXCEEDED/);
    expect(JSON.stringify(outcome)).toMatch(/exceeds the limit of 200000/);
    await client.dispose();
  });

  it("answers 413 RESPONSE_TOO_LARGE when the serialized answer exceeds SKIFF_MAX_RESPONSE_BYTES", async () => {
    const res = await gql(
      t.skiff.url,
      "{ projects(first: 100) { edges { node { id name organization { id name } } } } }",
      {},
      { apiKey: org.owner.apiKey },
    );
    expect(res.status).toBe(413);
    expect(res.errors?.[0]?.extensions).toMatchObject({ code: "RESPONSE_TOO_LARGE", limit: 4096 });
    const ok = await gql(t.skiff.url, "{ projects(first: 10) { totalCount } }", {}, { apiKey: org.owner.apiKey });
    expect(ok.status).toBe(200);
  });
});
