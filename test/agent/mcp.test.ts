/**
 * The MCP server at /mcp, driven by the SDK's own `Client` over Streamable HTTP against a real server: the tools, their
 * annotations and schemas; every tool's answer equal to the agent endpoint's body for an owner, an admin, a limited
 * member and another organization's token; tool errors with the agent API's codes; the refused credentials; the one
 * rate-limit counter shared with /api/agent/*; no planted secret in any tool output; whoami for every credential kind.
 */
import { randomBytes } from "node:crypto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { newId } from "../../src/db/ids.ts";
import { createSecretBox } from "../../src/db/secrets.ts";
import {
  addMember,
  createAgentTokenFor,
  createOrg,
  createProjects,
  setPassword,
  TEST_SECRET,
} from "../helpers/seed.ts";
import { useTestServer } from "../helpers/server.ts";
import { agentGet, signIn } from "./agent-client.ts";

const t = useTestServer({ SKIFF_WORKER: "false" });

type Row = Record<string, unknown>;
type ToolAnswer = { isError?: boolean; structuredContent?: Row; content: Array<{ type: string; text?: string }> };
/** A tool's answer with `body`: its structured content, or a tool error's body (`{ message, code, issues? }`, text). */
type Answer = ToolAnswer & { body: Row };

/** A connected MCP client sending `headers` on every request. */
async function connect(headers: Record<string, string>): Promise<Client> {
  const client = new Client({ name: "skiff-test", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${t.skiff.url}/mcp`), { requestInit: { headers } }));
  return client;
}

/**
 * Calls tool `name`; checks that the text content is the JSON of the answer, and that an error carries no structured
 * content (which clients validate against the output schema).
 */
async function call(client: Client, name: string, args: Row = {}): Promise<Answer> {
  const answer = (await client.callTool({ name, arguments: args })) as ToolAnswer;
  const text = JSON.parse(answer.content[0]!.text!) as Row;
  if (answer.isError) expect(answer.structuredContent).toBeUndefined();
  else expect(text).toEqual(answer.structuredContent);
  return { ...answer, body: text };
}

/** POSTs one JSON-RPC `tools/call` of tool `name` (no arguments) to /mcp with `headers`, as an MCP client sends it. */
function postToolCall(headers: Record<string, string>, name: string): Promise<Response> {
  return fetch(`${t.skiff.url}/mcp`, {
    method: "POST",
    headers: { ...headers, "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: {} } }),
  });
}

/** An organization with two projects (two applications each, deployments with logs), and its callers' tokens. */
async function seededOrg() {
  const org = await createOrg(t.db.knex);
  const [p1, p2] = await createProjects(t.db.knex, org.organizationId, 2, {
    applicationsPerEnvironment: 2,
    deploymentsPerApplication: 3,
    domainsPerApplication: 1,
    variablesPerApplication: 1,
  });
  const apps = async (projectId: string) =>
    (await t.db.knex("applications").where({ project_id: projectId }).orderBy("id")).map((r) => r.id as string);
  const [a1, a2] = await apps(p1!);
  const [b1] = await apps(p2!);
  const admin = await addMember(t.db.knex, org.organizationId, "admin");
  const limited = await addMember(t.db.knex, org.organizationId, "member", {
    projectIds: [p1!],
    applicationIds: [b1!],
  });
  const tokens = {
    owner: await createAgentTokenFor(t.db.knex, org.organizationId, org.owner),
    admin: await createAgentTokenFor(t.db.knex, org.organizationId, admin),
    limited: await createAgentTokenFor(t.db.knex, org.organizationId, limited),
  };
  return { ...org, admin, limited, tokens, projects: [p1!, p2!], apps: { a1: a1!, a2: a2!, b1: b1! } };
}

/** Adds `n` log lines to deployment `deploymentId`, one second apart. */
async function addLogs(deploymentId: string, n: number, text = (i: number) => `line ${i}`) {
  const rows = Array.from({ length: n }, (_, i) => ({
    deployment_id: deploymentId,
    at: new Date(Date.UTC(2026, 0, 1, 0, 0, i)),
    level: i % 7 === 0 ? "error" : "info",
    text: text(i),
  }));
  await t.db.knex("deployment_logs").insert(rows);
}

describe("MCP server", () => {
  it("lists five read-only tools with object JSON Schemas for input and output", async () => {
    const org = await seededOrg();
    const client = await connect({ authorization: `Bearer ${org.tokens.owner}` });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      "list_projects",
      "get_application",
      "list_deployments",
      "get_deployment",
      "whoami",
    ]);
    for (const tool of tools) {
      expect(tool.annotations, tool.name).toMatchObject({
        readOnlyHint: true,
        destructiveHint: false,
        openWorldHint: false,
      });
      expect(tool.inputSchema.type).toBe("object");
      expect(tool.outputSchema?.type, tool.name).toBe("object");
      expect(tool.description?.length).toBeGreaterThan(20);
    }
    const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
    expect(byName.get_application!.inputSchema.required).toEqual(["applicationId"]);
    expect(byName.list_deployments!.inputSchema.properties).toMatchObject({
      limit: { type: "integer", minimum: 1, maximum: 50 },
    });
    expect(byName.list_projects!.outputSchema!.required).toEqual(["projects"]);
    await client.close();
  });

  it("answers each tool as the agent endpoint does, for an owner, an admin, a limited member and another organization", async () => {
    const org = await seededOrg();
    const other = await createOrg(t.db.knex);
    await createProjects(t.db.knex, other.organizationId, 1, { applicationsPerEnvironment: 1 });
    const otherToken = await createAgentTokenFor(t.db.knex, other.organizationId, other.owner);
    const callers = { ...org.tokens, other: otherToken };
    for (const [who, token] of Object.entries(callers)) {
      const client = await connect({ "x-api-key": token });
      const rest = (path: string) => agentGet<unknown>(t.skiff.url, path, token);

      const projects = await call(client, "list_projects");
      expect(projects.isError, who).toBeFalsy();
      const restProjects = await rest("/api/agent/projects");
      expect(projects.body, who).toEqual({ projects: restProjects.body });
      const visible = (restProjects.body as Array<{ projectId: string }>).map((p) => p.projectId);
      if (who === "other") expect(visible).toHaveLength(1);
      else if (who === "limited") expect(visible.sort()).toEqual([...org.projects].sort());
      else expect(visible).toHaveLength(2);

      for (const applicationId of [org.apps.a1, org.apps.a2, org.apps.b1]) {
        const app = await call(client, "get_application", { applicationId });
        const restApp = await rest(`/api/agent/application?applicationId=${applicationId}`);
        if (who === "other") {
          expect(restApp.status).toBe(404);
          expect(app.isError).toBe(true);
          expect(app.body).toEqual(restApp.body);
          expect(app.body).toMatchObject({ code: "NOT_FOUND" });
        } else {
          expect(restApp.status, `${who} ${applicationId}`).toBe(200);
          expect(app.body).toEqual(restApp.body);
        }
        const deployments = await call(client, "list_deployments", { applicationId, limit: 2 });
        const restDeployments = await rest(`/api/agent/deployments?applicationId=${applicationId}&limit=2`);
        if (restDeployments.status === 200) {
          expect(deployments.body).toEqual({ deployments: restDeployments.body });
          expect((restDeployments.body as unknown[]).length).toBe(2);
        } else {
          expect(deployments.isError).toBe(true);
          expect(deployments.body).toEqual(restDeployments.body);
        }
      }

      const whoami = await call(client, "whoami");
      const restWhoami = await rest("/api/agent/whoami");
      expect(restWhoami.status).toBe(200);
      expect(whoami.body).toEqual(restWhoami.body);
      await client.close();
    }
  });

  it("a limited member sees granted applications only: another application of a granted project is visible, of an ungranted one NOT_FOUND", async () => {
    const org = await seededOrg();
    const [, p2] = org.projects;
    const [ungranted] = (await t.db.knex("applications").where({ project_id: p2 }).whereNot({ id: org.apps.b1 })).map(
      (r) => r.id as string,
    );
    const client = await connect({ "x-api-key": org.tokens.limited });
    expect((await call(client, "get_application", { applicationId: org.apps.b1 })).isError).toBeFalsy();
    const hidden = await call(client, "get_application", { applicationId: ungranted! });
    expect(hidden.isError).toBe(true);
    expect(hidden.body).toMatchObject({ code: "NOT_FOUND" });
    const projects = (await call(client, "list_projects")).body as { projects: Row[] };
    const appIds = JSON.stringify(projects.projects);
    expect(appIds).toContain(org.apps.b1);
    expect(appIds).not.toContain(ungranted);
    await client.close();
  });

  it("get_deployment answers the deployment and its newest log lines, newest last, bounded; NOT_FOUND elsewhere", async () => {
    const org = await seededOrg();
    const [deployment] = await t.db
      .knex("deployments")
      .where({ application_id: org.apps.a1 })
      .orderBy("created_at", "desc");
    await t.db
      .knex("deployments")
      .where({ id: deployment.id })
      .update({ status: "error", error_message: "build failed" });
    await addLogs(deployment.id, 150);
    const client = await connect({ "x-api-key": org.tokens.owner });

    const answer = await call(client, "get_deployment", { deploymentId: deployment.id });
    expect(answer.isError).toBeFalsy();
    const body = answer.body as Row & { logs: Row[] };
    expect(body).toMatchObject({
      deploymentId: deployment.id,
      applicationId: org.apps.a1,
      status: "error",
      errorMessage: "build failed",
      logLinesTotal: 150,
    });
    expect(body.logs).toHaveLength(100);
    expect(body.logs[0]!.text).toBe("line 50");
    expect(body.logs.at(-1)!.text).toBe("line 149");
    expect(body.logs.at(-1)).toEqual({ at: "2026-01-01T00:02:29.000Z", level: "info", text: "line 149" });

    const three = await call(client, "get_deployment", { deploymentId: deployment.id, logLines: 3 });
    expect((three.body as { logs: Row[] }).logs.map((l) => l.text)).toEqual(["line 147", "line 148", "line 149"]);
    // The listing's deployment row is the same as the tool's.
    const listed = (await call(client, "list_deployments", { applicationId: org.apps.a1, limit: 1 })).body as {
      deployments: Row[];
    };
    expect(body).toMatchObject(listed.deployments[0]!);

    const other = await createOrg(t.db.knex);
    const otherClient = await connect({
      "x-api-key": await createAgentTokenFor(t.db.knex, other.organizationId, other.owner),
    });
    const hidden = await call(otherClient, "get_deployment", { deploymentId: deployment.id });
    expect(hidden).toMatchObject({ isError: true, body: { code: "NOT_FOUND" } });
    const unknown = await call(client, "get_deployment", { deploymentId: "dpl_01jz0000000000000000000000" });
    expect(unknown).toMatchObject({ isError: true, body: { code: "NOT_FOUND" } });
    await Promise.all([client.close(), otherClient.close()]);
  });

  it("answers bad arguments as BAD_REQUEST tool errors naming the field", async () => {
    const org = await seededOrg();
    const client = await connect({ "x-api-key": org.tokens.owner });
    const cases: Array<[string, Row, string]> = [
      ["list_deployments", { applicationId: org.apps.a1, limit: 0 }, "limit"],
      ["list_deployments", { applicationId: org.apps.a1, limit: 51 }, "limit"],
      ["list_deployments", {}, "applicationId"],
      ["get_application", { applicationId: 42 }, "applicationId"],
      ["get_deployment", { deploymentId: "dpl_x", logLines: 501 }, "logLines"],
      ["get_application", { applicationId: org.apps.a1, extra: true }, "extra"],
    ];
    for (const [name, args, field] of cases) {
      const answer = await call(client, name, args);
      expect(answer.isError, `${name} ${JSON.stringify(args)}`).toBe(true);
      expect(answer.body).toMatchObject({ code: "BAD_REQUEST" });
      const issues = (answer.body as { issues: Array<{ path: string[] }> }).issues;
      expect(issues.map((i) => i.path.join("."))).toContain(field);
    }
    // A mistyped argument says what it must be; one mistake is one issue.
    const typed = await call(client, "get_application", { applicationId: 42 });
    expect((typed.body as { issues: unknown[] }).issues).toEqual([
      { path: ["applicationId"], message: "Must be a string" },
    ]);
    const huge = await call(client, "list_deployments", { applicationId: org.apps.a1, limit: 1e20 });
    expect((huge.body as { issues: unknown[] }).issues).toEqual([
      { path: ["limit"], message: "Must be an integer from 1 to 50" },
    ]);
    // The REST endpoint's words for the same mistakes (its query adds how an integer is spelled).
    const pairs: Array<[string, Row, string]> = [
      ["list_deployments", { applicationId: org.apps.a1, limit: 0 }, `applicationId=${org.apps.a1}&limit=0`],
      ["list_deployments", { applicationId: org.apps.a1, limit: "abc" }, `applicationId=${org.apps.a1}&limit=abc`],
      ["list_deployments", {}, ""],
      ["list_deployments", { applicationId: "" }, "applicationId="],
    ];
    for (const [name, args, query] of pairs) {
      const tool = ((await call(client, name, args)).body as { issues: Array<{ path: string[]; message: string }> })
        .issues;
      const rest = (await agentGet(t.skiff.url, `/api/agent/deployments?${query}`, org.tokens.owner)).body as {
        issues: Array<{ path: string[]; message: string }>;
      };
      expect(
        tool.map((i) => i.path),
        JSON.stringify(args),
      ).toEqual(rest.issues.map((i) => i.path));
      tool.forEach((issue, i) => {
        expect(rest.issues[i]!.message.startsWith(issue.message), `${issue.message} / ${rest.issues[i]!.message}`).toBe(
          true,
        );
      });
    }
    // Unknown arguments are named one by one, in the message and the issues.
    const unknown = await call(client, "get_application", { applicationId: org.apps.a1, x: 1, y: 2 });
    expect(unknown.body).toEqual({
      message: "Invalid argument: x, y",
      code: "BAD_REQUEST",
      issues: [
        { path: ["x"], message: "Unknown argument" },
        { path: ["y"], message: "Unknown argument" },
      ],
    });
    // A hostile input's answer does not grow with it: 20 issues listed, the rest counted; names cut as ids are.
    const many = Object.fromEntries(Array.from({ length: 5_000 }, (_, i) => [`k${i}`, i]));
    const flood = await call(client, "get_application", { applicationId: org.apps.a1, ...many });
    const floodBody = flood.body as { message: string; issues: unknown[] };
    expect(floodBody.issues).toHaveLength(20);
    expect(floodBody.message).toMatch(/ and 4980 more$/);
    const longName = await call(client, "get_application", { applicationId: org.apps.a1, ["z".repeat(100_000)]: 1 });
    expect(JSON.stringify(longName.body).length).toBeLessThan(1_000);
    // An unknown tool is a protocol error (-32602), its name cut as well.
    const unknownTool = await client.callTool({ name: "t".repeat(100_000), arguments: {} }).catch((e: unknown) => e);
    expect(unknownTool).toBeInstanceOf(McpError);
    expect((unknownTool as McpError).code).toBe(ErrorCode.InvalidParams);
    expect((unknownTool as McpError).message).toMatch(/Unknown tool: "t{80}… \(100000 characters\)"/);
    const nul = await call(client, "get_application", { applicationId: "app_\u0000" });
    expect(nul).toMatchObject({ isError: true, body: { code: "NOT_FOUND" } });
    // A hostile half-megabyte id is repeated by its first 80 characters and its length, not whole.
    const long = await call(client, "get_deployment", { deploymentId: `dpl_${"x".repeat(500_000)}` });
    expect(long).toMatchObject({ isError: true, body: { code: "NOT_FOUND" } });
    expect((long.body as { message: string }).message).toBe(
      `Deployment "dpl_${"x".repeat(76)}… (500004 characters)" not found`,
    );
    await client.close();
  });

  it("refuses account API keys, session cookies, unknown tokens and anonymous calls with 401", async () => {
    const org = await seededOrg();
    await setPassword(t.db.knex, org.owner.userId, "owner-password");
    const cookie = await signIn(t.skiff.url, org.owner.email, "owner-password");
    const refused: Array<Record<string, string>> = [
      {},
      { "x-api-key": org.owner.apiKey },
      { authorization: `Bearer ${org.owner.apiKey}` },
      { cookie },
      { "x-api-key": `${org.tokens.owner.slice(0, -4)}AAAA` },
    ];
    for (const headers of refused) {
      await expect(connect(headers), JSON.stringify(Object.keys(headers))).rejects.toThrow();
      const res = await postToolCall(headers, "whoami");
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ code: "UNAUTHORIZED" });
    }
    // A token revoked while a client is connected: its next call is refused.
    const client = await connect({ "x-api-key": org.tokens.admin });
    await client.callTool({ name: "whoami", arguments: {} });
    await t.db.knex("agent_tokens").where({ user_id: org.admin.userId }).delete();
    // A call refused before any read (bad arguments) of the token this instance remembers, then one that reads.
    await expect(call(client, "get_application", { applicationId: "" })).rejects.toThrow();
    await expect(call(client, "whoami")).rejects.toThrow();
    await client.close();
  });

  it("shares one 120-per-minute counter with /api/agent/*: the 121st call, REST or MCP, is refused", async () => {
    const org = await seededOrg();
    const client = await connect({ "x-api-key": org.tokens.owner });
    // initialize and tools/list are not counted: only tool calls and REST requests are.
    await client.listTools();
    const answers: boolean[] = [];
    for (let i = 0; i < 60; i += 10) {
      const batch = await Promise.all(
        Array.from({ length: 10 }, () => call(client, "list_projects").then((a) => !a.isError)),
      );
      answers.push(...batch);
      const rest = await Promise.all(
        Array.from({ length: 10 }, () => agentGet(t.skiff.url, "/api/agent/projects", org.tokens.owner)),
      );
      answers.push(...rest.map((r) => r.status === 200));
    }
    expect(answers.filter(Boolean)).toHaveLength(120);
    const over = await call(client, "whoami");
    expect(over).toMatchObject({ isError: true, body: { code: "UNAUTHORIZED" } });
    expect(JSON.stringify(over.body)).toContain("Rate limit");
    expect((await agentGet(t.skiff.url, "/api/agent/projects", org.tokens.owner)).status).toBe(401);
    // Another token's counter is its own.
    const admin = await connect({ "x-api-key": org.tokens.admin });
    expect((await call(admin, "whoami")).isError).toBeFalsy();
    await Promise.all([client.close(), admin.close()]);
  });

  it("no tool output holds a planted secret", async () => {
    const org = await seededOrg();
    const box = createSecretBox(TEST_SECRET);
    const planted = {
      env: `planted-env-${randomBytes(6).toString("hex")}`,
      webhook: `planted-webhook-${randomBytes(6).toString("hex")}`,
      deployToken: `planted-deploy-${randomBytes(6).toString("hex")}`,
    };
    for (const applicationId of Object.values(org.apps)) {
      await t.db.knex("environment_variables").insert({
        id: newId("envVar"),
        application_id: applicationId,
        key: "PLANTED_SECRET",
        value_encrypted: box.encrypt(planted.env),
      });
      await t.db
        .knex("applications")
        .where({ id: applicationId })
        .update({
          webhook_secret_encrypted: box.encrypt(planted.webhook),
          deploy_token_encrypted: box.encrypt(planted.deployToken),
        });
    }
    const [deployment] = await t.db.knex("deployments").where({ application_id: org.apps.a1 });
    await addLogs(deployment.id, 5);
    const secrets = [...Object.values(planted), ...Object.values(org.tokens), org.owner.apiKey, "value-0"];
    const outputs: string[] = [];
    for (const token of Object.values(org.tokens)) {
      const client = await connect({ "x-api-key": token });
      const answers = [await call(client, "list_projects"), await call(client, "whoami")];
      for (const applicationId of Object.values(org.apps)) {
        answers.push(await call(client, "get_application", { applicationId }));
        answers.push(await call(client, "list_deployments", { applicationId, limit: 50 }));
      }
      answers.push(await call(client, "get_deployment", { deploymentId: deployment.id, logLines: 500 }));
      outputs.push(...answers.map((a) => JSON.stringify(a)));
      await client.close();
    }
    const hits = secrets.flatMap((secret) => outputs.filter((o) => o.includes(secret)).map(() => secret));
    expect(hits).toEqual([]);
    // The sweep read real answers: the applications and the log are in them.
    expect(outputs.join("\n")).toContain(org.apps.b1);
    expect(outputs.join("\n")).toContain("line 4");
  });
});

describe("the Streamable HTTP transport", () => {
  it("checks Accept, Content-Type, messages and protocol version; answers batches, notifications and raw JSON text", async () => {
    const org = await seededOrg();
    const post = (body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${t.skiff.url}/mcp`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${org.tokens.owner}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...headers,
        },
        body: typeof body === "string" ? body : JSON.stringify(body),
      });
    const list = { jsonrpc: "2.0", id: 7, method: "tools/list" };
    expect((await post(list, { accept: "application/json" })).status).toBe(406);
    expect((await post(list, { "content-type": "text/plain" })).status).toBe(415);
    // JSON that is no JSON-RPC 2.0 message: -32600 Invalid Request (JSON-RPC 2.0 §5.1), not a parse error.
    for (const notRpc of [
      { jsonrpc: "2.0", nonsense: true },
      { id: 1, method: "tools/list" },
      { jsonrpc: "1.0", id: 1, method: "tools/list" },
      { jsonrpc: "2.0", id: {}, method: "tools/list" },
    ]) {
      const invalid = await post(notRpc);
      expect(invalid.status).toBe(400);
      expect(await invalid.json()).toMatchObject({ jsonrpc: "2.0", error: { code: -32600 }, id: null });
    }
    // Refused before the route runs, the transport's JSON-RPC shape all the same (with the agent API's message, code).
    const malformed = await post("{ not json");
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ jsonrpc: "2.0", error: { code: -32700 }, id: null });
    const untyped = await post(list, { "content-type": "" });
    expect(untyped.status).toBe(415);
    expect(await untyped.json()).toMatchObject({ jsonrpc: "2.0", error: { code: -32000 }, id: null });
    const put = await fetch(`${t.skiff.url}/mcp`, { method: "PUT", body: "x" });
    expect(put.status).toBe(405);
    expect(put.headers.get("allow")).toBe("POST");
    expect(await put.json()).toMatchObject({ jsonrpc: "2.0", code: "METHOD_NOT_ALLOWED" });
    // An empty batch is an invalid request (JSON-RPC 2.0, Batch), not an answer with nothing in it.
    const empty = await post([]);
    expect(empty.status).toBe(400);
    expect(await empty.json()).toMatchObject({ jsonrpc: "2.0", error: { code: -32600 }, id: null });
    expect((await post(list, { "mcp-protocol-version": "1999-01-01" })).status).toBe(400);
    // Params that do not fit their method are the client's error (-32602 Invalid params, naming the field), for
    // every method, alone or in a batch beside a valid request; a method no client may send is -32601.
    const misfits: Array<[string, unknown, string]> = [
      ["tools/call", { name: "get_application", arguments: "x" }, "params.arguments"],
      ["tools/call", {}, "params.name"],
      ["tools/list", { cursor: 5 }, "params.cursor"],
      ["initialize", { protocolVersion: 5 }, "params.protocolVersion"],
    ];
    for (const [method, params, field] of misfits) {
      const answer = await post({ jsonrpc: "2.0", id: 9, method, params });
      expect(answer.status, method).toBe(200);
      const { error } = (await answer.json()) as { error: { code: number; message: string } };
      expect(error.code, method).toBe(-32602);
      expect(error.message).toContain(`Invalid params: ${field}: `);
    }
    const mixed = await post([
      { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: 5 } },
      { jsonrpc: "2.0", id: 2, method: "tools/list" },
    ]);
    const [bad, good] = (await mixed.json()) as Array<{ id: number; error?: { code: number }; result?: unknown }>;
    expect(bad).toMatchObject({ id: 1, error: { code: -32602 } });
    expect(good).toMatchObject({ id: 2, result: { tools: expect.any(Array) } });
    const unknownMethod = await post({ jsonrpc: "2.0", id: 3, method: "resources/nonsense" });
    expect(await unknownMethod.json()).toMatchObject({ error: { code: -32601 } });
    const note = await post({ jsonrpc: "2.0", method: "notifications/initialized" });
    expect(note.status).toBe(202);
    expect(await note.text()).toBe("");
    // A batch: one answer per request, in order, each with its own id; the tool's text is its structured content.
    // Each of its tool calls counts as one request against the rate limit.
    const points = async () =>
      Number((await t.db.knex("agent_rate_limits").where("key", "like", "agent:%").sum("points as n").first())?.n ?? 0);
    const counted = await points();
    const batch = await post([
      { jsonrpc: "2.0", id: "a", method: "tools/call", params: { name: "list_projects", arguments: {} } },
      { jsonrpc: "2.0", id: "b", method: "tools/call", params: { name: "whoami", arguments: {} } },
      { jsonrpc: "2.0", method: "notifications/initialized" },
    ]);
    expect(batch.status).toBe(200);
    const answers = (await batch.json()) as Array<{ id: string; result: ToolAnswer }>;
    expect(answers.map((a) => a.id)).toEqual(["a", "b"]);
    expect((await points()) - counted).toBe(2);
    for (const answer of answers) {
      expect(JSON.parse(answer.result.content[0]!.text!)).toEqual(answer.result.structuredContent);
    }
    expect((answers[0]!.result.structuredContent!.projects as unknown[]).length).toBe(2);
    expect(await agentGet(t.skiff.url, "/api/agent/projects", org.tokens.owner)).toMatchObject({
      body: answers[0]!.result.structuredContent!.projects,
    });
  });

  it("answers POSTs sent at once with the same JSON-RPC id each with its own caller's answer", async () => {
    const org = await seededOrg();
    const other = await seededOrg();
    const callers = [org.tokens.owner, org.tokens.limited, other.tokens.owner];
    const expected = await Promise.all(
      callers.map(async (token) => (await agentGet(t.skiff.url, "/api/agent/projects", token)).body),
    );
    const sends = Array.from({ length: 30 }, (_, i) => i % callers.length).map(async (which) => {
      const response = await postToolCall({ authorization: `Bearer ${callers[which]}` }, "list_projects");
      expect(response.status).toBe(200);
      const answer = (await response.json()) as { id: number; result: ToolAnswer };
      return { which, answer };
    });
    for (const { which, answer } of await Promise.all(sends)) {
      expect(answer.id).toBe(1);
      expect(answer.result.structuredContent!.projects).toEqual(expected[which]);
    }
    // The three callers see different projects, so a crossed answer would show.
    expect(new Set(expected.map((body) => JSON.stringify(body))).size).toBe(3);
  });
});

describe("who am I", () => {
  it("answers for an agent token (tool and GET /api/agent/whoami), an API key and a session (GET /api/whoami, viewer.credential)", async () => {
    const org = await seededOrg();
    const organization = { organizationId: org.organizationId, name: expect.any(String) };
    // Agent token of a limited member.
    const agent = await agentGet<Row>(t.skiff.url, "/api/agent/whoami", org.tokens.limited, "bearer");
    expect(agent.status, JSON.stringify(agent.body)).toBe(200);
    expect(agent.body).toEqual({
      user: { userId: org.limited.userId, email: org.limited.email, name: expect.any(String) },
      organization,
      role: "member",
      credential: {
        kind: "agent_token",
        name: null,
        prefix: org.tokens.limited.slice(0, 16),
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        lastUsedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        expiresAt: null,
        grants: { projectIds: [org.projects[0]], applicationIds: [org.apps.b1] },
        surfaces: ["agent", "mcp"],
      },
    });
    // An agent token is not accepted by /api/whoami, an API key not by /api/agent/whoami.
    expect((await agentGet(t.skiff.url, "/api/whoami", org.tokens.owner)).status).toBe(401);
    expect((await agentGet(t.skiff.url, "/api/agent/whoami", org.owner.apiKey)).status).toBe(401);
    expect((await agentGet(t.skiff.url, "/api/whoami")).status).toBe(401);

    // An account API key of the owner.
    const key = await agentGet<Row>(t.skiff.url, "/api/whoami", org.owner.apiKey);
    expect(key.status).toBe(200);
    expect(key.body).toMatchObject({
      user: { userId: org.owner.userId, email: org.owner.email },
      organization,
      role: "owner",
      credential: {
        kind: "api_key",
        name: "test",
        prefix: org.owner.apiKey.slice(0, 10),
        expiresAt: null,
        grants: null,
        surfaces: ["graphql", "rest"],
      },
    });

    // A session cookie, on REST and GraphQL alike.
    await setPassword(t.db.knex, org.admin.userId, "admin-password");
    const cookie = await signIn(t.skiff.url, org.admin.email, "admin-password");
    const session = await agentGet<Row>(t.skiff.url, "/api/whoami", undefined, "x-api-key", { cookie });
    expect(session.status).toBe(200);
    expect(session.body).toMatchObject({
      user: { userId: org.admin.userId },
      credential: { kind: "session", name: null, prefix: null, grants: null, surfaces: ["graphql", "rest"] },
    });
    const gql = await fetch(`${t.skiff.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie },
      body: JSON.stringify({ query: "{ viewer { authenticatedBy credential { kind expiresAt } } }" }),
    });
    const { data } = (await gql.json()) as { data: { viewer: { authenticatedBy: string; credential: Row } } };
    expect(data.viewer.authenticatedBy).toBe("session");
    expect(data.viewer.credential.kind).toBe("session");
    expect(data.viewer.credential.expiresAt).toEqual(expect.stringMatching(/^\d{4}-/));

    // A user JWT of that session: a session that names no session row, answered as of the request (never null).
    const issued = await fetch(`${t.skiff.url}/api/auth/token`, { headers: { cookie } });
    const { token: jwt } = (await issued.json()) as { token: string };
    const before = Date.now();
    const byJwt = await agentGet<Row>(t.skiff.url, "/api/whoami", undefined, "x-api-key", {
      authorization: `Bearer ${jwt}`,
    });
    expect(byJwt.status, JSON.stringify(byJwt.body)).toBe(200);
    expect(byJwt.body).toMatchObject({
      user: { userId: org.admin.userId },
      credential: {
        kind: "session",
        name: null,
        prefix: null,
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        lastUsedAt: null,
        expiresAt: null,
        grants: null,
        surfaces: ["graphql", "rest"],
      },
    });
    const createdAt = Date.parse((byJwt.body.credential as Row).createdAt as string);
    expect(Math.abs(createdAt - before)).toBeLessThan(10_000);
    const jwtGql = await fetch(`${t.skiff.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${jwt}` },
      body: JSON.stringify({ query: "{ viewer { authenticatedBy credential { kind createdAt expiresAt } } }" }),
    });
    const jwtAnswer = (await jwtGql.json()) as { data?: { viewer: { credential: Row | null } }; errors?: unknown };
    expect(jwtAnswer.errors).toBeUndefined();
    expect(jwtAnswer.data?.viewer.credential).toEqual({
      kind: "session",
      createdAt: expect.stringMatching(/^\d{4}-/),
      expiresAt: null,
    });

    // No secret in any answer.
    for (const body of [agent.body, key.body, session.body, byJwt.body]) {
      const text = JSON.stringify(body);
      for (const secret of [org.tokens.limited, org.owner.apiKey, jwt]) expect(text).not.toContain(secret);
    }
  });
});
