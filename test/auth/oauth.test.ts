/**
 * OAuth sign-in (spec "Sign-in and accounts": GitHub, Google, GitLab depending on configuration), end to end
 * against a local OpenID Connect server (oauth2-mock-server) standing in for GitLab and Google: the browser's
 * redirects are followed by hand, the ID token is verified against the mock's keys, and the resulting session
 * works on GraphQL (here: to accept an invitation sent to the same address). GitHub, whose endpoints are fixed,
 * is checked up to the authorization redirect.
 */
import { OAuth2Server } from "oauth2-mock-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningSkiff } from "../../src/server/start.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { createOrg } from "../helpers/seed.ts";
import { gql, startTestServer } from "../helpers/server.ts";
import { cookieOf, postAuth, sessionFor } from "../helpers/session.ts";

let db: TestDatabase;
let skiff: RunningSkiff;
let plain: RunningSkiff;
let idp: OAuth2Server;
/** Claims the mock puts into the next tokens it signs. */
let claims: Record<string, unknown> = {};

beforeAll(async () => {
  idp = new OAuth2Server();
  await idp.issuer.keys.generate("RS256");
  await idp.start(0, "127.0.0.1");
  idp.service.on("beforeTokenSigning", (token) => Object.assign(token.payload, claims));
  db = await createTestDatabase();
  const issuer = idp.issuer.url!;
  skiff = await startTestServer(db.url, {
    GITLAB_CLIENT_ID: "gitlab-client",
    GITLAB_CLIENT_SECRET: "gitlab-secret",
    GITLAB_ISSUER: issuer,
    GOOGLE_CLIENT_ID: "google-client",
    GOOGLE_CLIENT_SECRET: "google-secret",
    GOOGLE_ISSUER: issuer,
    GITHUB_CLIENT_ID: "github-client",
    GITHUB_CLIENT_SECRET: "github-secret",
  });
  plain = await startTestServer(db.url);
});
afterAll(async () => {
  await skiff?.stop();
  await plain?.stop();
  await idp?.stop();
  await db?.drop();
});

/** Runs the browser side of a sign-in with `provider` on the mock. @returns the callback's answer. */
async function callbackOf(provider: string): Promise<Response> {
  const start = await postAuth(skiff.url, "/sign-in/social", { provider, callbackURL: "/" });
  expect(start.status).toBe(200);
  const { url } = (await start.json()) as { url: string };
  const authorize = new URL(url);
  expect(authorize.origin).toBe(new URL(idp.issuer.url!).origin);
  expect(authorize.searchParams.get("client_id")).toBe(`${provider}-client`);
  expect(authorize.searchParams.get("code_challenge_method")).toBe("S256");

  const redirected = await fetch(url, { redirect: "manual" });
  const callback = new URL(redirected.headers.get("location") ?? "");
  expect(callback.pathname).toBe(`/api/auth/callback/${provider}`);
  return fetch(`${skiff.url}${callback.pathname}${callback.search}`, {
    redirect: "manual",
    headers: { cookie: cookieOf(start) },
  });
}

/** Signs in with `provider` on the mock; expects a session. @returns the session cookie. */
async function signInWith(provider: string): Promise<string> {
  const done = await callbackOf(provider);
  expect(done.status).toBe(302);
  const cookie = cookieOf(done);
  expect(cookie).toContain("skiff.session_token=");
  return cookie;
}

describe("OpenID Connect providers", () => {
  it("signs a new user in with GitLab and lets them accept an invitation to that address", async () => {
    claims = { sub: "gitlab-user-1", email: "oauth.person@example.test", email_verified: true, name: "OAuth Person" };
    const org = await createOrg(db.knex);
    const owner = await sessionFor(db.knex, skiff.url, org.owner);
    const invited = await gql<{ inviteMember: { link: string } }>(
      skiff.url,
      `mutation { inviteMember(input: { email: "oauth.person@example.test", role: member }) { link } }`,
      {},
      { cookie: owner },
    );
    const token = new URL(invited.data!.inviteMember.link).searchParams.get("token");

    const cookie = await signInWith("gitlab");
    const viewer = await gql(
      skiff.url,
      "{ viewer { authenticatedBy user { email name emailVerified } } }",
      {},
      { cookie },
    );
    expect(viewer.data).toEqual({
      viewer: {
        authenticatedBy: "session",
        user: { email: "oauth.person@example.test", name: "OAuth Person", emailVerified: true },
      },
    });
    const account = await db.knex("accounts").where({ provider_id: "gitlab", account_id: "gitlab-user-1" }).first();
    expect(account).toBeDefined();

    const accepted = await gql(
      skiff.url,
      `mutation($token: String!) { acceptInvitation(token: $token) { role } }`,
      { token },
      { cookie },
    );
    expect(accepted.data).toEqual({ acceptInvitation: { role: "member" } });
  });

  it("signs in with Google the same way, and signs a returning user into the same account", async () => {
    claims = { sub: "google-user-1", email: "g.person@example.test", email_verified: true, name: "G Person" };
    const first = await signInWith("google");
    const again = await signInWith("google");
    const ids = await Promise.all(
      [first, again].map(
        async (cookie) =>
          (await gql<{ viewer: { user: { id: string } } }>(skiff.url, "{ viewer { user { id } } }", {}, { cookie }))
            .data!.viewer.user.id,
      ),
    );
    expect(ids[0]).toBe(ids[1]);
    expect(await db.knex("users").where({ email: "g.person@example.test" }).count("* as n").first()).toEqual({ n: 1 });
  });

  it("does not let an address the provider did not verify claim an invitation", async () => {
    claims = { sub: "gitlab-user-2", email: "unverified@example.test", email_verified: false, name: "Unverified" };
    const org = await createOrg(db.knex);
    const invited = await gql<{ inviteMember: { link: string } }>(
      skiff.url,
      `mutation { inviteMember(input: { email: "unverified@example.test", role: admin }) { link } }`,
      {},
      { apiKey: org.owner.apiKey },
    );
    const token = new URL(invited.data!.inviteMember.link).searchParams.get("token");
    const cookie = await signInWith("gitlab");
    const res = await gql(
      skiff.url,
      `mutation($token: String!) { acceptInvitation(token: $token) { role } }`,
      { token },
      { cookie },
    );
    expect(res.errors?.[0]?.extensions).toMatchObject({ code: "FORBIDDEN", reason: "EMAIL_NOT_VERIFIED" });
  });

  it("stores a provider's profile name as the person-name rule makes it; without one it takes, the address's local part", async () => {
    claims = {
      sub: "gitlab-pad",
      email: "pad.person@example.test",
      email_verified: true,
      name: "\u00a0 Pad Cafe\u0301 ",
    };
    const cookie = await signInWith("gitlab");
    const viewer = await gql<{ viewer: { user: { name: string } } }>(
      skiff.url,
      "{ viewer { user { name } } }",
      {},
      { cookie },
    );
    expect(viewer.data?.viewer.user.name).toBe("Pad Café");

    for (const [i, name] of ["   ", "Bob\u200b", "a\u0007b", "x".repeat(101), undefined].entries()) {
      const email = `refused-name-${i}@example.test`;
      claims = { sub: `google-refused-${i}`, email, email_verified: true, name };
      const signedIn = await signInWith("google");
      expect(signedIn, JSON.stringify(name)).toContain("skiff.session_token=");
      expect(await db.knex("users").where({ email }).first("name")).toEqual({ name: `refused-name-${i}` });
    }
  });

  it("rejects ID tokens from another issuer or for another client", async () => {
    for (const bad of [{ iss: "https://evil.example.test" }, { aud: "someone-else" }]) {
      claims = { sub: "evil", email: "evil@example.test", email_verified: true, ...bad };
      const start = await postAuth(skiff.url, "/sign-in/social", { provider: "gitlab", callbackURL: "/" });
      const { url } = (await start.json()) as { url: string };
      const callback = new URL((await fetch(url, { redirect: "manual" })).headers.get("location") ?? "");
      const done = await fetch(`${skiff.url}${callback.pathname}${callback.search}`, {
        redirect: "manual",
        headers: { cookie: cookieOf(start) },
      });
      expect(cookieOf(done)).not.toContain("skiff.session_token=");
    }
    expect(await db.knex("users").where({ email: "evil@example.test" }).first()).toBeUndefined();
  });
});

describe("linking and unlinking a provider", () => {
  it("links Google to a password account (the person is mailed), unlinks either, never the last", async () => {
    const org = await createOrg(db.knex);
    const { email } = org.owner;
    const cookie = await sessionFor(db.knex, skiff.url, org.owner);
    claims = { sub: "google-linked-1", email, email_verified: true, name: "Linked" };
    const start = await postAuth(skiff.url, "/link-social", { provider: "google", callbackURL: "/account" }, cookie);
    expect(start.status).toBe(200);
    const { url } = (await start.json()) as { url: string };
    const callback = new URL((await fetch(url, { redirect: "manual" })).headers.get("location") ?? "");
    const done = await fetch(`${skiff.url}${callback.pathname}${callback.search}`, {
      redirect: "manual",
      headers: { cookie: [cookie, cookieOf(start)].filter(Boolean).join("; ") },
    });
    expect(done.status).toBe(302);
    const accounts = await db.knex("accounts").where({ user_id: org.owner.userId }).orderBy("provider_id");
    expect(accounts.map((a: { providerId: string }) => a.providerId)).toEqual(["credential", "google"]);
    // The notice is a queued mail job: wait until the outbox holds it.
    const subject = "A sign-in provider was linked to your Skiff account";
    const notice = () => db.knex("mail_outbox").where({ to: email, subject }).first();
    await expect.poll(async () => (await notice())?.text, { timeout: 10_000 }).toContain("with google.");

    const unlink = (accountId: string) => postAuth(skiff.url, "/unlink-account", { accountId }, cookie);
    const [credential, google] = accounts as { id: string }[];
    expect((await unlink(credential!.id)).status).toBe(200);
    const last = await unlink(google!.id);
    expect(last.status).toBe(400);
    expect(((await last.json()) as { code?: string }).code).toBe("FAILED_TO_UNLINK_LAST_ACCOUNT");
    expect(await db.knex("accounts").where({ user_id: org.owner.userId }).count({ n: "*" })).toEqual([{ n: 1 }]);
  });
});

describe("GitHub and configuration", () => {
  it("sends GitHub sign-ins to github.com with our client id and callback", async () => {
    const start = await postAuth(skiff.url, "/sign-in/social", { provider: "github", callbackURL: "/" });
    expect(start.status).toBe(200);
    const url = new URL(((await start.json()) as { url: string }).url);
    expect(`${url.origin}${url.pathname}`).toBe("https://github.com/login/oauth/authorize");
    expect(url.searchParams.get("client_id")).toBe("github-client");
    expect(url.searchParams.get("redirect_uri")).toBe(
      `${skiff.services.config.SKIFF_BASE_URL}/api/auth/callback/github`,
    );
    expect(url.searchParams.get("scope")).toContain("user:email");
  });

  it("refuses providers whose client id is not configured", async () => {
    for (const provider of ["github", "google", "gitlab"]) {
      const res = await postAuth(plain.url, "/sign-in/social", { provider, callbackURL: "/" });
      expect(res.status, provider).toBeGreaterThanOrEqual(400);
      expect(res.status, provider).toBeLessThan(500);
    }
  });
});
