/**
 * The docs-host role and license synchronisation (spec "Docs-domain lookup and theme"), on real PostgreSQL over real
 * HTTP with a real local DNS server: `/api/docs/lookup` (400/404/200, cacheable 60 s, CORS), `/api/docs/sync`
 * authenticated by license key (401 otherwise), replace-and-remove per license, the conflict between two licenses, the
 * CNAME check (OK, WRONG_TARGET); and the instance side: `docs.sync` reports the saved hostnames through the outbound
 * client to SKIFF_DOCS_HOST_URL (here the instance itself, on port 4491), `docsRegistration` shows the verdict, a
 * cleared hostname disappears at the next sync, and a docs host that is down loses nothing.
 */
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { syncWithDocsHost } from "../../src/modules/docs-theming/docs-sync.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { drainJobs } from "../helpers/jobs.ts";
import { createOrg } from "../helpers/seed.ts";
import { gql, startTestServer } from "../helpers/server.ts";
import { type CnameServer, startCnameServer } from "./cname-dns.ts";
import { GET_THEME, orgNumber, SET_THEME, THEME } from "./docs-helpers.ts";

const PORT = 4491;
const TARGET = "cname.docs-host.test";
const LICENSE_A = "license-a-0123456789abcdef";
const LICENSE_B = "license-b-0123456789abcdef";
const LICENSE_SELF = "license-self-0123456789abcdef";
const sha = (k: string) => createHash("sha256").update(k).digest("hex");

let db: TestDatabase;
let dns: CnameServer;
let skiff: Awaited<ReturnType<typeof startTestServer>>;
let base: string;

beforeAll(async () => {
  dns = await startCnameServer();
  db = await createTestDatabase();
  skiff = await startTestServer(db.url, {
    PORT: String(PORT),
    SKIFF_BASE_URL: `http://127.0.0.1:${PORT}`,
    SKIFF_OUTBOUND_ALLOW: "127.0.0.1",
    SKIFF_DOCS_HOST_URL: `http://127.0.0.1:${PORT}`,
    SKIFF_LICENSE_KEY: LICENSE_SELF,
    SKIFF_DOCS_HOST_LICENSE_SHA256: [sha(LICENSE_A), sha(LICENSE_B)].join(","),
    SKIFF_DOCS_CNAME_TARGET: TARGET,
    SKIFF_DOCS_DNS_SERVERS: `127.0.0.1:${dns.port}`,
  });
  base = skiff.url;
});
afterAll(async () => {
  await skiff?.stop();
  await db?.drop();
  await dns?.close();
});

async function sync(license: string | null, registrations: unknown) {
  const res = await fetch(`${base}/api/docs/sync`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(license ? { authorization: `Bearer ${license}` } : {}) },
    body: JSON.stringify({ registrations }),
  });
  // biome-ignore lint/suspicious/noExplicitAny: inspected field by field.
  return { status: res.status, body: (await res.json()) as any };
}

async function lookup(hostname: string | null) {
  const res = await fetch(
    `${base}/api/docs/lookup${hostname === null ? "" : `?hostname=${encodeURIComponent(hostname)}`}`,
  );
  // biome-ignore lint/suspicious/noExplicitAny: inspected field by field.
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}

describe("docs host: lookup and sync", () => {
  it("answers 400 for a missing or invalid hostname and 404 for one not synchronised", async () => {
    const missing = await lookup(null);
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatch(/hostname/);
    for (const bad of ["", ".", "docs..test", "no_underscores.test", "a".repeat(300)]) {
      expect((await lookup(bad)).status, bad).toBe(400);
    }
    const unknown = await lookup("docs.never-synced.test");
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("refuses a synchronisation without a license key or with an unknown one (401)", async () => {
    const entry = [{ hostname: "docs.intruder.test", cloudUrl: "https://evil.test/o/1" }];
    expect((await sync(null, entry)).status).toBe(401);
    expect((await sync("license-unknown-0123456789", entry)).status).toBe(401);
    expect((await lookup("docs.intruder.test")).status).toBe(404);
  });

  it("checks the license key before the body: a bad body with a missing or unknown key is a 401", async () => {
    // Not a list of entries (the row's own shape check), and entries the service refuses.
    for (const bad of ["not a list", [{ hostname: "Upper.test", cloudUrl: "javascript:alert(1)" }]]) {
      for (const license of [null, "license-unknown-0123456789"]) {
        const res = await sync(license, bad);
        expect(res.status, `${license} ${JSON.stringify(bad)}`).toBe(401);
        expect(res.body.fieldErrors).toBeUndefined();
      }
      expect((await sync(LICENSE_A, bad)).status).toBe(400);
    }
  });

  it("registers a license's hostnames with their CNAME state and answers lookups (cacheable, CORS)", async () => {
    dns.records.set("docs.a1.test", TARGET);
    dns.records.set("docs.a2.test", "elsewhere.example.test");
    const res = await sync(LICENSE_A, [
      { hostname: "docs.a1.test", cloudUrl: "https://a.example.test/o/7" },
      { hostname: "docs.a2.test", cloudUrl: "https://a.example.test/o/8" },
      { hostname: "docs.a3.test", cloudUrl: "https://a.example.test/o/9" },
    ]);
    expect(res.status).toBe(200);
    expect(res.body.results).toEqual([
      { hostname: "docs.a1.test", accepted: true, conflict: false, dns: "OK" },
      { hostname: "docs.a2.test", accepted: true, conflict: false, dns: "WRONG_TARGET" },
      { hostname: "docs.a3.test", accepted: true, conflict: false, dns: "WRONG_TARGET" },
    ]);
    expect(dns.asked).toEqual(expect.arrayContaining(["docs.a1.test", "docs.a2.test", "docs.a3.test"]));
    const found = await lookup("docs.a1.test");
    expect(found.status).toBe(200);
    expect(found.body).toEqual({ cloudUrl: "https://a.example.test/o/7" });
    expect(found.headers.get("cache-control")).toBe("public, max-age=60, s-maxage=60");
    expect(found.headers.get("access-control-allow-origin")).toBe("*");
    // The same DNS name in another case or fully qualified (a browser at `https://docs.a1.test./`).
    for (const same of ["Docs.A1.test", "docs.a1.test."]) expect((await lookup(same)).body, same).toEqual(found.body);

    // The CNAME fixed later: the next sync reports OK.
    dns.records.set("docs.a2.test", `${TARGET}.`);
    const again = await sync(LICENSE_A, [
      { hostname: "docs.a1.test", cloudUrl: "https://a.example.test/o/7" },
      { hostname: "docs.a2.test", cloudUrl: "https://a.example.test/o/8" },
      { hostname: "docs.a3.test", cloudUrl: "https://a.example.test/o/9" },
    ]);
    expect(again.body.results[1]).toEqual({ hostname: "docs.a2.test", accepted: true, conflict: false, dns: "OK" });
  });

  it("replaces the license's registrations: a hostname left out disappears", async () => {
    await sync(LICENSE_A, [
      { hostname: "docs.r1.test", cloudUrl: "https://a.example.test/o/1" },
      { hostname: "docs.r2.test", cloudUrl: "https://a.example.test/o/2" },
    ]);
    expect((await lookup("docs.r2.test")).status).toBe(200);
    const res = await sync(LICENSE_A, [{ hostname: "docs.r1.test", cloudUrl: "https://a.example.test/o/1b" }]);
    expect(res.status).toBe(200);
    expect((await lookup("docs.r2.test")).status).toBe(404);
    expect((await lookup("docs.r1.test")).body).toEqual({ cloudUrl: "https://a.example.test/o/1b" });
    // Every hostname of license A from the earlier tests went too.
    expect((await lookup("docs.a1.test")).status).toBe(404);
    expect(
      await db
        .knex("docs_host_registrations")
        .where({ license_sha256: sha(LICENSE_A) })
        .pluck("hostname"),
    ).toEqual(["docs.r1.test"]);
  });

  it("refuses a hostname another license registered, and reports it", async () => {
    await sync(LICENSE_A, [{ hostname: "docs.shared.test", cloudUrl: "https://a.example.test/o/1" }]);
    const res = await sync(LICENSE_B, [
      { hostname: "docs.shared.test", cloudUrl: "https://b.example.test/o/5" },
      { hostname: "docs.b-own.test", cloudUrl: "https://b.example.test/o/5" },
    ]);
    expect(res.body.results).toEqual([
      { hostname: "docs.shared.test", accepted: false, conflict: true, dns: "PENDING" },
      { hostname: "docs.b-own.test", accepted: true, conflict: false, dns: "WRONG_TARGET" },
    ]);
    expect((await lookup("docs.shared.test")).body).toEqual({ cloudUrl: "https://a.example.test/o/1" });
    // B's empty list removes only B's registrations.
    await sync(LICENSE_B, []);
    expect((await lookup("docs.b-own.test")).status).toBe(404);
    expect((await lookup("docs.shared.test")).status).toBe(200);
  });

  it("answers 400 with fieldErrors for an invalid list", async () => {
    const cases = [
      [{ hostname: "Upper.test", cloudUrl: "https://x.test" }],
      [{ hostname: "docs.x.test", cloudUrl: "javascript:alert(1)" }],
      [
        { hostname: "docs.x.test", cloudUrl: "https://x.test" },
        { hostname: "docs.x.test", cloudUrl: "https://y.test" },
      ],
    ];
    for (const list of cases) {
      const res = await sync(LICENSE_A, list);
      expect(res.status, JSON.stringify(list)).toBe(400);
      expect(res.body.error).toMatch(/Invalid registrations/);
    }
    const notList = await fetch(`${base}/api/docs/sync`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${LICENSE_A}` },
      body: JSON.stringify({ hostnames: [] }),
    });
    expect(notList.status).toBe(400);
  });
});

describe("instance synchronisation", () => {
  const get = async (apiKey: string, org: string) =>
    // biome-ignore lint/suspicious/noExplicitAny: inspected field by field.
    ((await gql(base, GET_THEME, { org }, { apiKey })).data as any).docsTheme;

  it("reports saved hostnames through the docs host's HTTP API and shows the verdict; clearing removes it", async () => {
    const { owner, organizationId } = await createOrg(db.knex);
    const number = await orgNumber(db.knex, organizationId);
    dns.records.set("docs.instance.test", TARGET);
    await gql(
      base,
      SET_THEME,
      { org: organizationId, input: { ...THEME, docsHostname: "docs.instance.test" } },
      { apiKey: owner.apiKey },
    );
    expect((await get(owner.apiKey, organizationId)).docsRegistration).toMatchObject({
      syncedAt: null,
      dns: "PENDING",
    });

    const outcome = await syncWithDocsHost(skiff.services, skiff.services.log);
    expect(outcome.kind).toBe("synced");
    expect(outcome.results).toContainEqual({
      hostname: "docs.instance.test",
      accepted: true,
      conflict: false,
      dns: "OK",
    });
    expect((await get(owner.apiKey, organizationId)).docsRegistration).toEqual({
      hostname: "docs.instance.test",
      syncedAt: expect.any(String),
      dns: "OK",
      cnameTarget: TARGET,
      conflict: false,
    });
    expect((await lookup("docs.instance.test")).body).toEqual({ cloudUrl: `http://127.0.0.1:${PORT}/o/${number}` });
    // Stored under the instance's own license.
    expect(
      await db.knex("docs_host_registrations").where({ hostname: "docs.instance.test" }).first("license_sha256"),
    ).toEqual({
      licenseSha256: sha(LICENSE_SELF),
    });

    await gql(
      base,
      SET_THEME,
      { org: organizationId, input: { ...THEME, docsHostname: null } },
      { apiKey: owner.apiKey },
    );
    expect((await lookup("docs.instance.test")).status).toBe(200);
    await syncWithDocsHost(skiff.services, skiff.services.log);
    expect((await lookup("docs.instance.test")).status).toBe(404);
  });

  it("shows a conflict when another license holds the hostname", async () => {
    await sync(LICENSE_B, [{ hostname: "docs.taken.test", cloudUrl: "https://b.example.test/o/5" }]);
    const { owner, organizationId } = await createOrg(db.knex);
    await gql(
      base,
      SET_THEME,
      { org: organizationId, input: { ...THEME, docsHostname: "docs.taken.test" } },
      { apiKey: owner.apiKey },
    );
    await syncWithDocsHost(skiff.services, skiff.services.log);
    expect((await get(owner.apiKey, organizationId)).docsRegistration).toMatchObject({
      hostname: "docs.taken.test",
      syncedAt: null,
      conflict: true,
    });
    expect((await lookup("docs.taken.test")).body).toEqual({ cloudUrl: "https://b.example.test/o/5" });
  });

  it("keeps the saved settings when the docs host is down; the next sync registers", async () => {
    const { owner, organizationId } = await createOrg(db.knex);
    dns.records.set("docs.later.test", TARGET);
    await gql(
      base,
      SET_THEME,
      { org: organizationId, input: { ...THEME, docsHostname: "docs.later.test" } },
      { apiKey: owner.apiKey },
    );
    const down = {
      ...skiff.services,
      config: { ...skiff.services.config, SKIFF_DOCS_HOST_URL: "http://127.0.0.1:4492" },
    };
    await expect(syncWithDocsHost(down, skiff.services.log)).rejects.toThrow();
    const theme = await get(owner.apiKey, organizationId);
    expect(theme).toMatchObject({ siteName: THEME.siteName, docsHostname: "docs.later.test" });
    expect(theme.docsRegistration).toMatchObject({ syncedAt: null, dns: "PENDING" });
    expect((await lookup("docs.later.test")).status).toBe(404);

    // The job (as the crontab runs it) then registers it.
    await skiff.services.jobs.enqueue(db.knex, "docs.sync", { force: true });
    // A job of retry policy `none` counts as drained once taken: wait for the queue to drop it (done).
    await drainJobs(db.knex);
    for (const deadline = Date.now() + 20_000; ; ) {
      const { rows } = await db.knex.raw("select 1 from graphile_worker.jobs where task_identifier = 'docs.sync'");
      if (rows.length === 0) break;
      if (Date.now() > deadline) throw new Error("docs.sync still queued after 20 s");
      await new Promise((r) => setTimeout(r, 50));
    }
    expect((await get(owner.apiKey, organizationId)).docsRegistration).toMatchObject({ dns: "OK", conflict: false });
    expect((await lookup("docs.later.test")).status).toBe(200);
    expect(await db.knex("docs_sync_state").first("id")).toEqual({ id: 1 });
  });
});
