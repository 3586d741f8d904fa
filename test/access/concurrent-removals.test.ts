/**
 * Removals raced against themselves, over real HTTP against a real server and PostgreSQL: the same API key, grant,
 * member, notification channel or webhook endpoint removed by several requests at once is removed by one of them,
 * which answers; the others answer NOT_FOUND (it is gone, as for any unknown id). The audit log holds one `ok` entry
 * for the one change and a `refused` entry for each other call, and a member's removal is announced once. A role
 * change waiting while its member is removed answers NOT_FOUND too.
 */
import { describe, expect, it } from "vitest";
import { lockWaiters } from "../helpers/lock-waiters.ts";
import { addMember, createApiKey, createOrg, createProjects } from "../helpers/seed.ts";
import { type GqlResponse, gql, useTestServer } from "../helpers/server.ts";

// Loopback allowed outbound: the webhook endpoint is created at an address that resolves (nothing is sent to it).
const t = useTestServer({ SKIFF_WORKER: "false", SKIFF_OUTBOUND_ALLOW: "127.0.0.1" });

/** Calls at once per removal. */
const CALLS = 5;

/** `ok` or the error's code. */
function outcome(res: GqlResponse): string {
  return res.errors ? String(res.errors[0]?.extensions?.code) : "ok";
}

/** The outcomes of the audit entries of `action` naming `target`, sorted. */
async function entries(action: string, target: string): Promise<string[]> {
  const rows = await t.db.knex("audit_events").where({ action }).whereRaw("? = any(target_ids)", [target]);
  return rows.map((r: { outcome: string }) => r.outcome).sort();
}

/** `query` with `variables` sent CALLS times at once as `apiKey`; the sorted outcomes. */
async function race(apiKey: string, query: string, variables: Record<string, unknown>): Promise<string[]> {
  const answers = await Promise.all(
    Array.from({ length: CALLS }, () => gql(t.skiff.url, query, variables, { apiKey })),
  );
  return answers.map(outcome).sort();
}

const ONE_OK = ["NOT_FOUND", "NOT_FOUND", "NOT_FOUND", "NOT_FOUND", "ok"];
const ONE_OK_ENTRY = ["ok", "refused", "refused", "refused", "refused"];

describe("a removal raced against itself", () => {
  it("answers once and NOT_FOUND after, with one ok audit entry, for keys, grants, members, channels and webhooks", async () => {
    const org = await createOrg(t.db.knex);
    const owner = org.owner.apiKey;
    const as = { apiKey: owner };

    const { apiKeyId: keyId } = await createApiKey(t.db.knex, org.owner.userId, org.organizationId);
    expect(await race(owner, `mutation($id: ID!) { deleteApiKey(id: $id) }`, { id: keyId })).toEqual(ONE_OK);
    expect(await entries("deleteApiKey", keyId)).toEqual(ONE_OK_ENTRY);

    const [projectId] = await createProjects(t.db.knex, org.organizationId, 1);
    const limited = await addMember(t.db.knex, org.organizationId, "member");
    const grant = await gql<{ grantAccess: { id: string } }>(
      t.skiff.url,
      `mutation($i: GrantAccessInput!) { grantAccess(input: $i) { id } }`,
      { i: { memberId: limited.memberId, projectId } },
      as,
    );
    const grantId = grant.data!.grantAccess.id;
    expect(await race(owner, `mutation($id: ID!) { revokeAccess(grantId: $id) }`, { id: grantId })).toEqual(ONE_OK);
    expect(await entries("revokeAccess", grantId)).toEqual(ONE_OK_ENTRY);

    const webhook = await gql<{ createWebhook: { webhook: { webhookUuid: string } } }>(
      t.skiff.url,
      `mutation($o: ID!, $i: CreateWebhookInput!) { createWebhook(organizationId: $o, input: $i) { webhook { webhookUuid } } }`,
      { o: org.organizationId, i: { url: "https://127.0.0.1:5599/raced", events: ["user_removed_from_org"] } },
      as,
    );
    expect(webhook.errors).toBeUndefined();
    const webhookUuid = webhook.data!.createWebhook.webhook.webhookUuid;
    const leaving = await addMember(t.db.knex, org.organizationId, "member");
    expect(await race(owner, `mutation($id: ID!) { removeMember(memberId: $id) }`, { id: leaving.memberId })).toEqual(
      ONE_OK,
    );
    expect(await entries("removeMember", leaving.memberId)).toEqual(ONE_OK_ENTRY);
    // Announced once: one delivery of `user_removed_from_org` to the endpoint subscribed to it.
    const announced = await t.db
      .knex("webhook_deliveries")
      .where({ endpoint_id: webhookUuid, event: "user_removed_from_org" })
      .count({ n: "*" })
      .first();
    expect(Number(announced?.n)).toBe(1);

    const channel = await gql<{ addNotificationChannel: { id: string } }>(
      t.skiff.url,
      `mutation($i: AddNotificationChannelInput!) { addNotificationChannel(input: $i) { id } }`,
      { i: { organizationId: org.organizationId, name: "ops", email: "ops@example.com" } },
      as,
    );
    const channelId = channel.data!.addNotificationChannel.id;
    expect(await race(owner, `mutation($id: ID!) { removeNotificationChannel(id: $id) }`, { id: channelId })).toEqual(
      ONE_OK,
    );
    expect(await entries("removeNotificationChannel", channelId)).toEqual(ONE_OK_ENTRY);

    const deleteWebhook = `mutation($o: ID!, $w: ID!) { deleteWebhook(organizationId: $o, webhookUuid: $w) }`;
    expect(await race(owner, deleteWebhook, { o: org.organizationId, w: webhookUuid })).toEqual(ONE_OK);
    expect(await entries("deleteWebhook", webhookUuid)).toEqual(ONE_OK_ENTRY);
  });
});

describe("a role change raced against a removal", () => {
  it("answers NOT_FOUND, with a refused audit entry, when the member is removed while the change waits", async () => {
    const org = await createOrg(t.db.knex);
    const member = await addMember(t.db.knex, org.organizationId, "member");
    // The removal holds the member's row, uncommitted, while the role changes (which have read it) wait for it.
    const removal = await t.db.knex.transaction();
    try {
      await removal("members").where({ id: member.memberId }).delete();
      const changes = Promise.all(
        Array.from({ length: 3 }, () =>
          gql(
            t.skiff.url,
            `mutation($id: ID!) { updateMemberRole(memberId: $id, role: admin) { id role } }`,
            { id: member.memberId },
            { apiKey: org.owner.apiKey },
          ),
        ),
      );
      await lockWaiters(t.db.knex, 3, '%"members"%');
      await removal.commit();
      expect((await changes).map(outcome)).toEqual(["NOT_FOUND", "NOT_FOUND", "NOT_FOUND"]);
    } finally {
      if (!removal.isCompleted()) await removal.rollback();
    }
    expect(await entries("updateMemberRole", member.memberId)).toEqual(["refused", "refused", "refused"]);
  });
});

describe("ownership transferred twice at once", () => {
  it("makes one owner: the second transfer finds the caller no longer owner (FORBIDDEN, refused)", async () => {
    const org = await createOrg(t.db.knex);
    const first = await addMember(t.db.knex, org.organizationId, "admin");
    const second = await addMember(t.db.knex, org.organizationId, "admin");
    const owner = await t.db.knex("members").where({ organization_id: org.organizationId, role: "owner" }).first();
    // The test holds the owner's row while both transfers start; they then run one after the other.
    const hold = await t.db.knex.transaction();
    try {
      await hold("members").where({ id: owner.id }).forUpdate();
      const transfers = Promise.all(
        [first, second].map((m) =>
          gql(
            t.skiff.url,
            `mutation($id: ID!) { transferOwnership(memberId: $id) { id role } }`,
            { id: m.memberId },
            { apiKey: org.owner.apiKey },
          ),
        ),
      );
      await lockWaiters(t.db.knex, 2, '%"members"%');
      await hold.commit();
      expect((await transfers).map(outcome).sort()).toEqual(["FORBIDDEN", "ok"]);
    } finally {
      if (!hold.isCompleted()) await hold.rollback();
    }
    const owners = await t.db.knex("members").where({ organization_id: org.organizationId, role: "owner" });
    expect(owners).toHaveLength(1);
    expect([first.memberId, second.memberId]).toContain(owners[0].id);
  });
});
