/**
 * Account API keys through GraphQL (spec: Authentication → Site import API, rules 1–4): created with a name,
 * the secret returned once and stored hashed; listed with name, prefix, created and last used, never the
 * secret; deleted keys answer 401 at once; a key carries its creator's current role.
 */
import { describe, expect, it } from "vitest";
import { hashApiKey } from "../../src/auth/credentials/api-key.ts";
import { lockWaiters } from "../helpers/lock-waiters.ts";
import { addMember, createOrg, createUser } from "../helpers/seed.ts";
import { gql, useTestServer } from "../helpers/server.ts";
import { sessionFor } from "../helpers/session.ts";

const t = useTestServer();

const CREATE = `mutation($name: String!) { createApiKey(name: $name) { secret apiKey { id name prefix createdAt lastUsedAt current createdBy { email } } } }`;
const DELETE = `mutation($id: ID!) { deleteApiKey(id: $id) }`;
const KEYS = `query($id: ID!) { organization(id: $id) { apiKeys { id name prefix lastUsedAt current createdBy { email } } } }`;

type Created = { secret: string; apiKey: { id: string; name: string; prefix: string; lastUsedAt: string | null } };

function code(res: { errors?: Array<{ extensions?: { code?: string } }> }) {
  return res.errors?.[0]?.extensions?.code;
}

async function create(auth: { cookie?: string; apiKey?: string }, name = "ci"): Promise<Created> {
  const res = await gql<{ createApiKey: Created }>(t.skiff.url, CREATE, { name }, auth);
  expect(res.errors).toBeUndefined();
  return res.data!.createApiKey;
}

describe("account API keys", () => {
  it("shows the secret once, stores it hashed, lists metadata only and records last use", async () => {
    const org = await createOrg(t.db.knex);
    const cookie = await sessionFor(t.db.knex, t.skiff.url, org.owner);
    const created = await create({ cookie }, "  deploy bot  ");
    expect(created.secret).toMatch(/^skiff_[A-Za-z]{64}$/);
    expect(created.apiKey).toMatchObject({ name: "deploy bot", prefix: created.secret.slice(0, 10), lastUsedAt: null });
    const row = await t.db.knex("api_keys").where({ id: created.apiKey.id }).first();
    expect(row.key).toBe(hashApiKey(created.secret));
    expect(JSON.stringify(row)).not.toContain(created.secret);
    expect(row.organizationId).toBe(org.organizationId);

    const viaKey = await gql<{ organization: { apiKeys: Array<Record<string, unknown>> } }>(
      t.skiff.url,
      KEYS,
      { id: org.organizationId },
      { apiKey: created.secret },
    );
    const listed = viaKey.data!.organization.apiKeys.find((k) => k.id === created.apiKey.id)!;
    expect(listed).toMatchObject({ name: "deploy bot", current: true, createdBy: { email: org.owner.email } });
    expect(listed.lastUsedAt).toEqual(expect.any(String));
    expect(JSON.stringify(viaKey)).not.toContain(created.secret);

    expect(code(await gql(t.skiff.url, CREATE, { name: "" }, { cookie }))).toBe("BAD_USER_INPUT");
    expect(code(await gql(t.skiff.url, CREATE, { name: "x".repeat(65) }, { cookie }))).toBe("BAD_USER_INPUT");
    // One line that shows as what it is: the rule of every name.
    for (const name of ["a\nb", "tab\there", "bot\u200b", "\u202Etob"]) {
      expect(code(await gql(t.skiff.url, CREATE, { name }, { cookie })), JSON.stringify(name)).toBe("BAD_USER_INPUT");
    }
  });

  it("are made by a signed-in person only: an API key or agent token gets FORBIDDEN, and nothing is made", async () => {
    const org = await createOrg(t.db.knex);
    const before = await t.db.knex("api_keys").where({ organization_id: org.organizationId }).count({ n: "*" });
    const refused = await gql(t.skiff.url, CREATE, { name: "spare" }, { apiKey: org.owner.apiKey });
    expect(code(refused)).toBe("FORBIDDEN");
    expect(refused.errors?.[0]?.message).toContain("needs a signed-in session");
    const rest = await fetch(`${t.skiff.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": org.owner.apiKey },
      body: JSON.stringify({ query: CREATE, variables: { name: "spare" } }),
    });
    expect(rest.status).toBe(200);
    expect(
      ((await rest.json()) as { errors: Array<{ extensions: { code: string } }> }).errors[0]!.extensions.code,
    ).toBe("FORBIDDEN");
    expect(await t.db.knex("api_keys").where({ organization_id: org.organizationId }).count({ n: "*" })).toEqual(
      before,
    );
  });

  it("answers 401 at once after deletion, over GraphQL and REST alike", async () => {
    const org = await createOrg(t.db.knex);
    const created = await create({ cookie: await sessionFor(t.db.knex, t.skiff.url, org.owner) });
    expect((await gql(t.skiff.url, "{ viewer { role } }", {}, { apiKey: created.secret })).data).toEqual({
      viewer: { role: "owner" },
    });
    const res = await gql(t.skiff.url, DELETE, { id: created.apiKey.id }, { apiKey: created.secret });
    expect(res.data).toEqual({ deleteApiKey: created.apiKey.id });
    const after = await gql(t.skiff.url, "{ viewer { role } }", {}, { apiKey: created.secret });
    expect(after.status).toBe(401);
    expect(code(after)).toBe("UNAUTHENTICATED");
    const rest = await fetch(`${t.skiff.url}/api/site-import`, { headers: { "x-api-key": created.secret } });
    expect(rest.status).toBe(401);
  });

  it("lets members see and delete only their own keys; admins any but the owner's", async () => {
    const org = await createOrg(t.db.knex);
    const admin = await addMember(t.db.knex, org.organizationId, "admin");
    const member = await addMember(t.db.knex, org.organizationId, "member");
    const ids = async (apiKey: string) =>
      (
        await gql<{ organization: { apiKeys: Array<{ id: string }> } }>(
          t.skiff.url,
          KEYS,
          { id: org.organizationId },
          { apiKey },
        )
      ).data!.organization.apiKeys.map((k) => k.id);
    expect(await ids(member.apiKey)).toEqual([member.apiKeyId]);
    expect((await ids(admin.apiKey)).sort()).toEqual([org.owner.apiKeyId, admin.apiKeyId, member.apiKeyId].sort());

    expect(code(await gql(t.skiff.url, DELETE, { id: admin.apiKeyId }, { apiKey: member.apiKey }))).toBe("NOT_FOUND");
    expect(code(await gql(t.skiff.url, DELETE, { id: org.owner.apiKeyId }, { apiKey: admin.apiKey }))).toBe(
      "FORBIDDEN",
    );
    const extra = await create({ cookie: await sessionFor(t.db.knex, t.skiff.url, member) }, "member key");
    expect((await gql(t.skiff.url, DELETE, { id: extra.apiKey.id }, { apiKey: admin.apiKey })).data).toEqual({
      deleteApiKey: extra.apiKey.id,
    });
    expect(
      (await gql(t.skiff.url, DELETE, { id: admin.apiKeyId }, { apiKey: org.owner.apiKey })).errors,
    ).toBeUndefined();

    const other = await createOrg(t.db.knex);
    const foreign = await gql(t.skiff.url, DELETE, { id: other.owner.apiKeyId }, { apiKey: org.owner.apiKey });
    expect(code(foreign)).toBe("NOT_FOUND");
  });

  it("narrows a key when its creator is demoted and kills it when the creator is removed", async () => {
    const org = await createOrg(t.db.knex);
    const admin = await addMember(t.db.knex, org.organizationId, "admin");
    const key = await create({ cookie: await sessionFor(t.db.knex, t.skiff.url, admin) }, "admin key");
    const invite = `mutation { inviteMember(input: { email: "n@example.test", role: member }) { id } }`;
    expect((await gql(t.skiff.url, invite, {}, { apiKey: key.secret })).errors).toBeUndefined();

    await gql(
      t.skiff.url,
      `mutation($id: ID!) { updateMemberRole(memberId: $id, role: member) { role } }`,
      { id: admin.memberId },
      { apiKey: org.owner.apiKey },
    );
    const narrowed = await gql(t.skiff.url, invite.replace("n@", "m@"), {}, { apiKey: key.secret });
    expect(code(narrowed)).toBe("FORBIDDEN");

    await gql(
      t.skiff.url,
      `mutation($id: ID!) { removeMember(memberId: $id) }`,
      { id: admin.memberId },
      { apiKey: org.owner.apiKey },
    );
    expect(code(await gql(t.skiff.url, "{ viewer { role } }", {}, { apiKey: key.secret }))).toBe("UNAUTHENTICATED");
  });

  it("keeps no key made while its creator is being removed: NOT_FOUND, and nothing left to revive", async () => {
    const org = await createOrg(t.db.knex);
    const leaving = await addMember(t.db.knex, org.organizationId, "admin");
    const cookie = await sessionFor(t.db.knex, t.skiff.url, leaving);
    // The removal (member row and keys, as removeMember's transaction deletes them) holds its locks, uncommitted,
    // while the key is made.
    const removal = await t.db.knex.transaction();
    try {
      await removal("members").where({ id: leaving.memberId }).delete();
      await removal("api_keys").where({ reference_id: leaving.userId, organization_id: org.organizationId }).delete();
      const creating = gql(t.skiff.url, CREATE, { name: "raced" }, { cookie });
      await lockWaiters(t.db.knex, 1, '%"members"%');
      await removal.commit();
      expect(code(await creating)).toBe("NOT_FOUND");
    } finally {
      if (!removal.isCompleted()) await removal.rollback();
    }
    expect(
      await t.db.knex("api_keys").where({ reference_id: leaving.userId, organization_id: org.organizationId }),
    ).toEqual([]);
  });

  it("needs an active organization", async () => {
    const loner = await createUser(t.db.knex);
    const cookie = await sessionFor(t.db.knex, t.skiff.url, loner);
    expect(code(await gql(t.skiff.url, CREATE, { name: "x" }, { cookie }))).toBe("BAD_USER_INPUT");
  });
});
