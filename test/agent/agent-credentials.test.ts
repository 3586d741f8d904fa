/**
 * Which credentials each surface accepts (spec: Authentication → Agent API, rules 2–3; Versioning, rule 5):
 * agent tokens only on /api/agent/* (both headers), account API keys and session cookies rejected there;
 * agent tokens rejected on /graphql, the WebSocket and the other REST paths; old spellings answer 404.
 */
import { createClient } from "graphql-ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { restRoutes } from "../../src/modules/index.ts";
import { authenticate } from "../../src/server/authenticate.ts";
import type { RunningSkiff } from "../../src/server/start.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { createAgentTokenFor, createOrg, createProjects, setPassword } from "../helpers/seed.ts";
import { gql, startTestServer } from "../helpers/server.ts";
import { type AgentErrorBody, agentGet, signIn } from "./agent-client.ts";

let db: TestDatabase;
let skiff: RunningSkiff;
let org: Awaited<ReturnType<typeof createOrg>>;
let token: string;
let appId: string;
beforeAll(async () => {
  db = await createTestDatabase();
  skiff = await startTestServer(db.url);
  org = await createOrg(db.knex);
  token = await createAgentTokenFor(db.knex, org.organizationId, org.owner);
  const [projectId] = await createProjects(db.knex, org.organizationId, 1, { applicationsPerEnvironment: 1 });
  appId = (await db.knex("applications").where({ project_id: projectId }).first()).id;
});
afterAll(async () => {
  await skiff?.stop();
  await db?.drop();
});

const agentPaths = () => [
  "/api/agent/projects",
  `/api/agent/application?applicationId=${appId}`,
  `/api/agent/deployments?applicationId=${appId}`,
];

describe("agent endpoints", () => {
  it("accept an agent token as x-api-key or Authorization: Bearer", async () => {
    for (const path of agentPaths()) {
      for (const header of ["x-api-key", "bearer"] as const) {
        expect((await agentGet(skiff.url, path, token, header)).status, `${path} ${header}`).toBe(200);
      }
    }
  });

  it("answer 401 UNAUTHORIZED without credentials, with unknown tokens and with account API keys", async () => {
    const unknown = `${token.slice(0, -4)}AAAA`;
    for (const path of agentPaths()) {
      for (const credential of [undefined, unknown, "skiff_agt_", org.owner.apiKey]) {
        for (const header of ["x-api-key", "bearer"] as const) {
          const res = await agentGet<AgentErrorBody>(skiff.url, path, credential, header);
          expect(res.status, `${path} ${credential}`).toBe(401);
          expect(res.body).toEqual({ message: expect.any(String), code: "UNAUTHORIZED" });
        }
      }
    }
  });

  it("answer 401 to a dashboard session cookie", async () => {
    await setPassword(db.knex, org.owner.userId, "owner-password");
    const cookie = await signIn(skiff.url, org.owner.email, "owner-password");
    expect((await gql(skiff.url, "{ viewer { role } }", {}, { cookie })).data).toEqual({ viewer: { role: "owner" } });
    for (const path of agentPaths()) {
      const res = await agentGet<AgentErrorBody>(skiff.url, path, undefined, "x-api-key", { cookie });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe("UNAUTHORIZED");
    }
  });

  it("answer 401 (not 400) when the credentials are wrong and the parameters too", async () => {
    const res = await agentGet<AgentErrorBody>(skiff.url, "/api/agent/deployments?limit=0", org.owner.apiKey);
    expect(res.status).toBe(401);
  });
});

describe("agent tokens elsewhere", () => {
  it("are rejected by /graphql with UNAUTHENTICATED", async () => {
    for (const header of ["bearer", "x-api-key"] as const) {
      const res = await gql(skiff.url, "{ viewer { role } }", {}, { apiKey: token, header });
      // Refused before execution (a credential that does not verify): HTTP 401, a request error without data.
      expect(res.status).toBe(401);
      expect(res.data).toBeUndefined();
      expect(res.errors?.[0]?.extensions?.code).toBe("UNAUTHENTICATED");
      const mutation = await gql(skiff.url, "mutation { revokeAgentToken }", {}, { apiKey: token, header });
      expect(mutation.errors?.[0]?.extensions?.code).toBe("UNAUTHENTICATED");
    }
    expect(await db.knex("agent_tokens").where({ organization_id: org.organizationId })).toHaveLength(1);
  });

  it("are rejected by the WebSocket endpoint (closed with 4403)", async () => {
    const client = createClient({
      url: `${skiff.url.replace("http", "ws")}/graphql`,
      webSocketImpl: WebSocket,
      retryAttempts: 0,
      lazy: false,
      connectionParams: { authorization: `Bearer ${token}` },
    });
    const closed = await new Promise<number>((resolve) =>
      client.on("closed", (e) => resolve((e as { code: number }).code)),
    );
    expect(closed).toBe(4403);
    await client.dispose();
  });

  it("are rejected by every other surface (site import and the rest of the table)", async () => {
    const headers = { authorization: `Bearer ${token}` };
    expect(await authenticate(skiff.services, headers, "rest")).toBeNull();
    expect(await authenticate(skiff.services, headers, "graphql")).toBeNull();
    expect(await authenticate(skiff.services, headers, "agent")).toMatchObject({
      userId: org.owner.userId,
      organizationId: org.organizationId,
      via: "agentToken",
    });
    // The account API key works there, and not on the agent surface.
    const keyHeaders = { "x-api-key": org.owner.apiKey };
    expect(await authenticate(skiff.services, keyHeaders, "rest")).toMatchObject({ via: "apiKey" });
    expect(await authenticate(skiff.services, keyHeaders, "agent")).toBeNull();
  });

  it("are rejected by GET /api/site-import with 401", async () => {
    expect(restRoutes.some((r) => r.method === "GET" && r.path === "/api/site-import")).toBe(true);
    const res = await fetch(`${skiff.url}/api/site-import`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(401);
    const ok = await fetch(`${skiff.url}/api/site-import`, {
      headers: { authorization: `Bearer ${org.owner.apiKey}` },
    });
    expect(ok.status).toBe(200);
  });
});

describe("a plan without the AI assistant feature (spec: Agent API, rule 1)", () => {
  const CHANGE = `mutation($id: ID!, $plan: String!) { changePlan(organizationId: $id, plan: $plan) { plan { name } } }`;
  const mcpCall = (credential: string) =>
    fetch(`${skiff.url}/mcp`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${credential}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "list_projects" } }),
    });

  it("gates creating a token, not using one: a token made before a downgrade keeps working", async () => {
    const other = await createOrg(db.knex);
    const [projectId] = await createProjects(db.knex, other.organizationId, 1, { applicationsPerEnvironment: 1 });
    const otherApp = (await db.knex("applications").where({ project_id: projectId }).first()).id;
    const otherToken = await createAgentTokenFor(db.knex, other.organizationId, other.owner);
    const paths = ["/api/agent/projects", `/api/agent/application?applicationId=${otherApp}`];
    const statuses = async () => [
      ...(await Promise.all(paths.map(async (path) => (await agentGet(skiff.url, path, otherToken)).status))),
      (await mcpCall(otherToken)).status,
    ];
    const change = async (plan: string) =>
      expect(
        (await gql(skiff.url, CHANGE, { id: other.organizationId, plan }, { apiKey: other.owner.apiKey })).data,
      ).toEqual({ changePlan: { plan: { name: plan } } });
    // Twice: the second read confirms the caller this process remembers from the first.
    expect(await statuses()).toEqual([200, 200, 200]);
    await change("free");
    expect(await statuses()).toEqual([200, 200, 200]);
    expect(await statuses()).toEqual([200, 200, 200]);
    const CREATE = "mutation { createAgentToken { token } }";
    await setPassword(db.knex, other.owner.userId, "other-owner-password");
    const cookie = await signIn(skiff.url, other.owner.email, "other-owner-password");
    const refused = await gql(skiff.url, CREATE, {}, { cookie });
    expect(refused.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
  });
});

describe("old spellings", () => {
  it("answer 404 for /api/agentTools.<procedure>, with or without credentials", async () => {
    for (const procedure of ["listProjects", "getApplication", "listDeployments"]) {
      for (const credential of [token, org.owner.apiKey, undefined]) {
        const res = await agentGet(skiff.url, `/api/agentTools.${procedure}?applicationId=${appId}`, credential);
        expect(res.status, procedure).toBe(404);
        const post = await fetch(`${skiff.url}/api/agentTools.${procedure}`, {
          method: "POST",
          headers: { "content-type": "application/json", ...(credential ? { "x-api-key": credential } : {}) },
          body: JSON.stringify({ applicationId: appId }),
        });
        expect(post.status, procedure).toBe(404);
      }
    }
  });
});
