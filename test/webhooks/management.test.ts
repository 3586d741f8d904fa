/**
 * Webhook management API: the nine spec paths under `/api/v1/orgs/{org_id}/webhooks`
 * and ingestion, on real PostgreSQL over real HTTP: resource fields (snake_case), the secret shown once and stored
 * encrypted, each validation error (400 `{ error, details }`), the plan gate (403 naming the feature), the role
 * gate (members: 404 for the organization), another organization's webhook → 404, the catalogue with JSON Schemas,
 * `Organization.databaseId`, the rate limit (429 + Retry-After), and events rolled back with their action. An
 * organization whose plan lacks webhooks is sent nothing; the actions without a body refuse one with fields.
 */
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { addMember, createOrg, createProjects } from "../helpers/seed.ts";
import { gql, useTestServer } from "../helpers/server.ts";
import { sessionFor } from "../helpers/session.ts";
import { COURSE_COMPLETED, insertWebhook, orgNumber, rest } from "./webhook-helpers.ts";

const t = useTestServer({ SKIFF_OUTBOUND_ALLOW: "127.0.0.1" });
const HOOK_URL = "https://127.0.0.1:9/hooks";

async function org(plan = "plan_pro") {
  const o = await createOrg(t.db.knex, plan);
  return { ...o, number: await orgNumber(t.db.knex, o.organizationId) };
}

describe("webhook management", () => {
  it("creates, lists, reads, updates and deletes an endpoint with the spec's fields", async () => {
    const { owner, number, organizationId } = await org();
    const base = `/api/v1/orgs/${number}/webhooks`;
    const created = await rest(t.skiff.url, "POST", base, owner.apiKey, {
      url: HOOK_URL,
      events: ["course_completed", "user_signed_up"],
      description: "LMS",
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const w = created.body;
    expect(w).toEqual({
      webhook_uuid: expect.stringMatching(/^webhook_[0-9a-f-]{36}$/),
      url: HOOK_URL,
      events: ["course_completed", "user_signed_up"],
      is_active: true,
      description: "LMS",
      created_by_user_id: owner.userId,
      creation_date: expect.any(String),
      update_date: expect.any(String),
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
    });
    const row = await t.db.knex("webhook_endpoints").where({ id: w.webhook_uuid }).first();
    expect(row.secretEncrypted).not.toContain(w.secret.slice(6));
    expect(row.organizationId).toBe(organizationId);

    const listed = await rest(t.skiff.url, "GET", base, owner.apiKey);
    expect(listed.status).toBe(200);
    expect(listed.body).toHaveLength(1);
    expect(listed.body[0]).toMatchObject({ webhook_uuid: w.webhook_uuid, has_secret: true });
    expect(listed.body[0]).not.toHaveProperty("secret");

    const one = await rest(t.skiff.url, "GET", `${base}/${w.webhook_uuid}`, owner.apiKey);
    expect(one.status).toBe(200);
    expect(JSON.stringify(one.body)).not.toContain(w.secret);

    const updated = await rest(t.skiff.url, "PUT", `${base}/${w.webhook_uuid}`, owner.apiKey, {
      url: `${HOOK_URL}/v2`,
      events: ["course_enrolled"],
      is_active: false,
    });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ url: `${HOOK_URL}/v2`, events: ["course_enrolled"], is_active: false });

    const deleted = await rest(t.skiff.url, "DELETE", `${base}/${w.webhook_uuid}`, owner.apiKey);
    expect(deleted.status).toBe(204);
    expect((await rest(t.skiff.url, "GET", `${base}/${w.webhook_uuid}`, owner.apiKey)).status).toBe(404);
  });

  it("lists unknown event names the caller sent briefly: each echoed, the first 5, REST and GraphQL alike", async () => {
    const { owner, number, organizationId } = await org();
    const names = Array.from({ length: 99 }, (_, i) => `${i}`.padEnd(5000, "x"));
    const res = await rest(t.skiff.url, "POST", `/api/v1/orgs/${number}/webhooks`, owner.apiKey, {
      url: HOOK_URL,
      events: names,
    });
    expect(res.status).toBe(400);
    const expected = `Unknown events: ${names
      .slice(0, 5)
      .map((n) => `${n.slice(0, 80)}… (5000 characters)`)
      .join(", ")} and 94 more`;
    expect(res.body.details.fieldErrors.events).toEqual([expected]);
    expect(res.body.error).toContain(expected);
    expect(JSON.stringify(res.body).length).toBeLessThan(2000);
    const graphql = await gql(
      t.skiff.url,
      `mutation($org: ID!, $input: CreateWebhookInput!) { createWebhook(organizationId: $org, input: $input) { secret } }`,
      { org: organizationId, input: { url: HOOK_URL, events: names } },
      { apiKey: owner.apiKey },
    );
    expect(graphql.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
    expect(graphql.errors?.[0]?.extensions?.fieldErrors).toEqual({ events: [expected] });
    expect(JSON.stringify(graphql).length).toBeLessThan(2000);
    // A few short names are listed whole.
    const few = await rest(t.skiff.url, "POST", `/api/v1/orgs/${number}/webhooks`, owner.apiKey, {
      url: HOOK_URL,
      events: ["a", "b", "c", "d", "e"],
    });
    expect(few.body.details.fieldErrors.events).toEqual(["Unknown events: a, b, c, d, e"]);
  });

  it("answers 400 with fieldErrors for each invalid input", async () => {
    const { owner, number } = await org();
    const base = `/api/v1/orgs/${number}/webhooks`;
    const cases: Array<[unknown, string, string]> = [
      [{ events: ["ping"] }, "url", "Required"],
      [{ url: 5, events: ["ping"] }, "url", "Must be an absolute https:// URL"],
      [{ url: `${HOOK_URL}\r\nX-Injected: 1`, events: ["ping"] }, "url", "control characters"],
      [{ url: ` ${HOOK_URL}`, events: ["ping"] }, "url", "spaces"],
      [{ url: "http://127.0.0.1/hook", events: ["ping"] }, "url", "https://"],
      [{ url: "/relative", events: ["ping"] }, "url", "https://"],
      [{ url: `https://127.0.0.1/${"a".repeat(2050)}`, events: ["ping"] }, "url", "2048"],
      [{ url: "https://10.1.2.3/hook", events: ["ping"] }, "url", "blocked address 10.1.2.3 (private)"],
      [{ url: "https://localhost/hook", events: ["ping"] }, "url", "localhost"],
      [{ url: HOOK_URL }, "events", "Required"],
      [{ url: HOOK_URL, events: [] }, "events", "at least one"],
      [
        { url: HOOK_URL, events: ["course_completed", "nope", "also_nope"] },
        "events",
        "Unknown events: nope, also_nope",
      ],
      [{ url: HOOK_URL, events: ["ping"], secret: "mine" }, "secret", "Unknown field"],
    ];
    for (const [body, field, message] of cases) {
      const res = await rest(t.skiff.url, "POST", base, owner.apiKey, body);
      expect(res.status, JSON.stringify(body).slice(0, 100)).toBe(400);
      expect(res.body.error).toEqual(expect.any(String));
      expect(res.body.details.formErrors).toEqual([]);
      expect(res.body.details.fieldErrors[field]?.join(" "), JSON.stringify(res.body)).toContain(message);
    }
    const hook = await insertWebhook(
      t.db.knex,
      (await t.db.knex("organizations").where({ database_id: number }).first()).id,
      HOOK_URL,
    );
    // An update's body is required: absent or null is 400, `{}` changes nothing.
    for (const body of [undefined, null]) {
      const res = await rest(t.skiff.url, "PUT", `${base}/${hook.id}`, owner.apiKey, body);
      expect(res.status, String(body)).toBe(400);
    }
    expect((await rest(t.skiff.url, "PUT", `${base}/${hook.id}`, owner.apiKey, {})).status).toBe(200);
    const bad = await rest(t.skiff.url, "PUT", `${base}/${hook.id}`, owner.apiKey, { is_active: "yes", color: 1 });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.details.fieldErrors).sort()).toEqual(["color", "is_active"]);
    for (const limit of ["0", "201", "abc", "", "05", "+5", "%205", "5&limit=5"]) {
      const res = await rest(t.skiff.url, "GET", `${base}/${hook.id}/deliveries?limit=${limit}`, owner.apiKey);
      expect(res.status, limit).toBe(400);
      expect(res.body.details.fieldErrors.limit).toBeDefined();
    }
    expect((await rest(t.skiff.url, "GET", `${base}/${hook.id}/deliveries?limit=200`, owner.apiKey)).status).toBe(200);
    // The actions that take no body refuse one with fields, naming them, and change nothing.
    const before = await t.db.knex("webhook_endpoints").where({ id: hook.id }).first("secret_encrypted");
    for (const suffix of ["regenerate-secret", "test", "deliveries/dlv_0000000000000000/redeliver"]) {
      const res = await rest(t.skiff.url, "POST", `${base}/${hook.id}/${suffix}`, owner.apiKey, { x: 1 });
      expect(res.status, suffix).toBe(400);
      expect(Object.keys(res.body.details.fieldErrors), suffix).toEqual(["x"]);
    }
    expect(await t.db.knex("webhook_endpoints").where({ id: hook.id }).first("secret_encrypted")).toEqual(before);
    const [sent] = await t.db.knex("webhook_deliveries").where({ endpoint_id: hook.id }).count({ n: "*" });
    expect(Number(sent!.n)).toBe(0);
  });

  it("sends nothing while the organization's plan lacks webhooks; after an upgrade the endpoints deliver again", async () => {
    const { owner, organizationId } = await org();
    const [projectId] = await createProjects(t.db.knex, organizationId, 1);
    const hook = await insertWebhook(t.db.knex, organizationId, HOOK_URL, ["environment.created"]);
    const deliveries = async () =>
      Number((await t.db.knex("webhook_deliveries").where({ endpoint_id: hook.id }).count({ n: "*" }))[0]!.n);
    const createEnvironment = async (name: string) => {
      const res = await gql(
        t.skiff.url,
        "mutation($p: ID!, $n: String!) { createEnvironment(projectId: $p, name: $n) { id } }",
        { p: projectId, n: name },
        { apiKey: owner.apiKey },
      );
      expect(res.errors).toBeUndefined();
    };
    await createEnvironment("on-pro");
    expect(await deliveries()).toBe(1);
    await t.db.knex("organizations").where({ id: organizationId }).update({ plan_id: "plan_free" });
    await createEnvironment("on-free");
    expect(await deliveries()).toBe(1);
    await t.db.knex("organizations").where({ id: organizationId }).update({ plan_id: "plan_pro" });
    await createEnvironment("on-pro-again");
    expect(await deliveries()).toBe(2);
  });

  it("gates: plan without webhooks → 403 naming the feature; members and other organizations → 404", async () => {
    const free = await org("plan_free");
    const gated = await rest(t.skiff.url, "GET", `/api/v1/orgs/${free.number}/webhooks`, free.owner.apiKey);
    expect(gated.status).toBe(403);
    expect(gated.body).toEqual({ error: expect.stringContaining("webhooks"), plan_feature: "webhooks" });

    const a = await org();
    const b = await org();
    const hookA = await insertWebhook(t.db.knex, a.organizationId, HOOK_URL);
    const member = await addMember(t.db.knex, a.organizationId, "member");
    const admin = await addMember(t.db.knex, a.organizationId, "admin");
    const paths = [
      ["GET", `/api/v1/orgs/${a.number}/webhooks`],
      ["GET", `/api/v1/orgs/${a.number}/webhooks/events`],
      ["GET", `/api/v1/orgs/${a.number}/webhooks/${hookA.id}`],
      ["GET", `/api/v1/orgs/${a.number}/webhooks/${hookA.id}/deliveries`],
    ] as const;
    for (const [method, path] of paths) {
      expect((await rest(t.skiff.url, method, path, admin.apiKey)).status, path).toBe(200);
      const asMember = await rest(t.skiff.url, method, path, member.apiKey);
      expect(asMember.status, path).toBe(404);
      expect(asMember.body).toEqual({ error: `Organization ${a.number} not found` });
      const asOther = await rest(t.skiff.url, method, path, b.owner.apiKey);
      expect(asOther.status, path).toBe(404);
      expect(asOther.body).toEqual(asMember.body);
      expect((await rest(t.skiff.url, method, path, null)).status).toBe(401);
    }
    // B's owner on its own organization with A's webhook id: 404 like a missing one.
    const cross = await rest(t.skiff.url, "GET", `/api/v1/orgs/${b.number}/webhooks/${hookA.id}`, b.owner.apiKey);
    expect(cross.status).toBe(404);
    const missing = await rest(
      t.skiff.url,
      "GET",
      `/api/v1/orgs/${b.number}/webhooks/webhook_${"0".repeat(8)}-0000-0000-0000-${"0".repeat(12)}`,
      b.owner.apiKey,
    );
    expect(missing.status).toBe(404);
    for (const [method, suffix] of [
      ["PUT", ""],
      ["DELETE", ""],
      ["POST", "/regenerate-secret"],
      ["POST", "/test"],
    ] as const) {
      const res = await rest(
        t.skiff.url,
        method,
        `/api/v1/orgs/${b.number}/webhooks/${hookA.id}${suffix}`,
        b.owner.apiKey,
        method === "PUT" ? { is_active: false } : undefined,
      );
      expect(res.status, `${method} ${suffix}`).toBe(404);
    }
    expect(await t.db.knex("webhook_endpoints").where({ id: hookA.id }).first()).toMatchObject({ isActive: true });
    expect((await rest(t.skiff.url, "GET", "/api/v1/orgs/99999999/webhooks", a.owner.apiKey)).status).toBe(404);
  });

  it("publishes the catalogue: 39 spec events + org_plan_changed + 4 deploy events + 15 resource events, each with a JSON Schema 2020-12", async () => {
    const { owner, number } = await org();
    const res = await rest(t.skiff.url, "GET", `/api/v1/orgs/${number}/webhooks/events`, owner.apiKey);
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(59);
    const skiffOwn = ["Deployments", "Resources"];
    expect(res.body.filter((e: { category: string }) => !skiffOwn.includes(e.category))).toHaveLength(40);
    const ajv = new Ajv2020({ strict: false });
    for (const e of res.body) {
      expect(Object.keys(e).sort()).toEqual(["category", "data_schema", "description", "name"]);
      expect(e.data_schema.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
      expect(ajv.validateSchema(e.data_schema), e.name).toBe(true);
    }
    const completed = res.body.find((e: { name: string }) => e.name === "course_completed");
    expect(completed.category).toBe("Learning Progress");
    expect(completed.data_schema.required).toEqual(["user", "course"]);
    expect(completed.data_schema.properties.user.required).toEqual(["user_uuid", "email", "username"]);
    expect(ajv.validate(completed.data_schema, COURSE_COMPLETED)).toBe(true);
    expect(res.body.map((e: { name: string }) => e.name)).toEqual(
      expect.arrayContaining([
        "ping",
        "user_invited_to_org",
        "org_payments_config_changed",
        "deploy.failed",
        "app.health_changed",
      ]),
    );
  });

  it("ingests events: validates data against the schema, 202 with one delivery per subscribed active endpoint", async () => {
    const { owner, number, organizationId } = await org();
    const on = await insertWebhook(t.db.knex, organizationId, HOOK_URL, ["course_completed"]);
    await insertWebhook(t.db.knex, organizationId, HOOK_URL, ["course_enrolled"]);
    await insertWebhook(t.db.knex, organizationId, HOOK_URL, ["course_completed"], false);
    const path = `/api/v1/orgs/${number}/events`;
    const bad = await rest(t.skiff.url, "POST", path, owner.apiKey, {
      event: "course_completed",
      data: { user: { user_uuid: "u1", email: "a@b.test" }, course: {} },
    });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.details.fieldErrors).sort()).toEqual([
      "data.course.course_uuid",
      "data.course.name",
      "data.user.username",
    ]);
    const unknown = await rest(t.skiff.url, "POST", path, owner.apiKey, { event: "nope", data: {} });
    expect(unknown.status).toBe(400);
    expect(unknown.body.details.fieldErrors.event).toEqual(["Unknown event: nope"]);
    const noData = await rest(t.skiff.url, "POST", path, owner.apiKey, { event: "ping" });
    expect(noData.status).toBe(400);
    expect(noData.body.details.fieldErrors.data).toBeDefined();

    await t.db.knex("webhook_endpoints").where({ id: on.id }).update({ url: "https://127.0.0.1:9/x" });
    const ok = await rest(t.skiff.url, "POST", path, owner.apiKey, {
      event: "course_completed",
      data: COURSE_COMPLETED,
    });
    expect(ok.status).toBe(202);
    expect(ok.body).toEqual({
      deliveries: [{ webhook_uuid: on.id, delivery_id: expect.stringMatching(/^dlv_[0-9a-f]{16}$/) }],
    });
    await t.db.knex("webhook_deliveries").where({ endpoint_id: on.id }).update({ status: "cancelled" });

    const viaGraphql = await gql<{ publishWebhookEvent: { deliveries: unknown[] } }>(
      t.skiff.url,
      `mutation($org: ID!, $data: JSONObject!) { publishWebhookEvent(organizationId: $org, event: "course_enrolled", data: $data) { deliveries { webhookUuid deliveryId } } }`,
      { org: organizationId, data: COURSE_COMPLETED },
      { apiKey: owner.apiKey },
    );
    expect(viaGraphql.errors).toBeUndefined();
    expect(viaGraphql.data!.publishWebhookEvent.deliveries).toHaveLength(1);
    await t.db.knex("webhook_deliveries").where({ organization_id: organizationId }).update({ status: "cancelled" });
  });

  it("exposes Organization.databaseId (stable integer, accepted in the path)", async () => {
    const { owner, number, organizationId } = await org();
    const res = await gql<{ organizations: Array<{ id: string; databaseId: number }> }>(
      t.skiff.url,
      "{ organizations { id databaseId } }",
      {},
      { apiKey: owner.apiKey },
    );
    expect(res.data!.organizations).toEqual([{ id: organizationId, databaseId: number }]);
    expect(Number.isInteger(number)).toBe(true);
  });

  it("rate-limits create per organization: 20 per hour, then 429 with Retry-After", async () => {
    const { owner, number } = await org();
    const base = `/api/v1/orgs/${number}/webhooks`;
    for (let i = 0; i < 20; i++) {
      const res = await rest(t.skiff.url, "POST", base, owner.apiKey, { url: HOOK_URL, events: ["ping"] });
      expect(res.status).toBe(201);
    }
    const over = await rest(t.skiff.url, "POST", base, owner.apiKey, { url: HOOK_URL, events: ["ping"] });
    expect(over.status).toBe(429);
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(3000);
    expect(over.body.error).toContain("20");
  });

  it("accepts a signed-in user's JWT (GET /api/auth/token, verified against /api/auth/jwks); a forged one is 401", async () => {
    const { owner, number } = await org();
    const cookie = await sessionFor(t.db.knex, t.skiff.url, owner);
    const issued = await fetch(`${t.skiff.url}/api/auth/token`, { headers: { cookie } });
    expect(issued.status).toBe(200);
    const { token } = (await issued.json()) as { token: string };
    expect(token.split(".")).toHaveLength(3);
    const jwks = (await (await fetch(`${t.skiff.url}/api/auth/jwks`)).json()) as { keys: unknown[] };
    expect(jwks.keys.length).toBeGreaterThan(0);
    const listed = await rest(t.skiff.url, "GET", `/api/v1/orgs/${number}/webhooks`, token);
    expect(listed.status).toBe(200);
    const [head, payload, signature] = token.split(".");
    const claims = JSON.parse(Buffer.from(payload!, "base64url").toString());
    const forged = `${head}.${Buffer.from(JSON.stringify({ ...claims, sub: "usr_someone_else" })).toString("base64url")}.${signature}`;
    expect((await rest(t.skiff.url, "GET", `/api/v1/orgs/${number}/webhooks`, forged)).status).toBe(401);
    expect((await rest(t.skiff.url, "GET", `/api/v1/orgs/${number}/webhooks`, `${head}.${payload}.AAAA`)).status).toBe(
      401,
    );
  });
});
