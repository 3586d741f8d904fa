/**
 * How Skiff serves the dashboard (src/server/web.ts), without a browser: page routes, assets with long caching,
 * the OAuth providers written into the page, 503 without a build, nothing under SKIFF_PUBLIC_API_ONLY=true, and a
 * 404 page for a browser's navigation to an address no page has.
 */
import Fastify from "fastify";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.ts";
import { registerWeb } from "../../src/server/web.ts";
import { useTestServer } from "../helpers/server.ts";
import { ensureWebBuild } from "./web-build.ts";

describe("dashboard serving", () => {
  const t = useTestServer({ GITHUB_CLIENT_ID: "gh-id", GITHUB_CLIENT_SECRET: "gh-secret" });

  it("answers the page routes with index.html (no-cache) naming the configured OAuth providers", async () => {
    await ensureWebBuild();
    // The server of useTestServer may have started before the build existed: use a fresh app on the build.
    const app = Fastify();
    await registerWeb(app, loadConfig({ GITHUB_CLIENT_ID: "gh-id", GITHUB_CLIENT_SECRET: "gh-secret" }));
    const pages = ["/", "/sign-in", "/sign-up", "/accept-invitation?token=abc", "/import-sites", "/settings"];
    const more = ["/projects", "/projects/prj_x/payments", "/settings/docs", "/account", "/forgot-password"];
    more.push("/reset-password?token=abc", "/docs/api", "/docs/graphql", "/settings/audit");
    for (const url of [...pages, ...more, "/settings/deploy?app=app_x", "/apps/app_01jz5y0b7gf3e9x0a1b2c3d4e5"]) {
      const res = await app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers["content-type"]).toContain("text/html");
      expect(res.headers["cache-control"]).toBe("no-cache");
      expect(res.body).toContain('<meta name="skiff-oauth-providers" content="github" />');
      const csp = String(res.headers["content-security-policy"]);
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toMatch(/script-src[^;]*unsafe/);
      expect(res.headers["x-frame-options"]).toBe("DENY");
    }
    const html = (await app.inject({ url: "/sign-in" })).body;
    const script = html.match(/src="(\/assets\/[^"]+\.js)"/)?.[1];
    expect(script).toBeDefined();
    const asset = await app.inject({ url: script! });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers["content-type"]).toContain("javascript");
    expect(asset.headers["cache-control"]).toContain("immutable");
    expect((await app.inject({ url: "/assets/missing.js" })).statusCode).toBe(404);
    expect((await app.inject({ url: "/not-a-page" })).statusCode).toBe(404);
    expect((await app.inject({ url: "/apps/a/b" })).statusCode).toBe(404);
    await app.close();
  });

  it("without a build the pages answer 503 with the command to build them", async () => {
    const app = Fastify();
    await registerWeb(app, loadConfig({}), "/nonexistent/skiff-web-dist");
    const res = await app.inject({ url: "/import-sites" });
    expect(res.statusCode).toBe(503);
    expect(res.body).toContain("npm run build:web");
    await app.close();
  });

  it("keeps the API paths untouched next to the pages", async () => {
    const base = t.skiff.url;
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    const gql = await fetch(`${base}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: "{ viewer { user { id } } }" }),
    });
    expect(gql.status).toBe(401);
  });

  it("answers a browser's navigation to an address no page has with a 404 page, and every API path in JSON", async () => {
    const base = t.skiff.url;
    const html = { accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" };
    for (const path of ["/settings/nope", "/apps", "/nope/deeper?x=1"]) {
      const page = await fetch(`${base}${path}`, { headers: html });
      expect(page.status, path).toBe(404);
      expect(page.headers.get("content-type")).toContain("text/html");
      expect(page.headers.get("content-security-policy")).toContain("default-src 'none'");
      expect(await page.text()).toContain('<a href="/import-sites">');
      const json = await fetch(`${base}${path}`);
      expect(json.status).toBe(404);
      expect(await json.json()).toEqual({ error: "No route answers GET on this path", code: "NOT_FOUND" });
    }
    for (const path of ["/api/nope", "/graphql/x", "/mcp/x", "/assets/missing.js"]) {
      const res = await fetch(`${base}${path}`, { headers: html });
      expect(res.status, path).toBe(404);
      expect(res.headers.get("content-type"), path).toContain("application/json");
    }
  });
});

describe("dashboard under SKIFF_PUBLIC_API_ONLY=true", () => {
  it("registers no page: they answer 404 like every unpublished path", async () => {
    await ensureWebBuild();
    const app = Fastify();
    await registerWeb(app, loadConfig({ SKIFF_PUBLIC_API_ONLY: "true" }));
    const pages = ["/", "/sign-in", "/import-sites", "/accept-invitation?token=abc", "/account", "/forgot-password"];
    // The API reference and the GraphQL explorer are dashboard pages too, with their bundled renderers.
    for (const url of [...pages, "/docs/api", "/docs/graphql", "/reset-password?token=abc"])
      expect((await app.inject({ url })).statusCode, url).toBe(404);
    await app.close();
  });
});
