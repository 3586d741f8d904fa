/**
 * One meaning for every read: queries generated from the schema — for every root
 * query field, every field reachable to depth 4, and seeded random subsets of them (fast-check, reproducible by
 * its seed) — run for each kind of caller (owner by session and by API key, admin, member limited to a project,
 * member limited to an application, another organization's owner, agent token, anonymous), each answer checked
 * against an oracle that does not share Skiff's read code:
 * - direct SQL fixtures: every object of a table type in the answer (found by `__typename` and `id`) is the row with
 *   that id, column for column (fields named like their columns; times to the millisecond);
 * - the isolation rules: every object belongs to an organization the caller is a member of, and a member limited by
 *   grants sees only granted projects, their applications and granted applications (read from the fixtures);
 * - errors keep their codes and paths (NOT_FOUND, BAD_USER_INPUT for bad cursors and page sizes), never an internal
 *   error; and each compiled root field costs one data statement whatever the depth.
 * Table descriptors (src/reads/tables.ts) that say a relation's target is visible whenever the row holding the key
 * is — a child visible with its parent, or a descriptor's `shows` — let compiled reads leave the target's condition
 * out (src/reads/declarations.ts `bindRelations`): each such statement is checked on the same data for every kind of
 * member (no visible row points at an invisible target).
 */
import { randomUUID } from "node:crypto";
import fc from "fast-check";
import {
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLSchema,
  getNamedType,
  isLeafType,
  isNonNullType,
  isObjectType,
} from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSecretBox } from "../../src/db/secrets.ts";
import { AccessScope } from "../../src/modules/access/index.ts";
import { sqlCallerOf } from "../../src/modules/context.ts";
import { moduleReads, moduleRows } from "../../src/modules/index.ts";
import { SqlConditionWriter, type TableDescriptor } from "../../src/reads/index.ts";
import { buildSchema } from "../../src/server/schema.ts";
import type { RunningSkiff } from "../../src/server/start.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { addMember, createAgentTokenFor, createOrg, createProjects, TEST_SECRET } from "../helpers/seed.ts";
import { type GqlResponse, gql, startTestServer } from "../helpers/server.ts";
import { sessionFor } from "../helpers/session.ts";

let db: TestDatabase;
let server: RunningSkiff;
const schema: GraphQLSchema = buildSchema();

/** How each caller authenticates (`auth` for the gql helper) and what it may see, from the fixtures. */
interface Caller {
  auth: { apiKey?: string; cookie?: string };
  /** Organizations whose rows it may see; empty: none. */
  orgs: string[];
  /**
   * Grants: null unrestricted; else granted projects (with all their applications), granted applications, and the
   * projects holding a granted application (visible as its container).
   */
  grants: { projects: Set<string>; applications: Set<string>; containers: Set<string> } | null;
}
const callers: Record<string, Caller> = {};
const ids: Record<string, string> = {};
/** The user and organization of the callers that are members (for the descriptors' checks below). */
const members: Record<string, { userId: string; organizationId: string }> = {};

/** Arguments of root fields (by field name), from the fixtures. */
const rootArgs = (): Record<string, string> => ({
  organization: `(id: "${ids.org}")`,
  project: `(id: "${ids.project}")`,
  application: `(id: "${ids.application}")`,
  projects: "(first: 3)",
  siteImports: "(first: 3)",
  siteImport: `(id: "${ids.siteImport}")`,
  docsTheme: `(organizationId: "${ids.org}")`,
  webhooks: `(organizationId: "${ids.org}")`,
  webhook: `(organizationId: "${ids.org}", webhookUuid: "${ids.webhook}")`,
  webhookDeliveries: `(organizationId: "${ids.org}", webhookUuid: "${ids.webhook}", limit: 5)`,
});

/** Fields left out of generated selections: they call outside services or need arguments we do not generate. */
const SKIPPED = new Set(["paymentMethods", "merchantStatus", "checkoutUrl", "signingKey", "relays", "manifests"]);

/** A field's arguments in generated selections (small pages keep answers small). */
function argsOf(field: GraphQLField<unknown, unknown>): string | null {
  const parts: string[] = [];
  for (const arg of field.args) {
    if (arg.name === "first") parts.push("first: 2");
    else if (isNonNullType(arg.type) && arg.defaultValue === undefined) return null;
  }
  return parts.length ? `(${parts.join(", ")})` : "";
}

/**
 * The selection of every field of `type` to `depth` (objects always with `__typename`, and `id` when they have
 * one); `pick` decides which optional fields to keep (random subsets).
 */
function selection(type: GraphQLObjectType, depth: number, pick: () => boolean = () => true): string {
  const parts = ["__typename"];
  for (const field of Object.values(type.getFields())) {
    if (SKIPPED.has(field.name)) continue;
    const args = argsOf(field);
    if (args === null) continue;
    const named = getNamedType(field.type);
    if (field.name === "id") {
      parts.push("id");
      continue;
    }
    if (!pick()) continue;
    if (isLeafType(named)) parts.push(`${field.name}${args}`);
    else if (isObjectType(named) && depth > 1)
      parts.push(`${field.name}${args} { ${selection(named, depth - 1, pick)} }`);
  }
  return parts.join(" ");
}

/** The compiled root fields a generated query covers (public and non-table roots excluded). */
const ROOTS = Object.keys(moduleReads.Query ?? {}).sort();

/** The query of root field `name` selecting to depth 4 (or a random subset). */
function rootQuery(name: string, pick?: () => boolean): string {
  const field = schema.getQueryType()!.getFields()[name]!;
  const named = getNamedType(field.type);
  const args = rootArgs()[name] ?? "";
  const body = isObjectType(named) ? ` { ${selection(named, 4, pick)} }` : "";
  return `{ ${name}${args}${body} }`;
}

/** Table of each type with a row source, and the organization column to check isolation by. */
const TABLE_OF: Record<string, string> = Object.fromEntries(
  Object.entries(moduleRows).map(([type, source]) => [type, source.table]),
);

/** snake_case of a camelCase field name. */
const snake = (name: string) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** Every object with `__typename` in `value`, depth first. */
function objectsIn(value: unknown, out: Array<Record<string, unknown>> = []): Array<Record<string, unknown>> {
  if (Array.isArray(value)) for (const v of value) objectsIn(v, out);
  else if (value && typeof value === "object") {
    const o = value as Record<string, unknown>;
    if (typeof o.__typename === "string") out.push(o);
    for (const v of Object.values(o)) objectsIn(v, out);
  }
  return out;
}

/** Fields whose value is derived from their column: the derivation, from the row. */
const DERIVED: Record<string, (row: Record<string, unknown>) => unknown> = {
  "Application.health": (row) => String(row.health ?? "unknown").toUpperCase(),
  "ApiKey.prefix": (row) => row.start ?? "",
  "ApiKey.name": (row) => row.name ?? "",
};

/** Values equal as the API and the row give them (times to the millisecond, JSON deep). */
function sameValue(answer: unknown, column: unknown): boolean {
  if (column instanceof Date) return typeof answer === "string" && Date.parse(answer) === column.getTime();
  return JSON.stringify(answer) === JSON.stringify(column);
}

/**
 * The oracle: problems of `res` for `caller` (empty when every object is its row and visible to the caller).
 * Reads rows with plain SQL from the fixtures.
 */
async function problemsOf(caller: Caller, res: GqlResponse): Promise<string[]> {
  const problems: string[] = [];
  for (const e of res.errors ?? []) {
    const code = e.extensions?.code;
    if (!["NOT_FOUND", "UNAUTHENTICATED", "FORBIDDEN", "BAD_USER_INPUT"].includes(String(code))) {
      problems.push(`error ${code} at ${e.path?.join(".")}: ${e.message}`);
    }
  }
  for (const o of objectsIn(res.data)) {
    const table = TABLE_OF[o.__typename as string];
    if (!table || typeof o.id !== "string") continue;
    const row = await db.knex(table).where({ id: o.id }).first();
    if (!row) {
      problems.push(`${o.__typename} ${o.id}: no such row`);
      continue;
    }
    // Isolation: the row's organization (directly, or through its project/application/environment).
    const org =
      row.organizationId ??
      (row.projectId ? (await db.knex("projects").where({ id: row.projectId }).first())?.organizationId : undefined) ??
      (row.applicationId
        ? (await db.knex("applications").where({ id: row.applicationId }).first())?.organizationId
        : undefined);
    if (o.__typename === "Organization") {
      if (!caller.orgs.includes(o.id)) problems.push(`sees organization ${o.id}`);
    } else if (o.__typename !== "User" && org !== undefined && !caller.orgs.includes(org)) {
      problems.push(`sees ${o.__typename} ${o.id} of another organization`);
    }
    const g = caller.grants;
    if (g && o.__typename === "Project" && !g.projects.has(o.id) && !g.containers.has(o.id)) {
      problems.push(`sees ungranted project ${o.id}`);
    }
    if (g && o.__typename === "Application" && !g.applications.has(o.id) && !g.projects.has(row.projectId)) {
      problems.push(`sees ungranted application ${o.id}`);
    }
    // An environment of a project seen only as a container: only one holding a granted application.
    if (g && o.__typename === "Environment" && !g.projects.has(row.projectId)) {
      const holds = await db
        .knex("applications")
        .where({ environment_id: o.id })
        .whereIn("id", [...g.applications]);
      if (holds.length === 0) problems.push(`sees environment ${o.id}, which holds nothing granted`);
    }
    // Columns: fields named like the row's columns hold the row's values.
    for (const [key, value] of Object.entries(o)) {
      if (key === "__typename" || (value !== null && typeof value === "object" && !Array.isArray(value))) continue;
      const column = key.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());
      if (!(column in row) || snake(column) === "source") continue;
      const derive = DERIVED[`${o.__typename}.${key}`];
      if (!sameValue(value, derive ? derive(row) : row[column])) {
        problems.push(
          `${o.__typename} ${o.id}.${key} = ${JSON.stringify(value)}, row has ${JSON.stringify(row[column])}`,
        );
      }
    }
  }
  return problems;
}

/** `value` as JSON text, key order kept, without `lastUsedAt` (an API key's changes with every request). */
const text = (value: unknown) => JSON.stringify(value, (key, v) => (key === "lastUsedAt" ? undefined : v));

/**
 * Runs `query` as `caller`, counting the request's reading SQL statements (writes a read may make are not reads:
 * `deployWebhookUrl` creates the token on first read, the API key records its last use).
 */
async function run(caller: Caller, query: string): Promise<{ res: GqlResponse; statements: number; reads: number }> {
  let statements = 0;
  let reads = 0;
  const count = (q: { sql: string }) => {
    if (/^\s*select/i.test(q.sql)) statements++;
    if (!/^\s*(insert|update|delete)\b/i.test(q.sql)) reads++;
  };
  server.services.knex.on("query", count);
  try {
    const res = await gql(server.url, query, {}, caller.auth);
    return { res, statements, reads };
  } finally {
    server.services.knex.off("query", count);
  }
}

beforeAll(async () => {
  db = await createTestDatabase();
  // No job runner: its periodic statements would be counted with the requests'.
  server = await startTestServer(db.url, { SKIFF_MAX_QUERY_COST: "10000000", SKIFF_WORKER: "false" });
  const shape = {
    environments: 2,
    applicationsPerEnvironment: 2,
    deploymentsPerApplication: 2,
    domainsPerApplication: 1,
  };
  const a = await createOrg(db.knex);
  const projects = await createProjects(db.knex, a.organizationId, 3, shape);
  const b = await createOrg(db.knex);
  await createProjects(db.knex, b.organizationId, 2, shape);
  const apps = await db.knex("applications").where("project_id", projects[2]).orderBy("id").select("id");
  ids.org = a.organizationId;
  ids.project = projects[0]!;
  ids.application = apps[0]!.id;
  ids.siteImport = "imp_00000000000000000000000000";
  ids.webhook = `webhook_${randomUUID()}`;
  await db.knex("webhook_endpoints").insert({
    id: ids.webhook,
    organization_id: a.organizationId,
    url: "https://127.0.0.1:9/differential",
    events: ["course_completed"],
    secret_encrypted: createSecretBox(TEST_SECRET).encrypt("whsec_differential"),
    is_active: false,
  });
  await db.knex("webhook_deliveries").insert({
    id: "dlv_differential",
    endpoint_id: ids.webhook,
    organization_id: a.organizationId,
    event: "course_completed",
    body: "{}",
    status: "failed",
    attempts: 1,
  });
  await db.knex("webhook_delivery_attempts").insert({
    delivery_id: "dlv_differential",
    endpoint_id: ids.webhook,
    event: "course_completed",
    attempt: 1,
    success: false,
    response_status: 500,
    response_body: "no",
    duration_ms: 12,
  });
  const projectMember = await addMember(db.knex, a.organizationId, "member", { projectIds: [projects[1]!] });
  const appMember = await addMember(db.knex, a.organizationId, "member", { applicationIds: [apps[1]!.id] });
  const admin = await addMember(db.knex, a.organizationId, "admin");
  const all = { orgs: [a.organizationId], grants: null };
  callers.ownerSession = { auth: { cookie: await sessionFor(db.knex, server.url, a.owner) }, ...all };
  callers.ownerKey = { auth: { apiKey: a.owner.apiKey }, ...all };
  callers.admin = { auth: { apiKey: admin.apiKey }, ...all };
  callers.projectMember = {
    auth: { apiKey: projectMember.apiKey },
    orgs: [a.organizationId],
    grants: { projects: new Set([projects[1]!]), applications: new Set(), containers: new Set() },
  };
  callers.applicationMember = {
    auth: { apiKey: appMember.apiKey },
    orgs: [a.organizationId],
    grants: { projects: new Set(), applications: new Set([apps[1]!.id]), containers: new Set([projects[2]!]) },
  };
  callers.otherOwner = { auth: { apiKey: b.owner.apiKey }, orgs: [b.organizationId], grants: null };
  callers.agentToken = { auth: { apiKey: await createAgentTokenFor(db.knex, a.organizationId, a.owner) }, ...all };
  callers.anonymous = { auth: {}, orgs: [], grants: null };
  members.ownerKey = { userId: a.owner.userId, organizationId: a.organizationId };
  members.projectMember = { userId: projectMember.userId, organizationId: a.organizationId };
  members.applicationMember = { userId: appMember.userId, organizationId: a.organizationId };
  members.otherOwner = { userId: b.owner.userId, organizationId: b.organizationId };
  // Keys record their first use in the background: let those writes pass before counting statements.
  await Promise.all(Object.values(callers).map((c) => gql(server.url, "{ __typename }", {}, c.auth)));
  await new Promise((resolve) => setTimeout(resolve, 300));
});

afterAll(async () => {
  await server?.stop();
  await db?.drop();
});

describe("one meaning for every read", () => {
  it("covers every compiled root field", () => {
    expect(ROOTS.length).toBeGreaterThanOrEqual(8);
    for (const name of [
      "viewer",
      "organizations",
      "organization",
      "projects",
      "project",
      "application",
      "siteImports",
    ]) {
      expect(ROOTS).toContain(name);
    }
  });

  it.each(
    Object.keys({
      ownerSession: 1,
      ownerKey: 1,
      admin: 1,
      projectMember: 1,
      applicationMember: 1,
      otherOwner: 1,
      agentToken: 1,
      anonymous: 1,
    }),
  )("answers every root field to depth 4 as the fixtures say (%s)", async (name) => {
    const caller = callers[name]!;
    const baseline = (await run(caller, "{ __typename }")).statements;
    for (const root of ROOTS) {
      // Once unmeasured: a first read may write (a deploy token is created on first read).
      await run(caller, rootQuery(root));
      const { res, statements } = await run(caller, rootQuery(root));
      expect(await problemsOf(caller, res), `${name} ${root}`).toEqual([]);
      if (caller.orgs.length && !res.errors) {
        // Authentication, the caller's memberships (at most one), one statement for the field's whole tree.
        expect(statements, `${name} ${root}: statements`).toBeLessThanOrEqual(baseline + 2);
      }
    }
  });

  it.each(
    Object.keys({ ownerSession: 1, ownerKey: 1, admin: 1, projectMember: 1, applicationMember: 1, otherOwner: 1 }),
  )("answers computed fields beside compiled ones as the executor does, to the byte (%s)", async (name) => {
    // The generated selections hold computed scalar fields (deployWebhookUrl, EnvironmentVariable.value,
    // Invitation.link, SiteImport.inputConfig, …): the statement carries rows for their resolvers (sites mode,
    // src/reads/resolved-sites.ts). A root field with no SQL (introspection) sends the same query through
    // graphql-js instead — the oracle here is the executor, field by field.
    const caller = callers[name]!;
    for (const root of ROOTS) {
      const query = rootQuery(root);
      // Appended, so that the errors' locations stay the same.
      const executorQuery = `${query.slice(0, -1)} __type(name: "Query") { name } }`;
      await run(caller, query);
      const compiled = await run(caller, query);
      const executed = await run(caller, executorQuery);
      // A non-null root field's error nulls the whole `data`, introspection with it.
      const { __type, ...data } = (executed.res.data ?? {}) as Record<string, unknown>;
      if (executed.res.data) expect(__type, `${name} ${root}`).toEqual({ name: "Query" });
      expect(text(compiled.res.data), `${name} ${root}`).toBe(text(executed.res.data ? data : executed.res.data));
      expect(text(compiled.res.errors), `${name} ${root}`).toBe(text(executed.res.errors));
      if (caller.auth.apiKey && !compiled.res.errors) {
        // The caller's key and the whole answer in one statement, computed fields included.
        expect(compiled.reads, `${name} ${root}: statements`).toBe(1);
      }
    }
  });

  it("answers random subsets (seeded) as the fixtures say, for every caller", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...ROOTS),
        fc.constantFrom(...Object.keys(callers)),
        fc.array(fc.boolean(), { minLength: 64, maxLength: 64 }),
        async (root, name, bits) => {
          let i = 0;
          const query = rootQuery(root, () => bits[i++ % bits.length]!);
          const caller = callers[name]!;
          const { res } = await run(caller, query);
          expect(await problemsOf(caller, res), `${name} ${query}`).toEqual([]);
        },
      ),
      { seed: 21, numRuns: 60 },
    );
  });

  it("keeps error codes and paths: another organization's rows, bad cursors, page sizes", async () => {
    const other = callers.otherOwner!;
    for (const root of ["organization", "project", "application"]) {
      const { res } = await run(other, rootQuery(root));
      expect(res.errors?.[0]?.extensions?.code, root).toBe("NOT_FOUND");
      expect(res.errors?.[0]?.path, root).toEqual([root]);
    }
    const owner = callers.ownerKey!;
    const cursor = await run(owner, `{ projects(after: "nope") { totalCount } }`);
    expect(cursor.res.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
    const nested = await run(
      owner,
      `{ project(id: "${ids.project}") { environments { applications { id deployments(first: 51) { id } } } } }`,
    );
    expect(nested.res.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
    expect(nested.res.errors?.[0]?.path?.slice(-1)).toEqual(["deployments"]);
    const imports = await run(owner, "{ siteImports(first: 0) { totalCount } }");
    expect(imports.res.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");
  });
});

/** Every (source, foreign key, target) whose target's visibility the source's implies. */
const implications = Object.values(moduleRows as Record<string, TableDescriptor>).flatMap((source) => [
  ...(source.parent ? [{ source, foreignKey: source.parent.foreignKey, target: source.parent.descriptor }] : []),
  ...Object.entries(source.shows ?? {}).map(([foreignKey, target]) => ({ source, foreignKey, target })),
]);

describe("descriptors' implied visibility", () => {
  it("covers the relations the hot reads use", () => {
    const names = implications.map((i) => `${i.source.typeName}.${i.foreignKey}→${i.target.typeName}`);
    expect(names).toEqual(
      expect.arrayContaining([
        "Application.project_id→Project",
        "Application.environment_id→Environment",
        "Environment.project_id→Project",
        "Domain.application_id→Application",
      ]),
    );
  });

  it.each(["ownerKey", "projectMember", "applicationMember", "otherOwner"])(
    "holds on the seeded data for %s: no visible row points at an invisible target",
    async (name) => {
      const { userId, organizationId } = members[name]!;
      const scope = new AccessScope(db.knex, { userId, organizationId, via: "apiKey" });
      const caller = await sqlCallerOf(scope, new Date());
      let pairs = 0;
      for (const { source, foreignKey, target } of implications) {
        const w = new SqlConditionWriter(caller);
        const statement = w.text(
          `select count(*)::int as pairs, count(*) filter (where not (${target.visible(w, "t")}))::int as hidden
          from ${source.table} s join ${target.table} t on t.id = s.${foreignKey} where ${source.visible(w, "s")}`,
        );
        const { rows } = await db.knex.raw(statement.sql, statement.bindings);
        expect(rows[0].hidden, `${source.typeName}.${foreignKey} → ${target.typeName}`).toBe(0);
        pairs += rows[0].pairs;
      }
      expect(pairs).toBeGreaterThan(0);
    },
  );
});
