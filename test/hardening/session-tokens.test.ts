/**
 * Session tokens are stored hashed (src/auth/session-token-hashing.ts). The
 * `sessions` table holds no usable token: its value, even signed with the server secret into a well-formed cookie,
 * is refused, while the real cookie works; refreshes, listing, revoking and signing out keep working.
 */
import { createHash, createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createOrg, setPassword, TEST_SECRET } from "../helpers/seed.ts";
import { gql, useTestServer } from "../helpers/server.ts";
import { cookieOf, postAuth, signIn, TEST_PASSWORD } from "../helpers/session.ts";

const t = useTestServer();
const COOKIE = "skiff.session_token";
const viewer = "{ viewer { user { email } } }";

/** A session cookie as better-auth signs it: `token.` + base64 HMAC-SHA256 (SKIFF_SECRET), URI-encoded. */
function signedCookie(token: string): string {
  const signature = createHmac("sha256", TEST_SECRET).update(token).digest("base64");
  return `${COOKIE}=${encodeURIComponent(`${token}.${signature}`)}`;
}

/** The token inside a `cookie` header holding the session cookie. */
function tokenOf(cookie: string): string {
  const value = cookie
    .split("; ")
    .find((c) => c.startsWith(`${COOKIE}=`))!
    .slice(COOKIE.length + 1);
  return decodeURIComponent(value).split(".")[0]!;
}

async function signedInOwner() {
  const org = await createOrg(t.db.knex);
  await t.db.knex("auth_attempt_limits").delete();
  await setPassword(t.db.knex, org.owner.userId, TEST_PASSWORD);
  return org.owner;
}

describe("session tokens at rest", () => {
  it("the table holds the token's hash: presented as the cookie it is refused, the real cookie works", async () => {
    const owner = await signedInOwner();
    const cookie = await signIn(t.skiff.url, owner.email);
    const token = tokenOf(cookie);
    expect(signedCookie(token)).toBe(cookie.split("; ").find((c) => c.startsWith(`${COOKIE}=`)));

    const rows = (await t.db.knex("sessions").where({ user_id: owner.userId }).select("token")) as Array<{
      token: string;
    }>;
    expect(rows).toHaveLength(1);
    const stored = rows[0]!.token;
    expect(stored).not.toBe(token);
    expect(stored).toBe(createHash("sha256").update(token).digest("hex"));

    expect((await gql(t.skiff.url, viewer, {}, { cookie })).status).toBe(200);
    expect((await gql(t.skiff.url, viewer, {}, { cookie: signedCookie(stored) })).status).toBe(401);
    expect((await gql(t.skiff.url, viewer, {}, { cookie: `${COOKIE}=${stored}` })).status).toBe(401);
    const session = await fetch(`${t.skiff.url}/api/auth/get-session`, { headers: { cookie: signedCookie(stored) } });
    expect(await session.json()).toBeNull();
  });

  it("a refreshed session keeps its real token in the cookie", async () => {
    const owner = await signedInOwner();
    const cookie = await signIn(t.skiff.url, owner.email);
    // Due for better-auth's refresh (expires within 6 of its 7 days): get-session extends it and sets the cookie.
    await t.db
      .knex("sessions")
      .where({ user_id: owner.userId })
      .update({ expires_at: new Date(Date.now() + 5 * 24 * 3600 * 1000) });
    const res = await fetch(`${t.skiff.url}/api/auth/get-session`, { headers: { cookie } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { session: { token: string; expiresAt: string } };
    expect(new Date(body.session.expiresAt).getTime()).toBeGreaterThan(Date.now() + 6 * 24 * 3600 * 1000);
    const refreshed = cookieOf(res);
    expect(tokenOf(refreshed)).toBe(tokenOf(cookie));
    expect(body.session.token).toBe(tokenOf(cookie));
    expect((await gql(t.skiff.url, viewer, {}, { cookie: refreshed })).status).toBe(200);
  });

  it("list-sessions shows no live token; revoke-session, revoke-other-sessions and sign-out still work", async () => {
    const owner = await signedInOwner();
    const first = await signIn(t.skiff.url, owner.email);
    const second = await signIn(t.skiff.url, owner.email);
    const third = await signIn(t.skiff.url, owner.email);
    const list = (await (
      await fetch(`${t.skiff.url}/api/auth/list-sessions`, { headers: { cookie: first } })
    ).json()) as Array<{ token: string }>;
    expect(list).toHaveLength(3);
    const live = [first, second, third].map(tokenOf);
    for (const s of list) expect(live).not.toContain(s.token);

    // A listed value revokes that session (of the caller only).
    const secondStored = createHash("sha256").update(tokenOf(second)).digest("hex");
    expect(list.map((s) => s.token)).toContain(secondStored);
    expect((await postAuth(t.skiff.url, "/revoke-session", { token: secondStored }, first)).status).toBe(200);
    expect((await gql(t.skiff.url, viewer, {}, { cookie: second })).status).toBe(401);
    expect((await gql(t.skiff.url, viewer, {}, { cookie: first })).status).toBe(200);

    // Another user's listed value revokes nothing.
    const other = await signedInOwner();
    const othersCookie = await signIn(t.skiff.url, other.email);
    const othersStored = createHash("sha256").update(tokenOf(othersCookie)).digest("hex");
    expect((await postAuth(t.skiff.url, "/revoke-session", { token: othersStored }, first)).status).toBe(200);
    expect((await gql(t.skiff.url, viewer, {}, { cookie: othersCookie })).status).toBe(200);

    // The others end, the current one stays.
    const fourth = await signIn(t.skiff.url, owner.email);
    expect((await postAuth(t.skiff.url, "/revoke-other-sessions", {}, fourth)).status).toBe(200);
    expect((await gql(t.skiff.url, viewer, {}, { cookie: first })).status).toBe(401);
    expect((await gql(t.skiff.url, viewer, {}, { cookie: third })).status).toBe(401);
    expect((await gql(t.skiff.url, viewer, {}, { cookie: fourth })).status).toBe(200);

    // Sign-out deletes the row found by the cookie's token.
    expect((await postAuth(t.skiff.url, "/sign-out", {}, fourth)).status).toBe(200);
    expect((await gql(t.skiff.url, viewer, {}, { cookie: fourth })).status).toBe(401);
    expect(await t.db.knex("sessions").where({ user_id: owner.userId }).select("id")).toEqual([]);
  });
});
