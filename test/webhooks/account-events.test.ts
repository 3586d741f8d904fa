/**
 * Skiff's own User & Access events (spec "Learning platform webhook events"): inviting, changing a role, transferring
 * ownership, removing a member and signing up with an invitation write their deliveries (data valid against the
 * catalogue) in the action's transaction; an emission whose transaction rolls back leaves no delivery and no job, and
 * one racing an endpoint's deletion skips that endpoint instead of failing the action.
 */
import { describe, expect, it } from "vitest";
import { systemContext } from "../../src/modules/context.ts";
import { emitWebhookEvent } from "../../src/modules/webhooks/webhook-emit.ts";
import { webhookEvent } from "../../src/shared/events/catalogue.ts";
import { addMember, createOrg } from "../helpers/seed.ts";
import { gql, useTestServer } from "../helpers/server.ts";
import { COURSE_COMPLETED, insertWebhook, orgNumber } from "./webhook-helpers.ts";

const t = useTestServer();
const EVENTS = [
  "user_signed_up",
  "user_email_verified",
  "user_role_changed",
  "user_invited_to_org",
  "user_removed_from_org",
];

/** The envelopes written for `organizationId`, oldest first. */
async function envelopes(organizationId: string) {
  const rows = await t.db.knex("webhook_deliveries").where({ organization_id: organizationId }).orderBy("created_at");
  return rows.map((r) => JSON.parse(r.body) as { event: string; org_id: number; data: Record<string, unknown> });
}

function expectValid(envelope: { event: string; data: unknown }) {
  const parsed = webhookEvent(envelope.event)!.data.safeParse(envelope.data);
  expect(parsed.success, `${envelope.event}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
}

describe("User & Access events", () => {
  it("are emitted by invitations, role changes, ownership transfer, removal and sign-up by invitation", async () => {
    const { organizationId, owner } = await createOrg(t.db.knex);
    // Inactive: deliveries are written, attempts skipped (nothing to reach in this test).
    await insertWebhook(t.db.knex, organizationId, "https://127.0.0.1:9/x", EVENTS, false);
    await t.db
      .knex("webhook_endpoints")
      .where({ organization_id: organizationId })
      .update({ is_active: true, url: "https://192.0.2.1/x" });
    const orgId = await orgNumber(t.db.knex, organizationId);
    const as = { apiKey: owner.apiKey };

    const invite = await gql<{ inviteMember: { id: string; link: string } }>(
      t.skiff.url,
      `mutation($input: InviteMemberInput!) { inviteMember(input: $input) { id link } }`,
      { input: { organizationId, email: "newbie@example.test", role: "member" } },
      as,
    );
    expect(invite.errors).toBeUndefined();
    const token = new URL(invite.data!.inviteMember.link).searchParams.get("token")!;
    const signUp = await gql(
      t.skiff.url,
      `mutation($input: SignUpWithInvitationInput!) { signUpWithInvitation(input: $input) { id } }`,
      { input: { token, name: "Newbie", password: "correct horse battery" } },
    );
    expect(signUp.errors).toBeUndefined();

    const member = await addMember(t.db.knex, organizationId, "member");
    const role = await gql(
      t.skiff.url,
      `mutation($id: ID!) { updateMemberRole(memberId: $id, role: admin) { id } }`,
      { id: member.memberId },
      as,
    );
    expect(role.errors).toBeUndefined();
    const transfer = await gql(
      t.skiff.url,
      `mutation($id: ID!) { transferOwnership(memberId: $id) { id } }`,
      { id: member.memberId },
      as,
    );
    expect(transfer.errors).toBeUndefined();
    const other = await addMember(t.db.knex, organizationId, "member");
    const removed = await gql(
      t.skiff.url,
      `mutation($id: ID!) { removeMember(memberId: $id) }`,
      { id: other.memberId },
      { apiKey: member.apiKey },
    );
    expect(removed.errors).toBeUndefined();

    const sent = await envelopes(organizationId);
    // Events of one transaction share a timestamp: compare as a multiset, find each by content.
    expect(sent.map((e) => e.event).sort()).toEqual(
      [
        "user_invited_to_org",
        "user_signed_up",
        "user_email_verified",
        "user_role_changed",
        "user_role_changed",
        "user_role_changed",
        "user_removed_from_org",
      ].sort(),
    );
    for (const e of sent) {
      expect(e.org_id).toBe(orgId);
      expectValid(e);
    }
    const data = (event: string) => sent.filter((e) => e.event === event).map((e) => e.data);
    expect(data("user_invited_to_org")[0]).toMatchObject({
      org_id: orgId,
      emails: ["newbie@example.test"],
      invite_code_uuid: invite.data!.inviteMember.id,
      invited_by: { user_uuid: owner.userId, email: owner.email },
    });
    expect(data("user_signed_up")[0]).toMatchObject({ user: { email: "newbie@example.test", username: "Newbie" } });
    expect(data("user_email_verified")[0]).toMatchObject({ user: { email: "newbie@example.test" } });
    const changes = data("user_role_changed").map((d) => [
      (d.user as { user_uuid: string }).user_uuid,
      d.old_role,
      d.new_role,
    ]);
    expect(changes).toEqual(
      expect.arrayContaining([
        [member.userId, "member", "admin"],
        [member.userId, "admin", "owner"],
        [owner.userId, "owner", "admin"],
      ]),
    );
    expect(data("user_removed_from_org")[0]).toMatchObject({
      user: { user_uuid: other.userId },
      removed_by: { user_uuid: member.userId },
    });
  });

  it("an action rolled back sends nothing (no delivery queued)", async () => {
    const { organizationId } = await createOrg(t.db.knex);
    await insertWebhook(t.db.knex, organizationId, "https://192.0.2.1/x", ["course_completed"]);
    const ctx = systemContext(t.skiff.services);
    let deliveryId = "";
    await expect(
      t.db.knex.transaction(async (trx) => {
        const made = await emitWebhookEvent(
          { ...ctx, knex: trx },
          organizationId,
          "course_completed",
          COURSE_COMPLETED,
        );
        expect(made).toHaveLength(1);
        deliveryId = made[0]!.deliveryId;
        // Visible inside the transaction: the delivery, due in the queue.
        expect(await trx("webhook_deliveries").where({ id: deliveryId }).whereNotNull("next_attempt_at")).toHaveLength(
          1,
        );
        throw new Error("the action failed");
      }),
    ).rejects.toThrow("the action failed");
    expect(await t.db.knex("webhook_deliveries").where({ organization_id: organizationId })).toEqual([]);
  });

  it("an endpoint deleted while an action emits is skipped; the action still commits", async () => {
    const { organizationId } = await createOrg(t.db.knex);
    const { id: gone } = await insertWebhook(t.db.knex, organizationId, "https://192.0.2.1/gone", ["course_completed"]);
    const { id: kept } = await insertWebhook(t.db.knex, organizationId, "https://192.0.2.1/kept", ["course_completed"]);
    const ctx = systemContext(t.skiff.services);
    // The deletion holds its row lock, uncommitted, while the action emits; it commits before the action does.
    const deletion = await t.db.knex.transaction();
    try {
      await deletion("webhook_endpoints").where({ id: gone }).delete();
      const action = t.db.knex.transaction((trx) =>
        emitWebhookEvent({ ...ctx, knex: trx }, organizationId, "course_completed", COURSE_COMPLETED),
      );
      await new Promise((resolve) => setTimeout(resolve, 300));
      await deletion.commit();
      expect((await action).map((d) => d.webhookUuid)).toEqual([kept]);
    } finally {
      if (!deletion.isCompleted()) await deletion.rollback();
    }
    expect(
      await t.db.knex("webhook_deliveries").where({ organization_id: organizationId }).pluck("endpoint_id"),
    ).toEqual([kept]);
  });
});
