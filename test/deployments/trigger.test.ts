/**
 * The deploy trigger URL and push webhooks, over real HTTP on loopback with real HMAC signatures:
 * 202 and a deployment; unknown and regenerated tokens 404; GET 405 with Allow; per-token 429 with Retry-After;
 * same SHA within 10 minutes → one deployment; GitHub push (valid/invalid signature, ping, every filter) and
 * GitLab push (token) with `{ deployed: false, reason }` in words; only owners and admins see the URL.
 */
import { describe, expect, it } from "vitest";
import { drainJobs } from "../helpers/jobs.ts";
import { addMember } from "../helpers/seed.ts";
import { gql, useTestServer } from "../helpers/server.ts";
import { deploymentsOf, seededApplication } from "./deploy-helpers.ts";
import { githubPushPayload, gitlabPushPayload, hubSignature } from "./push-payloads.ts";

const t = useTestServer();

/** An application with its deploy URL (read as the owner) and, when asked, a webhook secret and settings. */
async function appWithUrl(settings?: Record<string, unknown>) {
  const seeded = await seededApplication(t.db.knex, {
    source: JSON.stringify({ dockerImage: "nginx:1.27", branch: "main" }),
  });
  const as = { apiKey: seeded.owner.apiKey };
  const read = await gql<{ application: { deployWebhookUrl: string } }>(
    t.skiff.url,
    `query($id: ID!) { application(id: $id) { deployWebhookUrl } }`,
    { id: seeded.applicationId },
    as,
  );
  expect(read.errors).toBeUndefined();
  const token = read.data!.application.deployWebhookUrl.split("/api/deploy/")[1]!;
  let secret = "";
  if (settings) {
    const s = await gql<{ regenerateDeployWebhookSecret: string }>(
      t.skiff.url,
      `mutation($id: ID!) { regenerateDeployWebhookSecret(applicationId: $id) }`,
      { id: seeded.applicationId },
      as,
    );
    secret = s.data!.regenerateDeployWebhookSecret;
    const u = await gql(
      t.skiff.url,
      `mutation($id: ID!, $input: DeploySettingsInput!) { updateDeploySettings(applicationId: $id, input: $input) { autoDeploy } }`,
      { id: seeded.applicationId, input: settings },
      as,
    );
    expect(u.errors).toBeUndefined();
  }
  return { ...seeded, token, secret, path: `/api/deploy/${token}` };
}

async function post(path: string, body?: string | Buffer, headers: Record<string, string> = {}) {
  const res = await fetch(`${t.skiff.url}${path}`, {
    method: "POST",
    headers: body === undefined ? headers : { "content-type": "application/json", ...headers },
    body,
  });
  const text = await res.text();
  // biome-ignore lint/suspicious/noExplicitAny: bodies are inspected field by field.
  return { status: res.status, headers: res.headers, body: (text ? JSON.parse(text) : null) as any };
}

/** POSTs a GitHub event with a valid signature for `secret` (or the given signature). */
function github(path: string, event: string, payload: unknown, secret: string, signature?: string) {
  const raw = JSON.stringify(payload, null, 2); // GitHub sends pretty-printed JSON: the signature covers these bytes
  return post(path, raw, { "x-github-event": event, "x-hub-signature-256": signature ?? hubSignature(secret, raw) });
}

describe("POST /api/deploy/:token", () => {
  it("queues a deployment (202), runs it; unknown → 404; GET → 405 with Allow; regenerate → old URL 404", async () => {
    const app = await appWithUrl();
    expect(app.token).toMatch(/^[A-Za-z0-9_-]{43}$/); // 256 bits, URL-safe
    const res = await post(app.path);
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ deploymentId: expect.stringMatching(/^dpl_/), status: "queued" });
    await drainJobs(t.db.knex);
    const [d] = await deploymentsOf(t.db.knex, app.applicationId);
    expect(d).toMatchObject({ id: res.body.deploymentId, status: "done", trigger: "api", title: "API deployment" });

    const stored = await t.db.knex("applications").where({ id: app.applicationId }).first();
    expect(stored.deployTokenEncrypted).not.toContain(app.token);
    expect(stored.deployTokenHash).toMatch(/^[0-9a-f]{64}$/);

    const unknown = await post(`/api/deploy/${"A".repeat(43)}`);
    expect(unknown).toMatchObject({ status: 404, body: { error: expect.any(String) } });
    const get = await fetch(`${t.skiff.url}${app.path}`);
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
    expect(await get.json()).toMatchObject({ code: "METHOD_NOT_ALLOWED" });
    // The MCP endpoint answers any method but POST alike.
    for (const method of ["GET", "DELETE", "PUT", "PATCH"]) {
      const mcp = await fetch(`${t.skiff.url}/mcp`, { method });
      expect(mcp.status, method).toBe(405);
      expect(mcp.headers.get("allow")).toBe("POST");
      expect(await mcp.json()).toMatchObject({ code: "METHOD_NOT_ALLOWED", error: { code: -32000 } });
    }

    const regen = await gql<{ regenerateDeployToken: string }>(
      t.skiff.url,
      `mutation($id: ID!) { regenerateDeployToken(applicationId: $id) }`,
      { id: app.applicationId },
      { apiKey: app.owner.apiKey },
    );
    const old = await post(app.path);
    expect(old.status).toBe(404);
    expect(old.body).toEqual(unknown.body);
    const fresh = await post(new URL(regen.data!.regenerateDeployToken).pathname);
    expect(fresh.status).toBe(202);
  });

  it("refuses a push whose head commit is not a commit SHA, and a lone SHA-1 signature, queueing nothing", async () => {
    const app = await appWithUrl({ autoDeploy: true });
    for (const after of ["HEAD:../../etc#x y", "not-a-sha"]) {
      const push = { ref: "refs/heads/main", after, head_commit: { id: after, message: "m" } };
      const res = await post(app.path, JSON.stringify(push), { "x-github-event": "push" });
      expect(res.status, after).toBe(400);
      expect(res.body).toMatchObject({
        code: "BAD_REQUEST",
        details: { fieldErrors: { commitSha: [expect.any(String)] }, formErrors: [] },
      });
    }
    const push = JSON.stringify({ ref: "refs/heads/main", after: "a".repeat(40), head_commit: { message: "m" } });
    const sha1Only = await post(app.path, push, { "x-github-event": "push", "x-hub-signature": "sha1=abc" });
    expect(sha1Only.status).toBe(401);
    expect(await deploymentsOf(t.db.knex, app.applicationId)).toEqual([]);
  });

  it("refuses an API trigger's body that does not fit (400, the field named) and queues nothing for it", async () => {
    const app = await appWithUrl();
    const refused: Array<[string, string]> = [
      ['{"commitSha":"not-hex!"}', "commitSha"],
      ['{"commitSha":"abc"}', "commitSha"],
      ['{"title":5}', "title"],
      ["[]", "body"],
      ['"deploy"', "body"],
      ["null", "body"],
    ];
    for (const [body, field] of refused) {
      const res = await post(app.path, body);
      expect(res.status, body).toBe(400);
      expect(res.body, body).toMatchObject({
        code: "BAD_REQUEST",
        details: { fieldErrors: { [field]: [expect.any(String)] }, formErrors: [] },
      });
    }
    // The body rules every JSON path has: not JSON, a prototype key, nesting past 64 levels.
    for (const [body, message] of [
      ['{"title":', "Body is not valid JSON"],
      ['{"__proto__":{"a":1}}', "forbidden key"],
      [`${"[".repeat(65)}${"]".repeat(65)}`, "deeper than 64 levels"],
      [Buffer.from('{"title":"bad \xff byte"}', "latin1"), "not valid UTF-8"],
    ] as Array<[string | Buffer, string]>) {
      const res = await post(app.path, body);
      expect(res.status, String(body).slice(0, 20)).toBe(400);
      expect(res.body.error, String(body).slice(0, 20)).toContain(message);
      expect(res.body).toMatchObject({
        code: "BAD_REQUEST",
        details: { fieldErrors: {}, formErrors: [res.body.error] },
      });
    }
    expect(await deploymentsOf(t.db.knex, app.applicationId)).toEqual([]);
    // Only the title's first line is kept, without control characters.
    const titled = await post(app.path, JSON.stringify({ title: "Release 4\u0007 \nsecond line", extra: true }));
    expect(titled.status).toBe(202);
    const [d] = await deploymentsOf(t.db.knex, app.applicationId);
    expect(d!.title).toBe("Release 4");
  });

  it("refuses a charset other than utf-8 with 415 before anything runs: API triggers and signed pushes", async () => {
    const app = await appWithUrl({ autoDeploy: true });
    const raw = JSON.stringify(githubPushPayload({ after: "2222222222222222222222222222222222222222" }));
    const gitlab = JSON.stringify(gitlabPushPayload({ after: "3333333333333333333333333333333333333333" }));
    const cases: Array<[string, Record<string, string>, string]> = [
      ["latin1", {}, "{}"],
      ["utf-16", {}, JSON.stringify({ commitSha: "abc1234" })],
      ['"ISO-8859-1"', { "x-github-event": "push", "x-hub-signature-256": hubSignature(app.secret, raw) }, raw],
      ["windows-1252", { "x-gitlab-event": "Push Hook", "x-gitlab-token": app.secret }, gitlab],
    ];
    for (const [charset, headers, body] of cases) {
      const res = await post(app.path, body, { ...headers, "content-type": `application/json; charset=${charset}` });
      expect(res.status, `${charset} ${JSON.stringify(res.body)}`).toBe(415);
      expect(res.body).toMatchObject({
        error: expect.stringContaining("Unsupported charset"),
        code: "UNSUPPORTED_MEDIA_TYPE",
      });
    }
    expect(await deploymentsOf(t.db.knex, app.applicationId)).toEqual([]);
    // A UTF-8 label is read.
    const utf8 = await post(app.path, "{}", { "content-type": "application/json; charset=utf-8" });
    expect(utf8.status).toBe(202);
  });

  it("shows the URL to owners and admins only; members get null and cannot regenerate", async () => {
    const app = await appWithUrl();
    const admin = await addMember(t.db.knex, app.organizationId, "admin");
    const member = await addMember(t.db.knex, app.organizationId, "member");
    const q = `query($id: ID!) { application(id: $id) { deployWebhookUrl } }`;
    const a = await gql<{ application: { deployWebhookUrl: string } }>(
      t.skiff.url,
      q,
      { id: app.applicationId },
      { apiKey: admin.apiKey },
    );
    expect(a.data!.application.deployWebhookUrl).toContain(app.token);
    const m = await gql<{ application: { deployWebhookUrl: string | null } }>(
      t.skiff.url,
      q,
      { id: app.applicationId },
      { apiKey: member.apiKey },
    );
    expect(m.data!.application.deployWebhookUrl).toBeNull();
    const regen = await gql(
      t.skiff.url,
      `mutation($id: ID!) { regenerateDeployToken(applicationId: $id) }`,
      { id: app.applicationId },
      { apiKey: member.apiKey },
    );
    expect(regen.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
  });

  it("rate-limits each token: 429 with Retry-After after 30 requests in a minute", async () => {
    const app = await appWithUrl();
    const statuses: number[] = [];
    let last: Awaited<ReturnType<typeof post>> | undefined;
    for (let i = 0; i < 31; i++) {
      last = await post(app.path, JSON.stringify({ commitSha: "abc1234" }));
      statuses.push(last.status);
    }
    expect(statuses.slice(0, 30).every((s) => s === 202)).toBe(true);
    expect(last!.status).toBe(429);
    expect(Number(last!.headers.get("retry-after"))).toBeGreaterThan(0);
    // Same SHA within 10 minutes: one deployment for all 30 accepted requests.
    expect(await deploymentsOf(t.db.knex, app.applicationId)).toHaveLength(1);

    // The limit is the token's own: another application's token, from the same client, is still accepted (a limit
    // per client or a global one would answer 429 here) while the first one stays limited.
    const other = await appWithUrl();
    expect(other.token).not.toBe(app.token);
    const otherStatuses: number[] = [];
    for (let i = 0; i < 30; i++)
      otherStatuses.push((await post(other.path, JSON.stringify({ commitSha: "def5678" }))).status);
    expect(otherStatuses).toEqual(Array(30).fill(202));
    expect((await post(other.path, JSON.stringify({ commitSha: "def5678" }))).status).toBe(429);
    expect((await post(app.path, JSON.stringify({ commitSha: "abc1234" }))).status).toBe(429);
    expect(await deploymentsOf(t.db.knex, other.applicationId)).toHaveLength(1);
    await drainJobs(t.db.knex);
  });
});

describe("GitHub push webhooks", () => {
  it("deploys a signed push, refuses bad signatures (401), answers ping, and explains every filter", async () => {
    const app = await appWithUrl({ autoDeploy: true, watchPaths: ["src/**", "README.md", "!src/**/*.test.ts"] });
    const ping = await github(app.path, "ping", { zen: "Keep it logically awesome.", hook_id: 1 }, app.secret);
    expect(ping).toMatchObject({ status: 200, body: { ok: true, event: "ping" } });

    const push = githubPushPayload({
      message: "Fix the header\n\nLonger body",
      after: "1111111111111111111111111111111111111111",
    });
    const ok = await github(app.path, "push", push, app.secret);
    expect(ok.status).toBe(202);
    const again = await github(app.path, "push", push, app.secret); // redelivery of the same SHA
    expect(again.body).toMatchObject({ deploymentId: ok.body.deploymentId, deduplicated: true });

    const bad = await github(app.path, "push", push, app.secret, hubSignature("wrong-secret", JSON.stringify(push)));
    expect(bad.status).toBe(401);
    const tampered = await post(app.path, JSON.stringify({ ...push, ref: "refs/heads/evil" }), {
      "x-github-event": "push",
      "x-hub-signature-256": hubSignature(app.secret, JSON.stringify(push)),
    });
    expect(tampered.status).toBe(401);

    const cases: Array<[Parameters<typeof githubPushPayload>[0], string]> = [
      [{ ref: "refs/heads/feature/x" }, 'branch "feature/x" does not match "main"'],
      [{ ref: "refs/tags/v1.0.0" }, 'tag pushes do not deploy (pushed tag "v1.0.0")'],
      [{ modified: ["docs/index.md"] }, "no changed file matches watch paths"],
      [{ modified: ["src/app.test.ts"] }, "no changed file matches watch paths"],
      [{ message: "Tweak [skip ci]", modified: ["src/app.ts"] }, "the head commit message contains [skip ci]"],
      [{ message: "Docs [Skip Deploy]", modified: ["src/app.ts"] }, "the head commit message contains [skip deploy]"],
    ];
    for (const [options, reason] of cases) {
      const res = await github(
        app.path,
        "push",
        githubPushPayload({ after: "2222222222222222222222222222222222222222", ...options }),
        app.secret,
      );
      expect(res, reason).toMatchObject({ status: 200, body: { deployed: false, reason } });
    }
    const deployed = await github(
      app.path,
      "push",
      githubPushPayload({ after: "3333333333333333333333333333333333333333", modified: ["src/app.ts"] }),
      app.secret,
    );
    expect(deployed.status).toBe(202);

    await drainJobs(t.db.knex);
    const rows = await deploymentsOf(t.db.knex, app.applicationId);
    expect(rows.map((r) => [r.trigger, r.commitSha, r.status])).toEqual([
      ["push", "1111111111111111111111111111111111111111", "done"],
      ["push", "3333333333333333333333333333333333333333", "done"],
    ]);
    expect(rows[0].title).toBe("Fix the header");
    // Every call of the URL is in its organization's audit log, naming the application: the ping, the refused
    // signatures and the pushes that do not deploy included.
    const entries = await t.db
      .knex("audit_events")
      .where({ action: "POST /api/deploy/:token" })
      .whereRaw("? = any(target_ids)", [app.applicationId])
      .select("organizationId", "outcome");
    expect(entries).toHaveLength(6 + cases.length);
    expect(entries.every((e) => e.organizationId === app.organizationId)).toBe(true);
    expect(entries.filter((e) => e.outcome === "refused")).toHaveLength(2);
  });

  it("honours a branch glob, auto-deploy off, required signatures and an empty secret", async () => {
    const app = await appWithUrl({ autoDeploy: true, branchFilter: "release/*", requireSignature: true });
    const glob = await github(app.path, "push", githubPushPayload({ ref: "refs/heads/release/2.1" }), app.secret);
    expect(glob.status).toBe(202);
    const unsigned = await post(app.path, JSON.stringify(githubPushPayload()), { "x-github-event": "push" });
    expect(unsigned.status).toBe(401);

    const off = await appWithUrl({ autoDeploy: false });
    const res = await github(off.path, "push", githubPushPayload(), off.secret);
    expect(res.body).toEqual({ deployed: false, reason: "auto-deploy is off" });

    const noSecret = await appWithUrl();
    const raw = JSON.stringify(githubPushPayload());
    const empty = await post(noSecret.path, raw, {
      "x-github-event": "push",
      "x-hub-signature-256": hubSignature("", raw),
    });
    expect(empty.status).toBe(401); // an empty secret never verifies anything
    await drainJobs(t.db.knex);
  });
});

describe("GitLab push webhooks", () => {
  it("deploys with the right X-Gitlab-Token, 401 with a wrong one, and explains filters", async () => {
    const app = await appWithUrl({ autoDeploy: true });
    const send = (payload: unknown, token: string, event = "Push Hook") =>
      post(app.path, JSON.stringify(payload), { "x-gitlab-event": event, "x-gitlab-token": token });
    const ok = await send(gitlabPushPayload({ message: "Ship it" }), app.secret);
    expect(ok.status).toBe(202);
    expect((await send(gitlabPushPayload(), "not-the-secret")).status).toBe(401);
    const branch = await send(
      gitlabPushPayload({ ref: "refs/heads/dev", after: "4444444444444444444444444444444444444444" }),
      app.secret,
    );
    expect(branch.body).toEqual({ deployed: false, reason: 'branch "dev" does not match "main"' });
    const tag = await send(gitlabPushPayload({ ref: "refs/tags/v2" }), app.secret, "Tag Push Hook");
    expect(tag.body).toEqual({ deployed: false, reason: 'tag pushes do not deploy (pushed tag "v2")' });
    await drainJobs(t.db.knex);
    const rows = await deploymentsOf(t.db.knex, app.applicationId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: "done", title: "Ship it", trigger: "push" });
  });
});
