/**
 * Organizations (spec: "Organization and access resources"): create (creator = owner), list mine, switch the
 * session's active organization, rename, plan with quotas/usage/features, billing (owner only), notification
 * channels. Projects have their own tests (test/projects/).
 */
import { describe, expect, it } from "vitest";
import { addMember, addMembership, createOrg, createProjects, createUser } from "../helpers/seed.ts";
import { gql, useTestServer } from "../helpers/server.ts";
import { postAuth, sessionFor } from "../helpers/session.ts";

const t = useTestServer();

const CREATE = `mutation($input: CreateOrganizationInput!) { createOrganization(input: $input) { id name slug viewerRole plan { name } } }`;
const VIEWER = `{ viewer { role activeOrganization { id name } } organizations { id } }`;

function code(res: { errors?: Array<{ extensions?: { code?: string } }> }) {
  return res.errors?.[0]?.extensions?.code;
}

describe("create, list and switch", () => {
  it("creates an organization owned by the caller, lists it, and switches the session to it", async () => {
    const user = await createUser(t.db.knex);
    const cookie = await sessionFor(t.db.knex, t.skiff.url, user);
    const none = await gql(t.skiff.url, VIEWER, {}, { cookie });
    expect(none.data).toEqual({ viewer: { role: null, activeOrganization: null }, organizations: [] });

    const first = await gql<{ createOrganization: { id: string; slug: string } }>(
      t.skiff.url,
      CREATE,
      { input: { name: "Acme Shop" } },
      { cookie },
    );
    expect(first.errors).toBeUndefined();
    expect(first.data!.createOrganization).toMatchObject({
      name: "Acme Shop",
      viewerRole: "owner",
      plan: { name: "free" },
    });
    expect(first.data!.createOrganization.slug).toMatch(/^acme-shop-[0-9a-f]{6}$/);
    const second = await gql<{ createOrganization: { id: string } }>(
      t.skiff.url,
      CREATE,
      { input: { name: "Side Project", slug: "side-project-x1" } },
      { cookie },
    );
    const [a, b] = [first.data!.createOrganization.id, second.data!.createOrganization.id];

    const listed = await gql<{ organizations: Array<{ id: string }>; viewer: { activeOrganization: { id: string } } }>(
      t.skiff.url,
      VIEWER,
      {},
      { cookie },
    );
    expect(listed.data!.organizations.map((o) => o.id).sort()).toEqual([a, b].sort());

    const switched = await gql(
      t.skiff.url,
      `mutation($id: ID!) { setActiveOrganization(id: $id) { role activeOrganization { id } } }`,
      { id: b },
      { cookie },
    );
    expect(switched.data).toEqual({ setActiveOrganization: { role: "owner", activeOrganization: { id: b } } });
    const after = await gql<{ viewer: { activeOrganization: { id: string } } }>(t.skiff.url, VIEWER, {}, { cookie });
    expect(after.data!.viewer.activeOrganization.id).toBe(b);
    // Keys created now are bound to the organization the session switched to.
    const key = await gql<{ createApiKey: { apiKey: { id: string } } }>(
      t.skiff.url,
      `mutation { createApiKey(name: "after switch") { apiKey { id } } }`,
      {},
      { cookie },
    );
    const row = await t.db.knex("api_keys").where({ id: key.data!.createApiKey.apiKey.id }).first();
    expect(row.organizationId).toBe(b);

    // Switching has one implementation: better-auth's own endpoint is switched off.
    const res = await postAuth(t.skiff.url, "/organization/set-active", { organizationId: a }, cookie);
    expect(res.status).toBe(404);
    const still = await gql<{ viewer: { activeOrganization: { id: string } } }>(t.skiff.url, VIEWER, {}, { cookie });
    expect(still.data!.viewer.activeOrganization.id).toBe(b);
  });

  it("refuses a taken or malformed slug, an empty name, API keys, and switching to a foreign organization", async () => {
    const user = await createUser(t.db.knex);
    const cookie = await sessionFor(t.db.knex, t.skiff.url, user);
    await gql(t.skiff.url, CREATE, { input: { name: "Taken", slug: "taken-slug" } }, { cookie });
    expect(code(await gql(t.skiff.url, CREATE, { input: { name: "Again", slug: "taken-slug" } }, { cookie }))).toBe(
      "CONFLICT",
    );
    expect(code(await gql(t.skiff.url, CREATE, { input: { name: "Bad", slug: "Not OK!" } }, { cookie }))).toBe(
      "BAD_USER_INPUT",
    );
    expect(code(await gql(t.skiff.url, CREATE, { input: { name: "   " } }, { cookie }))).toBe("BAD_USER_INPUT");

    const org = await createOrg(t.db.knex);
    expect(code(await gql(t.skiff.url, CREATE, { input: { name: "By key" } }, { apiKey: org.owner.apiKey }))).toBe(
      "FORBIDDEN",
    );
    const foreign = await gql(
      t.skiff.url,
      `mutation($id: ID!) { setActiveOrganization(id: $id) { role } }`,
      { id: org.organizationId },
      { cookie },
    );
    expect(code(foreign)).toBe("NOT_FOUND");
    const other = await createOrg(t.db.knex);
    const keySwitch = await gql(
      t.skiff.url,
      `mutation($id: ID!) { setActiveOrganization(id: $id) { role } }`,
      { id: other.organizationId },
      { apiKey: org.owner.apiKey },
    );
    expect(code(keySwitch)).toBe("NOT_FOUND");
  });

  it("every answer names the organization it was read in (x-skiff-organization); anonymous answers do not", async () => {
    const a = await createOrg(t.db.knex);
    const b = await createOrg(t.db.knex);
    await addMembership(t.db.knex, b.organizationId, a.owner.userId, "member");
    const cookie = await sessionFor(t.db.knex, t.skiff.url, a.owner);
    const actingIn = async (headers: Record<string, string>, query = "{ viewer { user { id } } }") => {
      const res = await fetch(`${t.skiff.url}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify({ query, variables: { id: b.organizationId } }),
      });
      await res.arrayBuffer();
      return res.headers.get("x-skiff-organization");
    };
    await gql(
      t.skiff.url,
      `mutation($id: ID!) { setActiveOrganization(id: $id) { role } }`,
      { id: a.organizationId },
      { cookie },
    );
    expect(await actingIn({ cookie })).toBe(a.organizationId);
    // The switch answers in the organization it switched to, as every read after it.
    expect(await actingIn({ cookie }, `mutation($id: ID!) { setActiveOrganization(id: $id) { role } }`)).toBe(
      b.organizationId,
    );
    expect(await actingIn({ cookie })).toBe(b.organizationId);
    expect(await actingIn({ authorization: `Bearer ${a.owner.apiKey}` })).toBe(a.organizationId);
    expect(await actingIn({}, "{ __typename }")).toBeNull();
  });
});

describe("rename, plan and billing", () => {
  it("lets owners and admins rename, not members", async () => {
    const org = await createOrg(t.db.knex);
    const admin = await addMember(t.db.knex, org.organizationId, "admin");
    const member = await addMember(t.db.knex, org.organizationId, "member");
    const RENAME = `mutation($id: ID!, $name: String!) { renameOrganization(id: $id, name: $name) { name } }`;
    const byAdmin = await gql(
      t.skiff.url,
      RENAME,
      { id: org.organizationId, name: " Renamed " },
      { apiKey: admin.apiKey },
    );
    expect(byAdmin.data).toEqual({ renameOrganization: { name: "Renamed" } });
    expect(code(await gql(t.skiff.url, RENAME, { id: org.organizationId, name: "X" }, { apiKey: member.apiKey }))).toBe(
      "FORBIDDEN",
    );
    for (const name of ["", "two\nlines", "tab\there"]) {
      expect(
        code(await gql(t.skiff.url, RENAME, { id: org.organizationId, name }, { apiKey: org.owner.apiKey })),
        JSON.stringify(name),
      ).toBe("BAD_USER_INPUT");
    }
  });

  it("shows plan { name quotas usage features } and lets only the owner change plans", async () => {
    const org = await createOrg(t.db.knex, "plan_pro");
    await createProjects(t.db.knex, org.organizationId, 4, { applicationsPerEnvironment: 1, domainsPerApplication: 1 });
    const admin = await addMember(t.db.knex, org.organizationId, "admin");
    const PLAN = `query($id: ID!) { organization(id: $id) { plan { name quotas { projects applications databases domains } usage { projects applications databases domains } features } } }`;
    const res = await gql(t.skiff.url, PLAN, { id: org.organizationId }, { apiKey: admin.apiKey });
    expect(res.data).toEqual({
      organization: {
        plan: {
          name: "pro",
          quotas: { projects: 50, applications: 200, databases: 50, domains: 200 },
          usage: { projects: 4, applications: 4, databases: 0, domains: 4 },
          features: ["webhooks", "ai_assistant"],
        },
      },
    });
    const CHANGE = `mutation($id: ID!, $plan: String!) { changePlan(organizationId: $id, plan: $plan) { plan { name } } }`;
    const change = (plan: string, apiKey = org.owner.apiKey) =>
      gql(t.skiff.url, CHANGE, { id: org.organizationId, plan }, { apiKey });
    expect(code(await change("unlimited", admin.apiKey))).toBe("FORBIDDEN");
    const tooSmall = await change("free");
    expect(code(tooSmall)).toBe("CONFLICT");
    expect(tooSmall.errors?.[0]?.message).toContain("projects 4 > 3");
    expect(code(await change("gold"))).toBe("BAD_USER_INPUT");
    expect((await change("unlimited")).data).toEqual({ changePlan: { plan: { name: "unlimited" } } });
    // Usage is counted for the new plan's quotas even where the current plan (unlimited) counts nothing.
    const fromUnlimited = await change("free");
    expect(code(fromUnlimited)).toBe("CONFLICT");
    expect(fromUnlimited.errors?.[0]?.message).toContain("projects 4 > 3");
  });
});

describe("notification channels", () => {
  it("lists e-mail channels for every member; owners and admins add and remove them", async () => {
    const org = await createOrg(t.db.knex);
    const member = await addMember(t.db.knex, org.organizationId, "member");
    const ADD = `mutation($input: AddNotificationChannelInput!) { addNotificationChannel(input: $input) { id type name target } }`;
    const input = { organizationId: org.organizationId, name: "On-call", email: "OnCall@Example.test" };
    const added = await gql<{ addNotificationChannel: { id: string } }>(
      t.skiff.url,
      ADD,
      { input },
      { apiKey: org.owner.apiKey },
    );
    expect(added.data!.addNotificationChannel).toMatchObject({
      type: "email",
      name: "On-call",
      target: "oncall@example.test",
    });
    expect(code(await gql(t.skiff.url, ADD, { input }, { apiKey: org.owner.apiKey }))).toBe("CONFLICT");
    expect(
      code(await gql(t.skiff.url, ADD, { input: { ...input, email: "x@y.test" } }, { apiKey: member.apiKey })),
    ).toBe("FORBIDDEN");
    const list = await gql(
      t.skiff.url,
      `query($id: ID!) { organization(id: $id) { notificationChannels { target } } }`,
      { id: org.organizationId },
      { apiKey: member.apiKey },
    );
    expect(list.data).toEqual({ organization: { notificationChannels: [{ target: "oncall@example.test" }] } });
    const REMOVE = `mutation($id: ID!) { removeNotificationChannel(id: $id) }`;
    const id = added.data!.addNotificationChannel.id;
    expect(code(await gql(t.skiff.url, REMOVE, { id }, { apiKey: member.apiKey }))).toBe("FORBIDDEN");
    expect((await gql(t.skiff.url, REMOVE, { id }, { apiKey: org.owner.apiKey })).data).toEqual({
      removeNotificationChannel: id,
    });
  });
});
