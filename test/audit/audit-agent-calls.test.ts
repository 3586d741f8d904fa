/**
 * The audit entries of refused agent API and MCP calls (docs/audit-log.md: every call of `/api/agent/*` and every
 * tool call of `/mcp` leaves exactly one entry, `refused` for input and rate-limit refusals), on a real server and
 * database, MCP driven by the SDK's own `Client` (raw JSON-RPC POSTs only where the SDK sends no such message, or to
 * reach a token this instance has not seen yet): bad arguments, unknown tools and arguments, params that do not fit,
 * batches, and every call over the rate limit, on REST and MCP, on the first-sight and the remembered-token paths;
 * and none for a remembered agent token or API key that no longer verifies (revoked, replaced, deleted).
 */
import { randomUUID } from "node:crypto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import type { AuditRow } from "../helpers/audit-rows.ts";
import { addMember, createAgentTokenFor, createOrg, createProjects } from "../helpers/seed.ts";
import { useTestServer } from "../helpers/server.ts";

/** Requests per minute per token on this server: small, so that the tests reach it quickly. */
const LIMIT = 8;
const t = useTestServer({ SKIFF_WORKER: "false", SKIFF_AGENT_RATE_LIMIT: String(LIMIT) });

/** One stored entry, as its columns are named. */
type Row = AuditRow;

/** An organization with one project and its application, and `tokens` agent tokens of as many members. */
async function seeded(tokens: number) {
  const org = await createOrg(t.db.knex);
  const [projectId] = await createProjects(t.db.knex, org.organizationId, 1, { applicationsPerEnvironment: 1 });
  const app = await t.db.knex("applications").where({ project_id: projectId }).first("id");
  const callers = [];
  for (let i = 0; i < tokens; i++) {
    const member = i === 0 ? org.owner : await addMember(t.db.knex, org.organizationId, "admin");
    const secret = await createAgentTokenFor(t.db.knex, org.organizationId, member);
    const { id } = await t.db.knex("agent_tokens").where({ user_id: member.userId }).first("id");
    callers.push({ secret, tokenId: id as string, userId: member.userId });
  }
  return { organizationId: org.organizationId, applicationId: app.id as string, callers };
}
type Caller = Awaited<ReturnType<typeof seeded>>["callers"][number];

/** Every entry of agent token `tokenId`, oldest first. */
async function entriesOf(tokenId: string): Promise<Row[]> {
  return t.db.knex("audit_events").where({ credentialId: tokenId }).orderBy("id");
}

/** Runs `call` and answers the entries it added for `caller`'s token (entries are written before the answer). */
async function added(caller: Caller, call: () => Promise<unknown>): Promise<Row[]> {
  const before = (await entriesOf(caller.tokenId)).length;
  await call();
  return (await entriesOf(caller.tokenId)).slice(before);
}

/** Checks that `entries` is exactly one entry by `caller` in `organizationId`, and returns it. */
function one(entries: Row[], caller: Caller, organizationId: string): Row {
  expect(entries, JSON.stringify(entries)).toHaveLength(1);
  const [entry] = entries as [Row];
  expect(entry).toMatchObject({
    organizationId,
    actorKind: "USER",
    actorUserId: caller.userId,
    credentialKind: "AGENT_TOKEN",
    credentialId: caller.tokenId,
  });
  return entry;
}

/** GETs an agent API path with `caller`'s token; the status and decoded body. */
async function agentGet(caller: Caller, path: string) {
  const res = await fetch(`${t.skiff.url}${path}`, { headers: { "x-api-key": caller.secret } });
  return { status: res.status, body: (await res.json()) as { message: string; code: string } };
}

/** A connected MCP client of `caller`'s token (initialize authenticates the token without counting it). */
async function connect(caller: Caller): Promise<Client> {
  const client = new Client({ name: "skiff-audit-test", version: "1.0.0" });
  const url = new URL(`${t.skiff.url}/mcp`);
  await client.connect(
    new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: `Bearer ${caller.secret}` } } }),
  );
  return client;
}

/** Calls tool `name` through the SDK client; the tool error's body (`{ message, code }`), or null on success. */
async function callTool(client: Client, name: string, args: Record<string, unknown>) {
  const answer = (await client.callTool({ name, arguments: args }).catch((e: unknown) => {
    // A protocol error (an unknown tool: -32602) as the JSON-RPC code it carries.
    if (e instanceof McpError) return { isError: true, content: [{ text: JSON.stringify({ code: e.code }) }] };
    throw e;
  })) as {
    isError?: boolean;
    content: Array<{ text?: string }>;
  };
  return answer.isError ? (JSON.parse(answer.content[0]!.text!) as { message: string; code: string }) : null;
}

/** POSTs JSON-RPC `message` (one or a batch) to /mcp with `caller`'s token, as an MCP client sends it. */
async function post(caller: Caller, message: unknown): Promise<unknown> {
  const res = await fetch(`${t.skiff.url}/mcp`, {
    method: "POST",
    headers: {
      "x-api-key": caller.secret,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "x-request-id": `audit-${randomUUID()}`,
    },
    body: JSON.stringify(message),
  });
  expect(res.status).toBe(200);
  return res.json();
}

/** One JSON-RPC `tools/call` of tool `name` with `args`. */
function toolCall(name: unknown, args: unknown, id: number | string = 1) {
  return { jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } };
}

/** The tool error body of a lone `tools/call` answer. */
function toolErrorOf(answer: unknown): { message: string; code: string | number } {
  const { result, error } = answer as {
    result?: { isError?: boolean; content: Array<{ text: string }> };
    error?: { message: string; code: number };
  };
  // A protocol error (an unknown tool: -32602) as its JSON-RPC code and message.
  if (error) return error;
  expect(result!.isError).toBe(true);
  return JSON.parse(result!.content[0]!.text) as { message: string; code: string };
}

describe("refused agent API and MCP calls", () => {
  it("leave one refused entry each for their input, REST and MCP alike; an MCP entry names its tool", async () => {
    const { organizationId, applicationId, callers } = await seeded(5);
    const [remembered, ...firstSight] = callers as [Caller, ...Caller[]];
    const refusal = (entries: Row[], caller: Caller, surface: string, action: string) =>
      expect(one(entries, caller, organizationId)).toMatchObject({
        surface,
        action,
        outcome: "refused",
        targetIds: [],
      });

    // The REST twin: a limit out of range.
    const rest = await added(remembered, async () => {
      const res = await agentGet(remembered, `/api/agent/deployments?applicationId=${applicationId}&limit=0`);
      expect(res.status).toBe(400);
    });
    refusal(rest, remembered, "AGENT", "agent.AgentDeployments");

    // Through the SDK client, whose token this instance remembers once initialize has resolved it.
    const client = await connect(remembered);
    expect(await added(remembered, () => client.listTools())).toEqual([]);
    const cases: Array<[string, Record<string, unknown>, string, string | number]> = [
      ["get_application", {}, "mcp.get_application", "BAD_REQUEST"],
      ["nope", {}, "mcp.unknown_tool", -32602],
      ["get_application", { applicationId, x: 1 }, "mcp.get_application", "BAD_REQUEST"],
      ["list_deployments", { applicationId, limit: 0 }, "mcp.list_deployments", "BAD_REQUEST"],
    ];
    for (const [name, args, action, code] of cases) {
      const entries = await added(remembered, async () => {
        expect(await callTool(client, name, args)).toMatchObject({ code });
      });
      refusal(entries, remembered, "MCP", action);
    }
    // A call that runs names its tool too, and the ids it named.
    const ok = await added(remembered, async () => {
      expect(await callTool(client, "get_application", { applicationId })).toBeNull();
    });
    expect(one(ok, remembered, organizationId)).toMatchObject({
      surface: "MCP",
      action: "mcp.get_application",
      outcome: "ok",
      targetIds: [applicationId],
    });
    // A deployment read by id (through `_entities`) is named too, found or not.
    const deploymentId = "dpl_01m8kjee9fecwaa8b74jfdwrwt";
    const read = await added(remembered, async () => {
      expect(await callTool(client, "get_deployment", { deploymentId })).toMatchObject({ code: "NOT_FOUND" });
    });
    expect(one(read, remembered, organizationId)).toMatchObject({
      action: "mcp.get_deployment",
      outcome: "refused",
      targetIds: [deploymentId],
    });
    await client.close();

    // Tokens this instance has not seen: authenticated (and counted) with the POST, then refused for their input.
    for (const [i, [name, args, action, code]] of cases.slice(0, 3).entries()) {
      const caller = firstSight[i]!;
      const entries = await added(caller, async () => {
        expect(toolErrorOf(await post(caller, toolCall(name, args)))).toMatchObject({ code });
      });
      refusal(entries, caller, "MCP", action);
    }

    // Params that do not fit `tools/call` (-32602, answered by the transport): counted, and refused with an entry.
    const misfit = firstSight[3]!;
    for (const [name, args, action] of [
      ["get_application", "x", "mcp.get_application"],
      [5, {}, "mcp.unknown_tool"],
    ] as const) {
      const entries = await added(misfit, async () => {
        expect(await post(misfit, toolCall(name, args))).toMatchObject({ error: { code: -32602 } });
      });
      refusal(entries, misfit, "MCP", action);
    }
    // A batch: one entry per tool call, those whose params do not fit (-32602, no tool run) included.
    const batch = await added(misfit, async () => {
      const answers = (await post(misfit, [
        toolCall("nope", {}, "a"),
        toolCall("whoami", {}, "b"),
        toolCall("get_application", "x", "c"),
      ])) as unknown[];
      expect(answers).toHaveLength(3);
    });
    // The calls of a batch run side by side: their entries in any order.
    expect(batch.map((e) => [e.action, e.outcome]).sort()).toEqual([
      ["mcp.get_application", "refused"],
      ["mcp.unknown_tool", "refused"],
      ["mcp.whoami", "ok"],
    ]);
  });

  it("leave one refused entry per call over the rate limit, REST and MCP alike, whichever path refuses it", async () => {
    const { organizationId, applicationId, callers } = await seeded(1);
    const caller = callers[0]!;
    const refused = (entries: Row[], surface: string, action: string, targetIds: string[]) =>
      expect(one(entries, caller, organizationId)).toMatchObject({ surface, action, outcome: "refused", targetIds });

    for (let i = 0; i < LIMIT; i++) expect((await agentGet(caller, "/api/agent/projects")).status).toBe(200);
    expect(await entriesOf(caller.tokenId)).toHaveLength(LIMIT);

    // REST: the first refusal comes from the read of the remembered token, the later ones from authentication.
    for (let i = 0; i < 5; i++) {
      const entries = await added(caller, async () => {
        const res = await agentGet(caller, `/api/agent/application?applicationId=${applicationId}`);
        expect(res).toMatchObject({ status: 401, body: { code: "UNAUTHORIZED" } });
        expect(res.body.message).toContain("Rate limit");
      });
      refused(entries, "AGENT", "agent.AgentApplication", [applicationId]);
    }
    const badInput = await added(caller, async () => {
      expect((await agentGet(caller, `/api/agent/deployments?applicationId=${applicationId}&limit=0`)).status).toBe(
        401,
      );
    });
    refused(badInput, "AGENT", "agent.AgentDeployments", []);

    // MCP, a token refused as the POST is authenticated: a valid call names its ids, a refused input none.
    const lone: Array<[string, Record<string, unknown>, string, string[]]> = [
      ["list_projects", {}, "mcp.list_projects", []],
      ["get_application", { applicationId }, "mcp.get_application", [applicationId]],
      ["get_application", {}, "mcp.get_application", []],
      ["nope", {}, "mcp.unknown_tool", []],
    ];
    for (const [name, args, action, targets] of lone) {
      const entries = await added(caller, async () => {
        const body = toolErrorOf(await post(caller, toolCall(name, args)));
        // An unknown tool is a protocol error whatever the limit; the others are refused for it.
        if (name === "nope") expect(body).toEqual({ code: -32602, message: 'MCP error -32602: Unknown tool: "nope"' });
        else expect(body).toMatchObject({ code: "UNAUTHORIZED", message: expect.stringContaining("Rate limit") });
      });
      refused(entries, "MCP", action, targets);
    }
    const batch = await added(caller, () => post(caller, [toolCall("whoami", {}, "a"), toolCall("nope", {}, "b")]));
    expect(batch.map((e) => [e.action, e.outcome]).sort()).toEqual([
      ["mcp.unknown_tool", "refused"],
      ["mcp.whoami", "refused"],
    ]);

    // MCP through the SDK client, whose initialize (not counted) makes the token remembered again: refused by the
    // row's read, or, for bad arguments, by the confirmation that counts the call.
    for (const [name, args, action] of [
      ["list_projects", {}, "mcp.list_projects"],
      ["get_application", { x: 1 }, "mcp.get_application"],
    ] as const) {
      const client = await connect(caller);
      const entries = await added(caller, async () => {
        expect(await callTool(client, name, args)).toMatchObject({ code: "UNAUTHORIZED" });
      });
      refused(entries, "MCP", action, []);
      await client.close();
    }

    // Every call since the limit was reached has its entry; none holds the token.
    const all = await entriesOf(caller.tokenId);
    expect(all.filter((e) => e.outcome === "refused")).toHaveLength(5 + 1 + lone.length + 2 + 2);
    expect(JSON.stringify(all)).not.toContain(caller.secret);
  });
});

describe("calls whose remembered credential no longer verifies", () => {
  /** POSTs JSON-RPC `message` to /mcp with `secret`; the HTTP status. */
  const postStatus = async (secret: string, message: unknown) =>
    (
      await fetch(`${t.skiff.url}/mcp`, {
        method: "POST",
        headers: {
          "x-api-key": secret,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: JSON.stringify(message),
      })
    ).status;

  it("leave no entry once the agent token is revoked or replaced, REST and MCP alike", async () => {
    const { organizationId, applicationId, callers } = await seeded(4);
    const [revokedRest, replacedRest, revokedMcp, replacedMcp] = callers as [Caller, Caller, Caller, Caller];
    const member = async (caller: Caller) => {
      const { memberId } = await t.db
        .knex("members")
        .where({ user_id: caller.userId, organization_id: organizationId })
        .first("id as memberId");
      return { userId: caller.userId, memberId: memberId as string };
    };
    const revoke = (caller: Caller) => t.db.knex("agent_tokens").where({ id: caller.tokenId }).delete();
    const replace = async (caller: Caller) => {
      await createAgentTokenFor(t.db.knex, organizationId, await member(caller));
    };
    const orgEntries = () =>
      t.db.knex("audit_events").where({ organizationId }).count<{ count: string }[]>("* as count");

    for (const [caller, end] of [
      [revokedRest, revoke],
      [replacedRest, replace],
    ] as const) {
      // Used once: this instance remembers the token.
      expect(
        await added(caller, async () => expect((await agentGet(caller, "/api/agent/whoami")).status).toBe(200)),
      ).toHaveLength(1);
      await end(caller);
      const before = await orgEntries();
      for (const path of ["/api/agent/whoami", `/api/agent/deployments?applicationId=${applicationId}&limit=0`]) {
        expect(await added(caller, async () => expect((await agentGet(caller, path)).status).toBe(401))).toEqual([]);
      }
      expect(await orgEntries()).toEqual(before);
    }

    for (const [caller, end] of [
      [revokedMcp, revoke],
      [replacedMcp, replace],
    ] as const) {
      expect(
        await added(caller, async () => expect(await postStatus(caller.secret, toolCall("whoami", {}))).toBe(200)),
      ).toHaveLength(1);
      await end(caller);
      const before = await orgEntries();
      for (const [name, args] of [
        ["whoami", {}],
        ["get_application", { applicationId }],
        ["get_application", {}],
        ["nope", {}],
      ] as const) {
        expect(
          await added(caller, async () => expect(await postStatus(caller.secret, toolCall(name, args))).toBe(401)),
        ).toEqual([]);
      }
      expect(await orgEntries()).toEqual(before);
    }
  });

  it("leave no entry once the API key is deleted, a procedure refused for its input included", async () => {
    const { organizationId } = await seeded(0);
    const admin = await addMember(t.db.knex, organizationId, "admin");
    const keyEntries = () => t.db.knex("audit_events").where({ credentialId: admin.apiKeyId });
    const create = (body: unknown) =>
      fetch(`${t.skiff.url}/api/project.create`, {
        method: "POST",
        headers: { authorization: `Bearer ${admin.apiKey}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    // Used once: this instance remembers the key.
    expect((await create({ name: `p-${randomUUID().slice(0, 8)}` })).status).toBe(200);
    expect(await keyEntries()).toHaveLength(1);
    await t.db.knex("api_keys").where({ id: admin.apiKeyId }).delete();
    expect((await create({ name: 5 })).status).toBe(401);
    expect((await create({ name: "x" })).status).toBe(401);
    expect(await keyEntries()).toHaveLength(1);
  });
});
