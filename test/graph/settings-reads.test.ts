/**
 * One read path for the team, API keys, agent tokens, providers, payment gateway services and docs
 * themes: every field of `Member`, `MemberGrant`, `Invitation`, `ApiKey`, `AgentToken`, `GitProvider`,
 * `ContainerRegistry`, `SshKey`, `PaymentGatewayService`, `PaymentRelay`, `DocsTheme` and `PublicDocsTheme` (aliases
 * included) answered for an owner, an admin, a member limited to one project and another organization's owner,
 * checked against the rows seeded here (the oracle is the database itself), with what each may see (another
 * organization's data is NOT_FOUND or absent) and the statements each request runs: one to authenticate, one per
 * root field — whether the query is answered by one compiled statement or by the executor (undeclared fields such
 * as `link`, `signingKey` or `paymentMethods` answered by resolvers from the row).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SandboxGateway, startSandboxGateway } from "../../sandbox/gateway/sandbox-gateway.ts";
import { newId } from "../../src/db/ids.ts";
import { createSecretBox } from "../../src/db/secrets.ts";
import type { RunningSkiff } from "../../src/server/start.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import {
  addMember,
  createAgentTokenFor,
  createGitProvider,
  createOrg,
  createProjects,
  createRegistry,
  createSshKey,
  type SeededUser,
  TEST_SECRET,
} from "../helpers/seed.ts";
import { type GqlResponse, gql, startTestServer } from "../helpers/server.ts";

const BASE_URL = "https://skiff.example.test";
const CNAME_TARGET = "cname.docs.example.test";
const GATEWAY_KEY = "gateway-test-key";
/** Stored "last used" times in the future: never stale, so no request writes one in the background. */
const LAST_REQUEST = new Date("2099-01-02T03:04:05.678Z");
const box = createSecretBox(TEST_SECRET);

type Persona = "owner" | "admin" | "projectMember" | "otherOwner";
const PERSONAS: Persona[] = ["owner", "admin", "projectMember", "otherOwner"];
type Row = Record<string, unknown>;

let db: TestDatabase;
let skiff: RunningSkiff;
let sandbox: SandboxGateway;
let orgA: string;
let orgB: string;
let databaseIdA: number;
let projects: string[];
const users = {} as Record<Persona | "appMember", SeededUser>;
const tokens: Record<string, string> = {};
let agentPrefix: string;

beforeAll(async () => {
  sandbox = await startSandboxGateway({ apiKey: GATEWAY_KEY });
  db = await createTestDatabase();
  skiff = await startTestServer(db.url, {
    // No job runner: its every-minute docs sync would rewrite the registration read here and add its statements
    // to the counts whenever a test crosses a minute boundary.
    SKIFF_WORKER: "false",
    SKIFF_BASE_URL: BASE_URL,
    SKIFF_DOCS_CNAME_TARGET: CNAME_TARGET,
    SKIFF_GATEWAY_URL: sandbox.url,
    SKIFF_GATEWAY_API_KEY: GATEWAY_KEY,
  });
  const { knex } = db;
  const a = await createOrg(knex);
  const b = await createOrg(knex);
  [orgA, orgB] = [a.organizationId, b.organizationId];
  databaseIdA = (await knex("organizations").where({ id: orgA }).first("database_id")).databaseId;
  projects = await createProjects(knex, orgA, 2, { applicationsPerEnvironment: 1 });
  await createProjects(knex, orgB, 1, { applicationsPerEnvironment: 1 });
  const appOfSecond = await knex("applications").where({ project_id: projects[1] }).first("id");
  users.owner = a.owner;
  users.admin = await addMember(knex, orgA, "admin");
  users.projectMember = await addMember(knex, orgA, "member", { projectIds: [projects[0]!] });
  users.appMember = await addMember(knex, orgA, "member", { applicationIds: [appOfSecond.id] });
  users.otherOwner = b.owner;
  await knex("api_keys").update({ last_request: LAST_REQUEST });
  // A never-used key of the owner (lastUsedAt null) and one without a name or start.
  await knex("api_keys").insert({
    id: newId("apiKey"),
    name: null,
    start: null,
    prefix: "skiff_",
    key: "unused-hash",
    reference_id: users.owner.userId,
    organization_id: orgA,
  });

  // Invitations of A: pending, expired, cancelled (with link tokens); one of B.
  const now = Date.now();
  const invite = async (org: string, email: string, status: string, expiresInMs: number, createdAgoMs: number) => {
    const token = `token-${email}`;
    tokens[email] = token;
    await knex("invitations").insert({
      id: newId("invitation"),
      organization_id: org,
      email,
      role: "member",
      status,
      inviter_id: org === orgA ? users.owner.userId : users.otherOwner.userId,
      expires_at: new Date(now + expiresInMs),
      created_at: new Date(now - createdAgoMs),
      token_hash: `hash-${email}`,
      token_encrypted: box.encrypt(token),
    });
  };
  await invite(orgA, "expired@example.test", "pending", -1000, 3000);
  await invite(orgA, "cancelled@example.test", "canceled", 86_400_000, 2000);
  await invite(orgA, "pending@example.test", "pending", 86_400_000, 1000);
  await invite(orgB, "b@example.test", "pending", 86_400_000, 1000);

  await createAgentTokenFor(knex, orgA, users.owner, new Date("2099-12-31T00:00:00.000Z"));
  agentPrefix = (await knex("agent_tokens").where({ organization_id: orgA }).first("prefix")).prefix;
  await knex("agent_tokens").update({ last_used_at: new Date("2026-01-02T03:04:05.006Z") });

  for (const org of [orgA, orgB]) {
    await createGitProvider(knex, org, "github");
    await createGitProvider(knex, org, "gitlab");
    await createRegistry(knex, org);
    await createSshKey(knex, org);
  }
  await knex("container_registries").where({ organization_id: orgA }).update({ username: "robot" });

  // A's merchant, active at the sandbox gateway (card turned off), and a service in each project; relays of one.
  sandbox.merchants.set("mch_a", {
    id: "mch_a",
    name: "A",
    status: "active",
    code: "McAbCx",
    signingKey: "k".repeat(64),
    eventsUrl: null,
    disabledMethods: new Set(["card"]),
  });
  await knex("payment_merchants").insert({
    organization_id: orgA,
    gateway_merchant_id: "mch_a",
    merchant_code: "McAbCx",
    signing_key_sealed: box.encrypt("k".repeat(64)),
    status: "active",
  });
  const services = projects.map((projectId, i) => ({
    id: newId("paymentGatewayService"),
    organization_id: orgA,
    project_id: projectId,
    name: `service ${i}`,
    webhook_url: i === 0 ? "https://hooks.example.test/pay" : null,
  }));
  await knex("payment_gateway_services").insert(services);
  await knex("payment_relays").insert(
    ["delivered", "failed", "refused"].map((outcome, i) => ({
      id: newId("paymentRelay"),
      organization_id: orgA,
      service_id: services[0]!.id,
      event_type: i === 2 ? "something.else" : "invoice.payment_succeeded",
      known_event: i !== 2,
      external_reference: i === 0 ? "ref-1" : null,
      target_url: "https://hooks.example.test/pay",
      outcome,
      status_code: outcome === "refused" ? null : 200 + i * 300,
      error: outcome === "delivered" ? null : `why ${i}`,
      duration_ms: 10 + i,
    })),
  );

  for (const [org, host] of [
    [orgA, "docs.a.example.test"],
    [orgB, null],
  ] as const) {
    await knex("docs_themes").insert({
      organization_id: org,
      site_name: `Docs of ${org}`,
      logo_url: "https://cdn.example.test/logo.svg",
      favicon_url: org === orgA ? "https://cdn.example.test/favicon.ico" : null,
      // json keeps the owner's order (not alphabetical).
      colors_light: JSON.stringify({ primary: "222 47% 11%", accent: "210 40% 96%" }),
      colors_dark: JSON.stringify({ primary: "210 40% 98%" }),
      footer_text: "© docs",
      custom_css: org === orgA ? ".x { color: red }" : null,
      docs_hostname: host,
      docs_synced_at: host ? new Date("2026-03-04T05:06:07.089Z") : null,
      docs_dns: host ? "OK" : "PENDING",
    });
  }
});

afterAll(async () => {
  await skiff?.stop();
  await sandbox?.close();
  await db?.drop();
});

/** Runs `query` as `persona`, counting the SQL statements of the request (authentication included). */
async function run(persona: Persona, query: string, variables: Row = {}) {
  let statements = 0;
  const count = () => statements++;
  skiff.services.knex.on("query", count);
  const started = Date.now();
  try {
    const res = (await gql(skiff.url, query, variables, { apiKey: users[persona].apiKey })) as GqlResponse<Row>;
    return { res, statements, started, finished: Date.now() };
  } finally {
    skiff.services.knex.off("query", count);
  }
}

/** A timestamp as the DateTime scalar writes it (null stays null). */
const iso = (value: Date | null) => (value === null ? null : value.toISOString());

/** What `persona` may see of projects and applications (grants limit only the project member). */
function sees(persona: Persona) {
  return {
    project: (id: string) => persona !== "projectMember" || id === projects[0],
    application: (projectId: string) => persona !== "projectMember" || projectId === projects[0],
  };
}

const ORGANIZATION = `query($org: ID!) { organization(id: $org) { id
  members { id role createdAt who: user { id email } organization { id }
    grants { id createdAt project { id name } application { id name } } }
  invitations { id email role status createdAt expiresAt invitedBy { id email } link }
  pending: invitations(status: pending) { id status }
  expired: invitations(status: expired) { id }
  revoked: invitations(status: revoked) { id }
  apiKeys { id name prefix createdAt lastUsedAt createdBy { id } current }
  gitProviders { id type name createdAt }
  containerRegistries { id name url username createdAt }
  sshKeys { id name publicKey createdAt }
  projects(first: 10) { edges { node { id paymentGatewayServices { id name webhookUrl createdAt project { id }
    merchantCode merchantStatus signingKey checkoutUrl paymentMethods { id label kind enabled }
    relays { id eventType knownEvent externalReference targetUrl outcome statusCode error durationMs createdAt }
    newest: relays(first: 1) { id } } } } } } }`;

/** The same fields without those answered by resolvers (link, signingKey, checkoutUrl, paymentMethods). */
const ORGANIZATION_DECLARED = ORGANIZATION.replace(" link }", " }")
  .replace("signingKey checkoutUrl paymentMethods { id label kind enabled }", "")
  .replace("query(", "query Declared(");

/** The answer of {@link ORGANIZATION} for `persona` (a member of A), built from the database. */
async function expectedOrganization(persona: Persona, currentKeyUsedAt: string) {
  const { knex } = db;
  const visible = sees(persona);
  const manages = persona !== "projectMember";
  const members = await knex("members").where({ organization_id: orgA }).orderBy("id");
  const userRows = new Map((await knex("users").select("id", "email")).map((u) => [u.id, u]));
  const projectRows = new Map((await knex("projects").select("id", "name")).map((p) => [p.id, p]));
  const appRows = new Map((await knex("applications").select("id", "name", "project_id")).map((a) => [a.id, a]));
  const grants = await knex("member_grants").orderBy("id");
  const invitations = await knex("invitations").where({ organization_id: orgA }).orderBy("id", "desc");
  const statusOf = (i: Row) =>
    i.status === "canceled" ? "revoked" : (i.expiresAt as Date).getTime() > Date.now() ? "pending" : "expired";
  const keyQuery = knex("api_keys").where({ organization_id: orgA }).orderBy("id", "desc");
  if (!manages) keyQuery.where({ reference_id: users[persona].userId });
  const keys = await keyQuery;
  const provider = (table: string) => knex(table).where({ organization_id: orgA }).orderBy("id");
  const services = await knex("payment_gateway_services").orderBy("id");
  const relays = await knex("payment_relays").orderBy("id", "desc");
  const upper = (s: string) => s.toUpperCase();
  return {
    organization: {
      id: orgA,
      members: members.map((m) => ({
        id: m.id,
        role: m.role,
        createdAt: iso(m.createdAt),
        who: { id: m.userId, email: userRows.get(m.userId).email },
        organization: { id: orgA },
        grants: grants
          .filter((g) => g.memberId === m.id)
          .map((g) => {
            const app = g.applicationId ? appRows.get(g.applicationId) : null;
            return {
              id: g.id,
              createdAt: iso(g.createdAt),
              project:
                g.projectId && visible.project(g.projectId)
                  ? { id: g.projectId, name: projectRows.get(g.projectId).name }
                  : null,
              application: app && visible.application(app.projectId) ? { id: app.id, name: app.name } : null,
            };
          }),
      })),
      invitations: invitations.map((i) => ({
        id: i.id,
        email: i.email,
        role: i.role,
        status: statusOf(i),
        createdAt: iso(i.createdAt),
        expiresAt: iso(i.expiresAt),
        invitedBy: { id: users.owner.userId, email: users.owner.email },
        link:
          manages && statusOf(i) === "pending"
            ? `${BASE_URL}/accept-invitation?token=${encodeURIComponent(tokens[i.email]!)}`
            : null,
      })),
      pending: invitations.filter((i) => statusOf(i) === "pending").map((i) => ({ id: i.id, status: "pending" })),
      expired: invitations.filter((i) => statusOf(i) === "expired").map((i) => ({ id: i.id })),
      revoked: invitations.filter((i) => statusOf(i) === "revoked").map((i) => ({ id: i.id })),
      apiKeys: keys.map((k) => {
        const current = k.id === users[persona].apiKeyId;
        return {
          id: k.id,
          name: k.name ?? "",
          prefix: k.start ?? "",
          createdAt: iso(k.createdAt),
          // The key of the request is in use now (its time is checked against the request's).
          lastUsedAt: current ? currentKeyUsedAt : iso(k.lastRequest),
          createdBy: { id: k.referenceId },
          current,
        };
      }),
      gitProviders: (await provider("git_providers")).map((p) => ({
        id: p.id,
        type: p.type,
        name: p.name,
        createdAt: iso(p.createdAt),
      })),
      containerRegistries: (await provider("container_registries")).map((r) => ({
        id: r.id,
        name: r.name,
        url: r.url,
        username: r.username,
        createdAt: iso(r.createdAt),
      })),
      sshKeys: (await provider("ssh_keys")).map((k) => ({
        id: k.id,
        name: k.name,
        publicKey: k.publicKey,
        createdAt: iso(k.createdAt),
      })),
      projects: {
        edges: projects
          .filter((p) => visible.project(p))
          .map((projectId) => ({
            node: {
              id: projectId,
              paymentGatewayServices: services
                .filter((s) => s.projectId === projectId)
                .map((s) => {
                  const own = relays.filter((r) => r.serviceId === s.id);
                  return {
                    id: s.id,
                    name: s.name,
                    webhookUrl: s.webhookUrl,
                    createdAt: iso(s.createdAt),
                    project: { id: projectId },
                    merchantCode: "McAbCx",
                    merchantStatus: "ACTIVE",
                    signingKey: manages ? "k".repeat(64) : null,
                    checkoutUrl: `${sandbox.url}/api/pay?merchantCode=McAbCx`,
                    paymentMethods: [
                      { id: "orange_money", label: "Orange Money", kind: "mobile_money", enabled: true },
                      { id: "mtn_momo", label: "MTN Mobile Money", kind: "mobile_money", enabled: true },
                      { id: "card", label: "Card", kind: "card", enabled: false },
                    ],
                    relays: own.map((r) => ({
                      id: r.id,
                      eventType: r.eventType,
                      knownEvent: r.knownEvent,
                      externalReference: r.externalReference,
                      targetUrl: r.targetUrl,
                      outcome: upper(r.outcome),
                      statusCode: r.statusCode,
                      error: r.error,
                      durationMs: r.durationMs,
                      createdAt: iso(r.createdAt),
                    })),
                    newest: own.slice(0, 1).map((r) => ({ id: r.id })),
                  };
                }),
            },
          })),
      },
    },
  };
}

/** The `lastUsedAt` of the key of the request in `data` (an `organization { apiKeys }` answer). */
function currentKeyTime(data: Row): string {
  const keys = (data.organization as { apiKeys: Array<{ current: boolean; lastUsedAt: string }> }).apiKeys;
  return keys.find((k) => k.current)!.lastUsedAt;
}

/** `data` without the fields answered by resolvers and with the current key's time (it is "now") blanked. */
function declaredPart(data: Row): Row {
  const copy = JSON.parse(JSON.stringify(data, (key, value) => (RESOLVED.includes(key) ? undefined : value)));
  for (const key of copy.organization.apiKeys) if (key.current) key.lastUsedAt = "now";
  return copy;
}
const RESOLVED = ["link", "signingKey", "checkoutUrl", "paymentMethods"];

describe("team, API keys, providers and payment gateway services", () => {
  it.each(PERSONAS)("answer every field from the rows, with each caller's visibility (%s)", async (persona) => {
    const { res, statements, started, finished } = await run(persona, ORGANIZATION, { org: orgA });
    if (persona === "otherOwner") {
      expect(res.data).toEqual({ organization: null });
      expect(res.errors?.map((e) => [e.extensions?.code, e.path])).toEqual([["NOT_FOUND", ["organization"]]]);
      // Authentication, then the root field's statement (it found nothing visible).
      expect(statements).toBe(2);
      return;
    }
    expect(res.errors).toBeUndefined();
    const used = currentKeyTime(res.data!);
    expect(Date.parse(used)).toBeGreaterThanOrEqual(started - 1000);
    expect(Date.parse(used)).toBeLessThanOrEqual(finished + 1000);
    const expected = await expectedOrganization(persona, used);
    // Values, and key order (the JSON text is the answer).
    expect(res.data).toEqual(expected);
    expect(JSON.stringify(res.data)).toBe(JSON.stringify(expected));
    // Authentication + one statement for the root field; link, signingKey, checkoutUrl and paymentMethods are
    // answered from the rows that statement carried (the gateway is called over HTTP, not SQL).
    expect(statements).toBe(2);
  });

  it.each(PERSONAS)("answer declared fields in one statement, the same as the executor (%s)", async (persona) => {
    const full = await run(persona, ORGANIZATION, { org: orgA });
    const declared = await run(persona, ORGANIZATION_DECLARED, { org: orgA });
    if (persona === "otherOwner") {
      expect(declared.res.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
      return;
    }
    expect(declared.res.errors).toBeUndefined();
    // One statement: the key, resolved by the request before, is confirmed by the read itself (remembered callers).
    expect(declared.statements).toBe(1);
    // The executor's answer without the resolvers' fields is the one statement's answer.
    expect(JSON.stringify(declaredPart(declared.res.data!))).toBe(JSON.stringify(declaredPart(full.res.data!)));
  });

  it.each(PERSONAS)(
    "answer the computed fields but the gateway's in one statement, as the executor (%s)",
    async (persona) => {
      // Without paymentMethods (asked of the gateway) the operation is compiled: link, signingKey and checkoutUrl run
      // their resolvers on the rows the statement carries (src/reads/resolved-sites.ts).
      const computed = ORGANIZATION.replace(" paymentMethods { id label kind enabled }", "");
      const full = await run(persona, ORGANIZATION, { org: orgA });
      const sites = await run(persona, computed, { org: orgA });
      const text = (data: unknown) =>
        JSON.stringify(data, (key, v) => (key === "paymentMethods" || key === "lastUsedAt" ? undefined : v));
      expect(text(sites.res)).toBe(text(full.res));
      if (persona !== "otherOwner") expect(sites.statements).toBe(1);
    },
  );

  it("let nobody see another organization's members, invitations, keys or providers", async () => {
    const { res } = await run("otherOwner", ORGANIZATION, { org: orgB });
    expect(res.errors).toBeUndefined();
    const org = res.data!.organization as Record<string, Array<{ id: string }>>;
    const ids = JSON.stringify(org);
    for (const member of ["owner", "admin", "projectMember", "appMember"] as const) {
      expect(ids).not.toContain(users[member].userId);
    }
    expect(org.members!.map((m) => m.id)).toEqual([users.otherOwner.memberId]);
    expect(org.invitations!.length).toBe(1);
    expect(org.apiKeys!.map((k) => k.id)).toEqual([users.otherOwner.apiKeyId]);
    expect(org.gitProviders!.length).toBe(2);
    expect((org.projects as unknown as { edges: Array<{ node: { paymentGatewayServices: [] } }> }).edges).toEqual([
      { node: { id: expect.any(String), paymentGatewayServices: [] } },
    ]);
  });

  it("refuse a bad relay page size at its path, as before", async () => {
    const { res } = await run(
      "owner",
      `query($p: ID!) { project(id: $p) { id paymentGatewayServices { id relays(first: 101) { id } } } }`,
      { p: projects[0] },
    );
    expect(res.errors?.map((e) => [e.extensions?.code, e.path?.join(".")])).toEqual([
      ["BAD_USER_INPUT", "project.paymentGatewayServices.0.relays"],
    ]);
  });
});

const AGENT = "{ agentToken { prefix createdAt lastUsedAt expiresAt } token: agentToken { prefix } }";

describe("agent tokens", () => {
  it.each(PERSONAS)("answer the caller's own token in its organization, or null (%s)", async (persona) => {
    const { res, statements } = await run(persona, AGENT);
    expect(res.errors).toBeUndefined();
    const token =
      persona === "owner"
        ? {
            prefix: agentPrefix,
            createdAt: iso((await db.knex("agent_tokens").where({ organization_id: orgA }).first()).createdAt),
            lastUsedAt: "2026-01-02T03:04:05.006Z",
            expiresAt: "2099-12-31T00:00:00.000Z",
          }
        : null;
    expect(res.data).toEqual({ agentToken: token, token: token && { prefix: agentPrefix } });
    // One statement for the whole (fully declared) query, the key's lookup included (remembered callers).
    expect(statements).toBe(1);
  });
});

const THEME_FIELDS = `siteName logoUrl faviconUrl colorsLight colorsDark footerText customCss updatedAt`;
const THEME = `query($org: ID!) { docsTheme(organizationId: $org) { ${THEME_FIELDS} docsHostname
  docsRegistration { hostname syncedAt dns cnameTarget conflict } themeUrl loaderSnippet
  name: siteName } }`;
const THEME_DECLARED = `query($org: ID!) { docsTheme(organizationId: $org) { ${THEME_FIELDS} docsHostname } }`;
const PUBLIC_THEME = `query($db: Int) { publicDocsTheme(databaseId: $db) { ${THEME_FIELDS} title: siteName } }`;

/** The theme columns of organization A as `DocsTheme`/`PublicDocsTheme` answer them. */
async function themeOfA() {
  const t = await db.knex("docs_themes").where({ organization_id: orgA }).first();
  return {
    siteName: t.siteName,
    logoUrl: t.logoUrl,
    faviconUrl: t.faviconUrl,
    colorsLight: { primary: "222 47% 11%", accent: "210 40% 96%" },
    colorsDark: { primary: "210 40% 98%" },
    footerText: t.footerText,
    customCss: t.customCss,
    updatedAt: iso(t.updatedAt),
  };
}

describe("docs themes", () => {
  it.each(PERSONAS)("answer the theme to owners and admins only, by TypeID or integer id (%s)", async (persona) => {
    for (const org of [orgA, String(databaseIdA)]) {
      const full = await run(persona, THEME, { org });
      const declared = await run(persona, THEME_DECLARED, { org });
      if (persona === "projectMember" || persona === "otherOwner") {
        for (const { res } of [full, declared]) {
          expect(res.data).toEqual({ docsTheme: null });
          expect(res.errors?.map((e) => [e.extensions?.code, e.path, e.message])).toEqual([
            ["NOT_FOUND", ["docsTheme"], expect.stringContaining(org)],
          ]);
        }
        continue;
      }
      const theme = { ...(await themeOfA()), docsHostname: "docs.a.example.test" };
      expect(full.res.errors).toBeUndefined();
      expect(full.res.data).toEqual({
        docsTheme: {
          ...theme,
          docsRegistration: {
            hostname: "docs.a.example.test",
            syncedAt: "2026-03-04T05:06:07.089Z",
            dns: "OK",
            cnameTarget: CNAME_TARGET,
            conflict: false,
          },
          themeUrl: `${BASE_URL}/o/${databaseIdA}/api/theme`,
          loaderSnippet: `<script src="${BASE_URL}/docs-theme.js" data-docs-host="${BASE_URL}"></script>`,
          name: theme.siteName,
        },
      });
      expect(declared.res.data).toEqual({ docsTheme: theme });
      // With computed fields (themeUrl, loaderSnippet, cnameTarget) or without: one statement, the key's lookup in
      // it — the computed fields' resolvers get their rows from it (src/reads/resolved-sites.ts).
      expect([full.statements, declared.statements]).toEqual([1, 1]);
    }
  });

  it("answer NOT_FOUND for an unknown organization and null for one without a theme", async () => {
    for (const org of ["999999", "99999999999", "org_unknown"]) {
      const { res } = await run("owner", THEME_DECLARED, { org });
      expect(res.errors?.[0]?.extensions?.code, org).toBe("NOT_FOUND");
    }
    await db.knex("docs_themes").where({ organization_id: orgB }).delete();
    const { res } = await run("otherOwner", THEME, { org: orgB });
    expect(res).toMatchObject({ data: { docsTheme: null } });
    expect(res.errors).toBeUndefined();
  });

  it("serve the public theme to anyone, NOT_FOUND for an unknown organization", async () => {
    const theme = await themeOfA();
    const expected = { publicDocsTheme: { ...theme, title: theme.siteName } };
    for (const persona of PERSONAS) {
      const { res, statements } = await run(persona, PUBLIC_THEME, { db: databaseIdA });
      expect(res.data).toEqual(expected);
      // The key's lookup and the data in one statement (remembered callers).
      expect(statements).toBe(1);
    }
    const anonymous = await gql(skiff.url, PUBLIC_THEME, { db: databaseIdA });
    expect(anonymous.data).toEqual(expected);
    const unknown = await gql(skiff.url, PUBLIC_THEME, { db: 999_999 });
    expect(unknown.errors?.map((e) => [e.extensions?.code, e.path])).toEqual([["NOT_FOUND", ["publicDocsTheme"]]]);
    // Without databaseId on an instance with several organizations.
    const several = await gql(skiff.url, PUBLIC_THEME, {});
    expect(several.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
  });
});

describe("one statement per root field", () => {
  const QUERY = `query($org: ID!, $db: Int) {
      organization(id: $org) { members { id } invitations { id link } apiKeys { id } sshKeys { id } }
      agentToken { prefix }
      docsTheme(organizationId: $org) { siteName themeUrl }
      publicDocsTheme(databaseId: $db) { siteName } }`;

  it("answers declared root fields with computed scalar fields in one statement, as the executor does", async () => {
    const { res, statements } = await run("owner", QUERY, { org: orgA, db: databaseIdA });
    expect(res.errors).toBeUndefined();
    expect(Object.keys(res.data!)).toEqual(["organization", "agentToken", "docsTheme", "publicDocsTheme"]);
    expect(statements).toBe(1);
    // The same fields with a root field that has no SQL (introspection): graphql-js executes, and each declared
    // root field still runs one statement, after the caller's authentication.
    const mixed = QUERY.replace("agentToken {", `__type(name: "Project") { name } agentToken {`);
    const executed = await run("owner", mixed, { org: orgA, db: databaseIdA });
    expect(executed.res.errors).toBeUndefined();
    const { __type, ...rest } = executed.res.data as Record<string, unknown>;
    expect(__type).toEqual({ name: "Project" });
    expect(rest).toEqual(res.data);
    expect(executed.statements).toBe(1 + 4);
  });
});
