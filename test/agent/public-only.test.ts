/**
 * The public-API-only switch (spec: Versioning, rule 6): with SKIFF_PUBLIC_API_ONLY=true every path except
 * the published ones answers 404 — unpublished table rows and routes registered outside the table alike —
 * while the published endpoints keep working.
 */
import Fastify from "fastify";
import { describe, expect, it } from "vitest";
import type { SkiffServer } from "../../src/server/app.ts";
import { registerRestRoutes } from "../../src/server/rest-runner.ts";
import type { AnyRestRoute } from "../../src/shared/rest-route.ts";
import { createAgentTokenFor, createOrg, createProjects } from "../helpers/seed.ts";
import { gql, useTestServer } from "../helpers/server.ts";
import { agentGet } from "./agent-client.ts";

const t = useTestServer({ SKIFF_PUBLIC_API_ONLY: "true" });

describe("SKIFF_PUBLIC_API_ONLY=true on a running server", () => {
  it("keeps the agent endpoints, the OpenAPI document, /graphql, /api/auth and the health probes", async () => {
    const org = await createOrg(t.db.knex);
    const [projectId] = await createProjects(t.db.knex, org.organizationId, 1, { applicationsPerEnvironment: 1 });
    const { id: appId } = await t.db.knex("applications").where({ project_id: projectId }).first("id");
    const token = await createAgentTokenFor(t.db.knex, org.organizationId, org.owner);
    for (const path of [
      "/api/agent/projects",
      `/api/agent/application?applicationId=${appId}`,
      `/api/agent/deployments?applicationId=${appId}`,
    ]) {
      expect((await agentGet(t.skiff.url, path, token)).status, path).toBe(200);
    }
    expect((await fetch(`${t.skiff.url}/api/agent/openapi.json`)).status).toBe(200);
    expect((await gql(t.skiff.url, "{ viewer { role } }", {}, { apiKey: org.owner.apiKey })).data).toEqual({
      viewer: { role: "owner" },
    });
    expect((await fetch(`${t.skiff.url}/api/auth/ok`)).status).toBe(200);
    expect((await fetch(`${t.skiff.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${t.skiff.url}/readyz`)).status).toBe(200);
    expect((await fetch(`${t.skiff.url}/metrics`)).status).toBe(200);
  });

  it("answers 404 elsewhere, old agent spellings and who-am-I (not in the published list) included", async () => {
    for (const path of ["/api/agentTools.listProjects", "/api/siteImport.list", "/api/agent", "/nope"]) {
      expect((await fetch(`${t.skiff.url}${path}`)).status, path).toBe(404);
    }
    const org = await createOrg(t.db.knex);
    const token = await createAgentTokenFor(t.db.knex, org.organizationId, org.owner);
    expect((await agentGet(t.skiff.url, "/api/agent/whoami", token)).status).toBe(404);
    expect((await fetch(`${t.skiff.url}/api/whoami`, { headers: { "x-api-key": org.owner.apiKey } })).status).toBe(404);
  });

  it("publishes in its OpenAPI documents only paths it answers: none of them answers the 404 of a missing route", async () => {
    const missing = await fetch(`${t.skiff.url}/api/never.existed`);
    const noRoute = await missing.text();
    const problems: string[] = [];
    for (const document of ["/api/openapi.json", "/api/agent/openapi.json"]) {
      const { paths } = (await (await fetch(`${t.skiff.url}${document}`)).json()) as {
        paths: Record<string, Record<string, unknown>>;
      };
      for (const [path, operations] of Object.entries(paths)) {
        for (const method of Object.keys(operations)) {
          const url = `${t.skiff.url}${path.replaceAll(/\{[^}]+\}/g, "x")}`;
          const res = await fetch(url, { method: method.toUpperCase() });
          if (res.status === 404 && (await res.text()) === noRoute) problems.push(`${document}: ${method} ${path}`);
        }
      }
    }
    expect(problems).toEqual([]);
    const agent = (await (await fetch(`${t.skiff.url}/api/agent/openapi.json`)).json()) as { paths: object };
    expect(Object.keys(agent.paths)).not.toContain("/api/agent/whoami");
  });
});

describe("the guard of the route table runner", () => {
  /** A Fastify app with one published and one unpublished static row, an outside route, and the guard on or off. */
  async function build(publicOnly: boolean) {
    const app = Fastify();
    app.get("/healthz", async () => ({ status: "ok" }));
    app.post("/api/internal.procedure", async () => ({ internal: true }));
    app.register(async (scope) => scope.get("/api/plugin/*", async () => ({ plugin: true })));
    const serve = () => ({ status: 200, body: { ok: true } });
    const routes: AnyRestRoute[] = [
      { method: "GET", path: "/api/published/:id", published: true, serve },
      { method: "GET", path: "/api/unpublished", published: false, serve },
    ];
    registerRestRoutes({ app } as unknown as SkiffServer, routes, publicOnly, ["/healthz"]);
    await app.ready();
    return app;
  }

  it("hides every route that is neither a published row nor listed as published", async () => {
    const app = await build(true);
    const status = async (method: "GET" | "POST", url: string) => (await app.inject({ method, url })).statusCode;
    expect(await status("GET", "/api/published/1")).toBe(200);
    expect(await status("GET", "/healthz")).toBe(200);
    expect(await status("GET", "/api/unpublished")).toBe(404);
    expect(await status("POST", "/api/internal.procedure")).toBe(404);
    expect(await status("GET", "/api/plugin/x")).toBe(404);
    // Indistinguishable from a path that never existed.
    const hidden = await app.inject({ method: "POST", url: "/api/internal.procedure" });
    const missing = await app.inject({ method: "POST", url: "/api/never.existed" });
    expect(hidden.json().error).toBe(missing.json().error);
    await app.close();
  });

  it("serves everything when the switch is off", async () => {
    const app = await build(false);
    expect((await app.inject({ method: "GET", url: "/api/unpublished" })).statusCode).toBe(200);
    expect((await app.inject({ method: "POST", url: "/api/internal.procedure" })).statusCode).toBe(200);
    expect((await app.inject({ method: "GET", url: "/api/plugin/x" })).statusCode).toBe(200);
    await app.close();
  });
});
