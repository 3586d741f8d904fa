/**
 * The deploy trigger and the docs-theming paths in /api/openapi.json: real answers of a real server —
 * every status the document lists that a request can provoke here, provider push payloads with real signatures,
 * the theme as JSON, CSS and 304 — validate against the served document; redocly lint is in openapi.test.ts.
 */
import { createHash } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { githubPushPayload, gitlabPushPayload, hubSignature } from "../deployments/push-payloads.ts";
import { orgNumber, SET_THEME, THEME } from "../docs-theming/docs-helpers.ts";
import { fetchOpenApi, responseChecker } from "../helpers/openapi-validator.ts";
import { createOrg, createProjects } from "../helpers/seed.ts";
import { gql, useTestServer } from "../helpers/server.ts";

const LICENSE = "license-contracts-0123456789abcdef";
const t = useTestServer({
  SKIFF_WORKER: "false",
  SKIFF_DEPLOY_RATE_LIMIT: "8",
  SKIFF_DOCS_HOST_LICENSE_SHA256: createHash("sha256").update(LICENSE).digest("hex"),
});
let check: ReturnType<typeof responseChecker>;

beforeAll(async () => {
  check = responseChecker([await fetchOpenApi(`${t.skiff.url}/api/openapi.json`)]);
});

/** Calls `url`, asserts the status, and that the answer (body and media type) validates against the document. */
async function expectDocumented(route: string, url: string, init: RequestInit, status: number) {
  const res = await fetch(`${t.skiff.url}${url}`, init);
  const text = await res.text();
  expect(res.status, `${route}: ${text.slice(0, 300)}`).toBe(status);
  expect(check(route, res.status, text, res.headers.get("content-type") ?? undefined), route).toEqual([]);
  return { res, text };
}

/** An application of a fresh organization, its deploy token and a webhook secret. */
async function deployableApp() {
  const org = await createOrg(t.db.knex);
  const [projectId] = await createProjects(t.db.knex, org.organizationId, 1, { applicationsPerEnvironment: 1 });
  const app = await t.db.knex("applications").where({ project_id: projectId }).first("id");
  await t.db
    .knex("applications")
    .where({ id: app.id })
    .update({ source: JSON.stringify({ dockerImage: "nginx:1" }) });
  const as = { apiKey: org.owner.apiKey };
  const read = await gql<{ application: { deployWebhookUrl: string } }>(
    t.skiff.url,
    `query($id: ID!) { application(id: $id) { deployWebhookUrl } }`,
    { id: app.id },
    as,
  );
  const secret = await gql<{ regenerateDeployWebhookSecret: string }>(
    t.skiff.url,
    `mutation($id: ID!) { regenerateDeployWebhookSecret(applicationId: $id) }`,
    { id: app.id },
    as,
  );
  const token = read.data!.application.deployWebhookUrl.split("/api/deploy/")[1]!;
  return { path: `/api/deploy/${token}`, secret: secret.data!.regenerateDeployWebhookSecret };
}

describe("POST /api/deploy/{token} against the document", () => {
  const route = "POST /api/deploy/:token";
  const json = { "content-type": "application/json" };

  it("documents the API trigger, GitHub and GitLab pushes, and every refusal", async () => {
    const { path, secret } = await deployableApp();
    const api = JSON.stringify({ title: "Release 1.4", commitSha: "0d1a26e67d8f" });
    await expectDocumented(route, path, { method: "POST" }, 202);
    await expectDocumented(route, path, { method: "POST", headers: json, body: api }, 202);
    const dedup = await expectDocumented(route, path, { method: "POST", headers: json, body: api }, 202);
    expect(JSON.parse(dedup.text)).toMatchObject({ deduplicated: true });

    const tag = JSON.stringify(githubPushPayload({ ref: "refs/tags/v1.0.0" }), null, 2);
    const github = (event: string, body: string, signature = hubSignature(secret, body)) => ({
      method: "POST",
      headers: { ...json, "x-github-event": event, "x-hub-signature-256": signature },
      body,
    });
    const notDeployed = await expectDocumented(route, path, github("push", tag), 200);
    expect(JSON.parse(notDeployed.text)).toMatchObject({ deployed: false, reason: expect.any(String) });
    await expectDocumented(route, path, github("ping", "{}"), 200);
    await expectDocumented(route, path, github("push", tag, "sha256=00"), 401);
    const gitlab = JSON.stringify(gitlabPushPayload({ ref: "refs/heads/feature/x" }));
    const gl = { ...json, "x-gitlab-event": "Push Hook", "x-gitlab-token": secret };
    await expectDocumented(route, path, { method: "POST", headers: gl, body: gitlab }, 200);
    await expectDocumented(route, path, { method: "POST", headers: json, body: "{not json" }, 400);
    await expectDocumented(route, `/api/deploy/${"x".repeat(43)}`, { method: "POST" }, 404);
    // 8 per minute: the ninth request of this token is refused with Retry-After.
    const limited = await expectDocumented(route, path, { method: "POST" }, 429);
    expect(Number(limited.res.headers.get("retry-after"))).toBeGreaterThan(0);
  }, 60_000);
});

describe("docs theming against the document", () => {
  it("documents the theme (JSON, CSS, 304, 400, 404), the lookup, the sync and the loader", async () => {
    const org = await createOrg(t.db.knex);
    const set = await gql(
      t.skiff.url,
      SET_THEME,
      { org: org.organizationId, input: THEME },
      { apiKey: org.owner.apiKey },
    );
    expect(set.errors).toBeUndefined();
    const theme = `/o/${await orgNumber(t.db.knex, org.organizationId)}/api/theme`;
    const themeRoute = "GET /o/:databaseId/api/theme";
    const first = await expectDocumented(themeRoute, theme, {}, 200);
    expect(JSON.parse(first.text)).toMatchObject({ siteName: THEME.siteName });
    const css = await expectDocumented(themeRoute, `${theme}?format=css`, {}, 200);
    expect(css.text).toContain(":root {");
    const etag = first.res.headers.get("etag")!;
    await expectDocumented(themeRoute, theme, { headers: { "if-none-match": etag } }, 304);
    await expectDocumented(themeRoute, `${theme}?format=xml`, {}, 400);
    await expectDocumented(themeRoute, "/o/2147483647/api/theme", {}, 404);
    // Several organizations: the bare path is for single-organization instances.
    await expectDocumented("GET /api/theme", "/api/theme", {}, 404);

    const lookup = "GET /api/docs/lookup";
    await expectDocumented(lookup, "/api/docs/lookup", {}, 400);
    await expectDocumented(lookup, "/api/docs/lookup?hostname=docs.never-synced.test", {}, 404);

    const sync = "POST /api/docs/sync";
    const body = JSON.stringify({ registrations: [] });
    const bearer = { "content-type": "application/json", authorization: `Bearer ${LICENSE}` };
    const synced = await expectDocumented(sync, "/api/docs/sync", { method: "POST", headers: bearer, body }, 200);
    expect(JSON.parse(synced.text)).toEqual({ results: [] });
    const bad = JSON.stringify({ registrations: [{ hostname: 1 }] });
    await expectDocumented(sync, "/api/docs/sync", { method: "POST", headers: bearer, body: bad }, 400);
    const anonymous = { method: "POST", headers: { "content-type": "application/json" }, body };
    await expectDocumented(sync, "/api/docs/sync", anonymous, 401);

    const loader = await expectDocumented("GET /docs-theme.js", "/docs-theme.js", {}, 200);
    expect(loader.res.headers.get("content-type")).toMatch(/^text\/javascript/);
  }, 60_000);
});
