/**
 * The bare `/api/theme` of a self-hosted single-organization instance (spec "Docs-domain lookup and theme"): the only
 * organization's theme, same document, headers and ETag as `/o/<databaseId>/api/theme`; 404 before a theme exists.
 */
import { describe, expect, it } from "vitest";
import { createOrg } from "../helpers/seed.ts";
import { gql, useTestServer } from "../helpers/server.ts";
import { orgNumber, SET_THEME, THEME } from "./docs-helpers.ts";

const t = useTestServer({ SKIFF_WORKER: "false" });

describe("single-organization theme endpoint", () => {
  it("serves the only organization's theme at /api/theme", async () => {
    expect(Number((await t.db.knex("organizations").count({ n: "*" }).first())?.n)).toBe(0);
    const { owner, organizationId } = await createOrg(t.db.knex);
    const before = await fetch(`${t.skiff.url}/api/theme`);
    expect(before.status).toBe(404);
    const saved = await gql(t.skiff.url, SET_THEME, { org: organizationId, input: THEME }, { apiKey: owner.apiKey });
    expect(saved.errors).toBeUndefined();
    const bare = await fetch(`${t.skiff.url}/api/theme`);
    const full = await fetch(`${t.skiff.url}/o/${await orgNumber(t.db.knex, organizationId)}/api/theme`);
    expect(bare.status).toBe(200);
    expect(bare.headers.get("cache-control")).toBe("public, max-age=60, s-maxage=60");
    expect(bare.headers.get("access-control-allow-origin")).toBe("*");
    expect(bare.headers.get("etag")).toBe(full.headers.get("etag"));
    expect(await bare.json()).toEqual(await full.json());
    const css = await fetch(`${t.skiff.url}/api/theme?format=css`);
    expect(css.headers.get("content-type")).toBe("text/css; charset=utf-8");
    expect(await css.text()).toMatch(/^:root \{\n {2}--primary: 222 47% 11%;/);
  });
});
