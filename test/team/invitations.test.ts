/**
 * Invitations against a real PostgreSQL and HTTP server (spec: Invitation states; "Sign-in and accounts"):
 * unguessable link mailed through the outbox, 48-hour expiry on a controllable clock, resend keeps link and
 * expiry, cancel stops the link at once, used/expired/cancelled links are invalid, and acceptance only by the
 * invited address — existing account, new account (e-mail locked and verified), or "sign out first".
 */
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningSkiff } from "../../src/server/start.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { drainJobs } from "../helpers/jobs.ts";
import { addMember, createOrg, createProjects, createUser } from "../helpers/seed.ts";
import { gql, startTestServer } from "../helpers/server.ts";
import { sessionFor, signIn } from "../helpers/session.ts";

const HOUR = 3_600_000;
let db: TestDatabase;
let skiff: RunningSkiff;
let clock = new Date("2026-11-22T10:00:00.000Z");
let org: Awaited<ReturnType<typeof createOrg>>;
let owner: string;
let admin: string;
let member: string;

beforeAll(async () => {
  db = await createTestDatabase();
  skiff = await startTestServer(db.url, {}, { now: () => clock });
  org = await createOrg(db.knex);
  owner = await sessionFor(db.knex, skiff.url, org.owner);
  admin = await sessionFor(db.knex, skiff.url, await addMember(db.knex, org.organizationId, "admin"));
  member = await sessionFor(db.knex, skiff.url, await addMember(db.knex, org.organizationId, "member"));
});
afterAll(async () => {
  await skiff?.stop();
  await db?.drop();
});

const INVITE = `mutation($input: InviteMemberInput!) { inviteMember(input: $input) { id email role status createdAt expiresAt link invitedBy { email } } }`;
const LINK_INFO = `query($token: String!) { invitationLink(token: $token) { valid status organizationName email role expiresAt accountExists } }`;
const ACCEPT = `mutation($token: String!) { acceptInvitation(token: $token) { role organization { id } user { email } } }`;
const SIGN_UP = `mutation($input: SignUpWithInvitationInput!) { signUpWithInvitation(input: $input) { id email emailVerified name } }`;
const INVITATIONS = `query($id: ID!) { organization(id: $id) { invitations { id email status link } } }`;

type Invitation = { id: string; email: string; role: string; status: string; expiresAt: string; link: string | null };

async function invite(email: string, role = "member", cookie = owner): Promise<Invitation> {
  const res = await gql<{ inviteMember: Invitation }>(skiff.url, INVITE, { input: { email, role } }, { cookie });
  expect(res.errors).toBeUndefined();
  return res.data!.inviteMember;
}

function tokenOf(link: string): string {
  return new URL(link).searchParams.get("token") ?? "";
}

/** Mails to `email` in the outbox, once the queued `mail.send` jobs have run. */
async function mailsTo(email: string): Promise<Array<{ subject: string; text: string }>> {
  await drainJobs(db.knex);
  return db.knex("mail_outbox").where({ to: email }).orderBy("id").select("subject", "text");
}

async function linkInfo(token: string) {
  const res = await gql<{ invitationLink: Record<string, unknown> }>(skiff.url, LINK_INFO, { token });
  expect(res.errors).toBeUndefined();
  return res.data!.invitationLink;
}

describe("sending", () => {
  it("stores a pending invitation for 48 hours and mails an unguessable link, stored only hashed and encrypted", async () => {
    const inv = await invite("Fresh.Person@Example.test", "admin");
    expect(inv).toMatchObject({ email: "fresh.person@example.test", role: "admin", status: "pending" });
    expect(new Date(inv.expiresAt).getTime() - clock.getTime()).toBe(48 * HOUR);
    const token = tokenOf(inv.link!);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(inv.link).toBe(`${skiff.services.config.SKIFF_BASE_URL}/accept-invitation?token=${token}`);
    expect(token).not.toContain(inv.id.slice(4));

    const mails = await mailsTo("fresh.person@example.test");
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toContain("invited you to");
    expect(mails[0]!.text).toContain(inv.link);

    const row = await db.knex("invitations").where({ id: inv.id }).first();
    expect(row.tokenHash).toBe(createHash("sha256").update(token).digest("hex"));
    expect(row.tokenEncrypted).not.toContain(token);
    expect(JSON.stringify(row)).not.toContain(token);
  });

  it("lets owners and admins read links, never members; members cannot invite", async () => {
    const inv = await invite("links@example.test");
    const read = async (cookie: string) => {
      const res = await gql<{ organization: { invitations: Invitation[] } }>(
        skiff.url,
        INVITATIONS,
        { id: org.organizationId },
        { cookie },
      );
      expect(res.errors).toBeUndefined();
      return res.data!.organization.invitations.find((i) => i.id === inv.id)!;
    };
    expect((await read(owner)).link).toBe(inv.link);
    expect((await read(admin)).link).toBe(inv.link);
    expect(await read(member)).toMatchObject({ email: "links@example.test", status: "pending", link: null });

    const denied = await gql(
      skiff.url,
      INVITE,
      { input: { email: "x@example.test", role: "member" } },
      { cookie: member },
    );
    expect(denied.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
  });

  it("refuses the owner role, an existing member, a second pending invitation and another organization", async () => {
    const code = async (input: Record<string, unknown>, cookie = owner) =>
      (await gql(skiff.url, INVITE, { input }, { cookie })).errors?.[0]?.extensions?.code;
    expect(await code({ email: "boss@example.test", role: "owner" })).toBe("BAD_USER_INPUT");
    expect(await code({ email: "not an address", role: "member" })).toBe("BAD_USER_INPUT");
    expect(await code({ email: org.owner.email, role: "member" })).toBe("CONFLICT");
    await invite("twice@example.test");
    expect(await code({ email: "twice@example.test", role: "admin" })).toBe("CONFLICT");

    const other = await createOrg(db.knex);
    const otherOwner = await sessionFor(db.knex, skiff.url, other.owner);
    expect(
      await code({ organizationId: org.organizationId, email: "z@example.test", role: "member" }, otherOwner),
    ).toBe("NOT_FOUND");
  });
});

describe("resend, cancel and expiry", () => {
  it("resends the same link with the same expiry", async () => {
    const inv = await invite("resend@example.test");
    clock = new Date(clock.getTime() + 5 * HOUR);
    try {
      const res = await gql<{ resendInvitation: Invitation }>(
        skiff.url,
        `mutation($id: ID!) { resendInvitation(id: $id) { id expiresAt link status } }`,
        { id: inv.id },
        { cookie: admin },
      );
      expect(res.errors).toBeUndefined();
      expect(res.data!.resendInvitation).toEqual({
        id: inv.id,
        expiresAt: inv.expiresAt,
        link: inv.link,
        status: "pending",
      });
      const mails = await mailsTo("resend@example.test");
      expect(mails).toHaveLength(2);
      expect(mails[1]!.text).toContain(inv.link);
      expect(mails[1]!.text).toBe(mails[0]!.text);
    } finally {
      clock = new Date(clock.getTime() - 5 * HOUR);
    }
  });

  it("is valid at 47h59m and expired at 48h01m after creation", async () => {
    const inv = await invite("expiry@example.test");
    const token = tokenOf(inv.link!);
    const created = clock;
    try {
      clock = new Date(created.getTime() + 47 * HOUR + 59 * 60_000);
      expect(await linkInfo(token)).toMatchObject({ valid: true, status: "pending", email: "expiry@example.test" });

      clock = new Date(created.getTime() + 48 * HOUR + 60_000);
      expect(await linkInfo(token)).toEqual({
        valid: false,
        status: "expired",
        organizationName: null,
        email: null,
        role: null,
        expiresAt: null,
        accountExists: null,
      });
      const signUp = await gql(skiff.url, SIGN_UP, { input: { token, name: "Late", password: "long-enough-1" } });
      expect(signUp.errors?.[0]?.extensions).toMatchObject({
        code: "BAD_USER_INPUT",
        fieldErrors: { token: [expect.stringContaining("expired")] },
      });
      const resend = await gql(
        skiff.url,
        `mutation($id: ID!) { resendInvitation(id: $id) { id } }`,
        { id: inv.id },
        { cookie: owner },
      );
      expect(resend.errors?.[0]?.extensions?.code).toBe("CONFLICT");
      const listed = await gql<{ organization: { invitations: Invitation[] } }>(
        skiff.url,
        `query($id: ID!) { organization(id: $id) { invitations(status: expired) { id link } } }`,
        { id: org.organizationId },
        { cookie: owner },
      );
      expect(listed.data!.organization.invitations).toContainEqual({ id: inv.id, link: null });
      // An expired invitation no longer blocks a new one.
      await invite("expiry@example.test");
    } finally {
      clock = created;
    }
  });

  it("shows an API key the status at each request's clock, the same query repeated", async () => {
    const inv = await invite("clock@example.test");
    const created = clock;
    const statusOf = async () => {
      const res = await gql<{ organization: { invitations: Array<{ id: string; status: string }> } }>(
        skiff.url,
        `query($id: ID!) { organization(id: $id) { invitations { id status } } }`,
        { id: org.organizationId },
        { apiKey: org.owner.apiKey },
      );
      return res.data?.organization.invitations.find((i) => i.id === inv.id)?.status;
    };
    try {
      // The key is resolved once, then remembered: the compile of a remembered caller's query is reused, but not one
      // that read the clock.
      expect(await statusOf()).toBe("pending");
      expect(await statusOf()).toBe("pending");
      clock = new Date(created.getTime() + 48 * HOUR + 60_000);
      expect(await statusOf()).toBe("expired");
    } finally {
      clock = created;
    }
  });

  it("stops a cancelled link at once", async () => {
    const inv = await invite("cancel@example.test");
    const token = tokenOf(inv.link!);
    const res = await gql<{ cancelInvitation: Invitation }>(
      skiff.url,
      `mutation($id: ID!) { cancelInvitation(id: $id) { status link } }`,
      { id: inv.id },
      { cookie: owner },
    );
    expect(res.data!.cancelInvitation).toEqual({ status: "revoked", link: null });
    expect(await linkInfo(token)).toMatchObject({ valid: false, status: "revoked" });
    const signUp = await gql(skiff.url, SIGN_UP, { input: { token, name: "Nope", password: "long-enough-1" } });
    expect(signUp.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
    const again = await gql(
      skiff.url,
      `mutation($id: ID!) { cancelInvitation(id: $id) { id } }`,
      { id: inv.id },
      { cookie: owner },
    );
    expect(again.errors?.[0]?.extensions?.code).toBe("CONFLICT");
  });

  it("reports an unknown token as invalid without an error", async () => {
    expect(await linkInfo("not-a-token")).toMatchObject({ valid: false, status: null });
    expect(await linkInfo("x".repeat(5000))).toMatchObject({ valid: false, status: null });
  });
});

describe("accepting", () => {
  it("creates a new account with the invited address locked and verified; the link is then used", async () => {
    const inv = await invite("newcomer@example.test", "admin");
    const token = tokenOf(inv.link!);
    expect(await linkInfo(token)).toMatchObject({ valid: true, accountExists: false, role: "admin" });

    const short = await gql(skiff.url, SIGN_UP, { input: { token, name: "New", password: "1234567" } });
    expect(short.errors?.[0]?.extensions).toMatchObject({
      code: "BAD_USER_INPUT",
      fieldErrors: { password: [expect.any(String)] },
    });

    const res = await gql<{ signUpWithInvitation: { email: string; emailVerified: boolean } }>(skiff.url, SIGN_UP, {
      input: { token, name: "Newcomer", password: "newcomer-password" },
    });
    expect(res.errors).toBeUndefined();
    expect(res.data!.signUpWithInvitation).toMatchObject({ email: "newcomer@example.test", emailVerified: true });

    const cookie = await signIn(skiff.url, "newcomer@example.test", "newcomer-password");
    const viewer = await gql(skiff.url, "{ viewer { role activeOrganization { id } } }", {}, { cookie });
    expect(viewer.data).toEqual({ viewer: { role: "admin", activeOrganization: { id: org.organizationId } } });
    const account = await db
      .knex("accounts")
      .where({ provider_id: "credential" })
      .join("users", "users.id", "accounts.user_id")
      .where("users.email", "newcomer@example.test")
      .first("password");
    expect(account.password).toMatch(/^\$argon2id\$/);

    expect(await linkInfo(token)).toMatchObject({ valid: false, status: "accepted" });
    const reuse = await gql(skiff.url, SIGN_UP, { input: { token, name: "Again", password: "another-password" } });
    expect(reuse.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
    const list = await gql<{ organization: { invitations: Invitation[] } }>(
      skiff.url,
      INVITATIONS,
      { id: org.organizationId },
      { cookie: owner },
    );
    expect(list.data!.organization.invitations.find((i) => i.id === inv.id)).toMatchObject({
      status: "accepted",
      link: null,
    });
  });

  it("lets an existing account sign in and accept; signing up again is a conflict", async () => {
    const other = await createOrg(db.knex);
    const returning = await sessionFor(db.knex, skiff.url, other.owner);
    const inv = await invite(other.owner.email.toUpperCase(), "member");
    const token = tokenOf(inv.link!);
    expect(await linkInfo(token)).toMatchObject({ valid: true, accountExists: true });
    const signUp = await gql(skiff.url, SIGN_UP, { input: { token, name: "Dup", password: "long-enough-1" } });
    expect(signUp.errors?.[0]?.extensions?.code).toBe("CONFLICT");

    const res = await gql<{
      acceptInvitation: { role: string; organization: { id: string }; user: { email: string } };
    }>(skiff.url, ACCEPT, { token }, { cookie: returning });
    expect(res.errors).toBeUndefined();
    expect(res.data!.acceptInvitation).toEqual({
      role: "member",
      organization: { id: org.organizationId },
      user: { email: other.owner.email },
    });
    const viewer = await gql(
      skiff.url,
      "{ viewer { role activeOrganization { id } } organizations { id } }",
      {},
      { cookie: returning },
    );
    expect(viewer.data).toMatchObject({ viewer: { role: "member", activeOrganization: { id: org.organizationId } } });
    expect((viewer.data as { organizations: unknown[] }).organizations).toHaveLength(2);
    const twice = await gql(skiff.url, ACCEPT, { token }, { cookie: returning });
    expect(twice.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
  });

  it("keeps a member invited with grants limited when what they named was deleted before the acceptance", async () => {
    const [kept, granted] = await createProjects(db.knex, org.organizationId, 2);
    const other = await createOrg(db.knex);
    const returning = await sessionFor(db.knex, skiff.url, other.owner);
    const inv = await invite(other.owner.email, "member");
    // An organization import invites limited members with their grants (invitations.pending_grants), twice here.
    await db
      .knex("invitations")
      .where({ id: inv.id })
      .update({ pending_grants: JSON.stringify([{ projectId: granted }, { projectId: granted }]) });
    await db.knex("projects").where({ id: granted }).delete();
    const res = await gql(skiff.url, ACCEPT, { token: tokenOf(inv.link!) }, { cookie: returning });
    expect(res.errors).toBeUndefined();
    const seen = await gql<{ projects: { totalCount: number } }>(
      skiff.url,
      "{ projects(first: 100) { totalCount } }",
      {},
      { cookie: returning },
    );
    expect(seen.data!.projects.totalCount).toBe(0);
    const project = await gql(
      skiff.url,
      "query($id: ID!) { project(id: $id) { id } }",
      { id: kept },
      { cookie: returning },
    );
    expect(project.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
    const row = await db
      .knex("members")
      .where({ organization_id: org.organizationId, user_id: other.owner.userId })
      .first();
    expect(row.limitedToGrants).toBe(true);
  });

  it("offers to create the account when the invited address belongs only to an account never verified", async () => {
    // Anyone may register any address: an unverified account is not the invitee's to sign in to.
    const squatted = await createUser(db.knex, `squatted-${Date.now()}@example.test`);
    await db.knex("users").where({ id: squatted.userId }).update({ email_verified: false });
    const token = tokenOf((await invite(squatted.email, "member")).link!);
    expect(await linkInfo(token)).toMatchObject({ valid: true, accountExists: false });
    const signUp = await gql<{ signUpWithInvitation: { email: string; emailVerified: boolean } }>(skiff.url, SIGN_UP, {
      input: { token, name: "Invitee", password: "long-enough-1" },
    });
    expect(signUp.errors).toBeUndefined();
    expect(signUp.data!.signUpWithInvitation).toMatchObject({ email: squatted.email, emailVerified: true });
  });

  it("tells someone signed in under another address to sign out first; API keys cannot accept", async () => {
    const inv = await invite("intended@example.test");
    const token = tokenOf(inv.link!);
    const stranger = await createUser(db.knex);
    const cookie = await sessionFor(db.knex, skiff.url, stranger);
    const res = await gql(skiff.url, ACCEPT, { token }, { cookie });
    expect(res.errors?.[0]?.extensions).toMatchObject({ code: "FORBIDDEN", reason: "SIGNED_IN_AS_ANOTHER_USER" });
    expect(res.errors?.[0]?.message).toMatch(/sign out first/i);
    expect(res.errors?.[0]?.message).toContain("intended@example.test");
    const signUp = await gql(
      skiff.url,
      SIGN_UP,
      { input: { token, name: "S", password: "long-enough-1" } },
      { cookie },
    );
    expect(signUp.errors?.[0]?.extensions).toMatchObject({ code: "FORBIDDEN", reason: "SIGNED_IN_AS_ANOTHER_USER" });

    const withKey = await gql(skiff.url, ACCEPT, { token }, { apiKey: org.owner.apiKey });
    expect(withKey.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
    expect(await linkInfo(token)).toMatchObject({ valid: true, status: "pending" });
  });

  it("answers 20 invitations of one address sent at once (more than the pool's connections): one made, 19 CONFLICT", async () => {
    const started = performance.now();
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        gql(skiff.url, INVITE, { input: { email: "burst@example.test", role: "member" } }, { cookie: owner }),
      ),
    );
    console.log(`20 invitations at once answered in ${Math.round(performance.now() - started)} ms`);
    const codes = results.map((r) => (r.errors ? String(r.errors[0]?.extensions?.code) : "ok")).sort();
    expect(codes).toEqual(["ok", ...Array.from({ length: 19 }, () => "CONFLICT")].sort());
  });

  it("accepts a link once when two acceptances race", async () => {
    const inv = await invite("race@example.test");
    const token = tokenOf(inv.link!);
    const results = await Promise.all(
      [1, 2, 3].map((n) => gql(skiff.url, SIGN_UP, { input: { token, name: `R${n}`, password: "race-password" } })),
    );
    expect(results.filter((r) => !r.errors)).toHaveLength(1);
    expect(await db.knex("users").where({ email: "race@example.test" }).count("* as n").first()).toEqual({ n: 1 });
  });
});
