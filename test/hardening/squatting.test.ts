/**
 * Over real HTTP and the real mail outbox: a squatter's unverified sign-up gives way to the
 * mailbox owner's — the second sign-up replaces the pending credentials, the squatter's earlier link is refused,
 * the owner's link verifies the owner's password — and an invitation link works for an address held by an
 * unverified account.
 */
import { describe, expect, it } from "vitest";
import { drainJobs } from "../helpers/jobs.ts";
import { createOrg } from "../helpers/seed.ts";
import { gql, useTestServer } from "../helpers/server.ts";
import { postAuth } from "../helpers/session.ts";

const t = useTestServer();

/** The verification links mailed to `to` so far, oldest first (path and query only). */
async function links(to: string): Promise<string[]> {
  await drainJobs(t.db.knex);
  const rows = await t.db.knex("mail_outbox").where({ to }).orderBy("created_at", "asc");
  return rows.map((r: { text: string }) => {
    const url = new URL(/https?:\/\/\S+verify-email\S+/.exec(r.text)![0]);
    return `${url.pathname}${url.search}`;
  });
}

const signUp = (email: string, password: string) =>
  postAuth(t.skiff.url, "/sign-up/email", { email, password, name: email.split("@")[0] });

describe("sign-up squatting", () => {
  it("the mailbox owner's sign-up replaces the squatter's, whose link no longer works", async () => {
    const email = `victim-${Date.now()}@example.test`;
    expect((await signUp(email, "attacker-password")).status).toBe(200);
    const [squatterLink] = await links(email);
    await new Promise((r) => setTimeout(r, 2100)); // links carry whole seconds
    expect((await signUp(email, "victim-password")).status).toBe(200);
    const all = await links(email);
    expect(all).toHaveLength(2);
    const stale = await fetch(`${t.skiff.url}${squatterLink}`, { redirect: "manual" });
    expect(stale.status).toBeGreaterThanOrEqual(300);
    expect((await t.db.knex("users").where({ email }).first("email_verified as verified")).verified).toBe(false);
    const fresh = await fetch(`${t.skiff.url}${all[1]}`, { redirect: "manual" });
    expect(fresh.status).toBeLessThan(400);
    expect((await t.db.knex("users").where({ email }).first("email_verified as verified")).verified).toBe(true);
    expect((await postAuth(t.skiff.url, "/sign-in/email", { email, password: "attacker-password" })).status).toBe(401);
    expect((await postAuth(t.skiff.url, "/sign-in/email", { email, password: "victim-password" })).status).toBe(200);
  });

  it("an invitation link works for an address held by an unverified account", async () => {
    const org = await createOrg(t.db.knex);
    const email = `invitee-${Date.now()}@example.test`;
    expect((await signUp(email, "attacker-password")).status).toBe(200);
    const invited = await gql<{ inviteMember: { link: string } }>(
      t.skiff.url,
      `mutation($e: EmailAddress!) { inviteMember(input: { email: $e, role: member }) { link } }`,
      { e: email },
      { apiKey: org.owner.apiKey },
    );
    expect(invited.errors).toBeUndefined();
    const token = new URL(invited.data!.inviteMember.link).searchParams.get("token");
    const res = await gql<{ signUpWithInvitation: { email: string } }>(
      t.skiff.url,
      `mutation($i: SignUpWithInvitationInput!) { signUpWithInvitation(input: $i) { id email } }`,
      { i: { token, name: "Invitee", password: "invitee-password" } },
    );
    expect(res.errors).toBeUndefined();
    expect(res.data?.signUpWithInvitation.email).toBe(email);
    expect((await postAuth(t.skiff.url, "/sign-in/email", { email, password: "invitee-password" })).status).toBe(200);
  });
});
