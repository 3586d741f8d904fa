/**
 * The audit log (docs/audit-log.md), on a real server and database with the isolation matrix's world
 * (test/access/matrix): every Mutation field of the running schema (introspected, so a new mutation without an
 * entry fails here) run through its matrix row by the owner, a member and another organization's owner leaves exactly
 * one entry with that caller, the row's target and the outcome (`ok`, `refused`, or the error code) in the right
 * organization; every REST write path of the route table (and every agent API read) leaves one; a change rolled back
 * with its caller's transaction leaves none; members cannot read the log and another organization's entries are
 * invisible; filters and the NDJSON export; sign-in events; retention; no planted or returned secret in any entry;
 * what a call creates besides its answer among its targets; mutations refused before they run (validation, variables),
 * over HTTP and WebSocket.
 */
import { randomUUID } from "node:crypto";
import {
  type FieldNode,
  type GraphQLOutputType,
  getNamedType,
  isNonNullType,
  isObjectType,
  Kind,
  type OperationDefinitionNode,
  parse,
  print,
} from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId } from "../../src/db/ids.ts";
import { pruneAuditEvents } from "../../src/modules/audit/audit.jobs.ts";
import { outcomeOfCode } from "../../src/modules/audit/audit-entry.ts";
import { auditedMutation, noteAuditTarget, writeWithAuditEntry } from "../../src/modules/audit/index.ts";
import { restRoutes } from "../../src/modules/index.ts";
import { authenticate } from "../../src/server/authenticate.ts";
import { buildContext } from "../../src/server/context.ts";
import { buildSchema } from "../../src/server/schema.ts";
import type { RunningSkiff } from "../../src/server/start.ts";
import { NotFoundError } from "../../src/shared/errors.ts";
import { buildFixture, type Credentials, type Fixture, type Persona } from "../access/matrix/fixture.ts";
import { graphqlRows } from "../access/matrix/graphql-rows.ts";
import { restRows } from "../access/matrix/rest-rows.ts";
import type { AuditRow } from "../helpers/audit-rows.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/db.ts";
import { createApiKey } from "../helpers/seed.ts";
import { gql, startTestServer } from "../helpers/server.ts";
import { postAuth, TEST_PASSWORD } from "../helpers/session.ts";
import { wsOperation } from "../helpers/ws-operation.ts";

let db: TestDatabase;
let skiff: RunningSkiff;
let fx: Fixture;
const userIds: Partial<Record<Persona, string>> = {};

beforeAll(async () => {
  db = await createTestDatabase();
  skiff = await startTestServer(db.url, { SKIFF_OUTBOUND_ALLOW: "127.0.0.1" });
  fx = await buildFixture(skiff.url, db.knex);
  for (const [persona, email] of Object.entries(fx.emails)) {
    userIds[persona as Persona] = (await db.knex("users").where({ email }).first("id")).id;
  }
}, 120_000);
afterAll(async () => {
  await skiff?.stop();
  await db?.drop();
});

/** One stored entry, as its columns are named. */
type Row = AuditRow;

const entriesOf = (requestId: string): Promise<Row[]> => db.knex("audit_events").where({ requestId: requestId });

function headersOf(c: Credentials, requestId: string): Record<string, string> {
  return {
    "x-request-id": requestId,
    ...(c.cookie ? { cookie: c.cookie } : {}),
    ...(c.bearer ? { authorization: `Bearer ${c.bearer}` } : {}),
  };
}

/** Runs `operation` on /graphql as `c` with request id `requestId`; the first error's code or `ok`. */
async function runGraphql(operation: string, variables: Record<string, unknown>, c: Credentials, requestId: string) {
  const res = await fetch(`${skiff.url}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headersOf(c, requestId) },
    body: JSON.stringify({ query: operation, variables }),
  });
  const json = (await res.json()) as { errors?: Array<{ extensions?: { code?: string } }> };
  return json.errors?.length ? String(json.errors[0]?.extensions?.code) : "ok";
}

function valueAt(vars: Record<string, unknown>, path: string[]): unknown {
  return path.reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], vars);
}

describe("every mutation", () => {
  it("leaves exactly one entry with its caller, target, outcome and organization (enumerated from the schema)", {
    timeout: 600_000,
  }, async () => {
    const res = await gql<{ __schema: { mutationType: { fields: Array<{ name: string }> } } }>(
      skiff.url,
      "{ __schema { mutationType { fields { name } } } }",
      {},
      { apiKey: fx.ownerA.apiKey },
    );
    const mutations = res.data!.__schema.mutationType.fields.map((f) => f.name);
    expect(mutations.length).toBeGreaterThan(50);
    const problems: string[] = [];
    let cells = 0;
    for (const name of mutations) {
      const row = graphqlRows.find((r) => r.field === `Mutation.${name}`);
      if (!row) {
        problems.push(`${name}: no row to call it with (test/access/matrix)`);
        continue;
      }
      for (const persona of ["owner", "granted", "otherOwner"] as const) {
        const vars = (await row.variables?.(fx, persona)) ?? {};
        const requestId = `audit-${randomUUID()}`;
        const answer = await runGraphql(row.operation, vars, fx.credentials[persona], requestId);
        await row.after?.(fx, persona);
        cells++;
        const entries = await entriesOf(requestId);
        const where = `${name} as ${persona} (${answer})`;
        if (entries.length !== 1) {
          problems.push(`${where}: ${entries.length} entries`);
          continue;
        }
        const [entry] = entries as [Row];
        const expected = answer === "ok" ? "ok" : outcomeOfCode(answer);
        if (entry.action !== name) problems.push(`${where}: action ${entry.action}`);
        if (entry.outcome !== expected) problems.push(`${where}: outcome ${entry.outcome}, expected ${expected}`);
        if (entry.actorKind !== "USER" || entry.actorUserId !== userIds[persona]) {
          problems.push(`${where}: actor ${entry.actorKind} ${entry.actorUserId}`);
        }
        if (entry.credentialKind !== "SESSION" || !entry.credentialId) {
          problems.push(`${where}: credential ${entry.credentialKind} ${entry.credentialId}`);
        }
        if (entry.surface !== "GRAPHQL" || entry.clientAddress !== "127.0.0.1") {
          problems.push(`${where}: surface ${entry.surface} from ${entry.clientAddress}`);
        }
        const target = row.target ? valueAt(vars, row.target) : undefined;
        if (typeof target === "string" && !entry.targetIds.includes(target)) {
          problems.push(`${where}: targets ${entry.targetIds.join(",")} lack ${target}`);
        }
        // Another organization's caller never writes into A's log; A's own callers write into A's — or, leaving
        // an organization, into the log of the one they leave (the matrix row has them leave C), and creating one,
        // into the new one's (named among the targets).
        const created = entry.targetIds.find((id) => id.startsWith("org_") && id !== fx.orgA);
        const own = name === "leaveOrganization" ? vars.id : name === "createOrganization" ? created : fx.orgA;
        if (persona === "otherOwner" && entry.organizationId === fx.orgA) problems.push(`${where}: in A's log`);
        if (persona !== "otherOwner" && entry.organizationId !== own && name !== "setActiveOrganization") {
          problems.push(`${where}: in ${entry.organizationId}'s log`);
        }
      }
    }
    console.info(`audit: ${mutations.length} mutations, ${cells} calls checked`);
    expect(problems).toEqual([]);
  });
});

/**
 * A create mutation's name: it creates (`create…`, `add…`, `import…`, `invite…`) and answers what it created.
 * `importOrganization` is not one: it applies a bundle, creating only what is missing (nothing, for the matrix's
 * bundle, which is applied already); test/transfer checks what it creates.
 */
const CREATES = /^(create|add|import(?!Organization$)|invite)[A-Z]/;

/**
 * The selection of the ids `type` answers: `id` when the type has one, else (a payload) the ids of its object fields,
 * two levels down; null when there is none.
 */
function idSelection(type: GraphQLOutputType, depth = 0): string | null {
  const named = getNamedType(type);
  if (!isObjectType(named)) return null;
  const fields = named.getFields();
  // Its id: `id`, else its first non-null ID field (a webhook endpoint's `webhookUuid`).
  const own =
    fields.id ??
    Object.values(fields).find((f) => isNonNullType(f.type) && getNamedType(f.type).name === "ID" && !f.args.length);
  if (own) return own.name;
  if (depth >= 2) return null;
  const parts = Object.values(fields).flatMap((field) => {
    if (field.args.some((a) => isNonNullType(a.type))) return [];
    const sub = idSelection(field.type, depth + 1);
    return sub ? [`${field.name} { ${sub} }`] : [];
  });
  return parts.length ? parts.join(" ") : null;
}

/** `operation` (one mutation field) with the field's selection replaced by `selection`. */
function withSelection(operation: string, selection: string): string {
  const doc = parse(operation);
  const op = doc.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;
  const field = op.selectionSet.selections[0] as FieldNode;
  const replaced = parse(`{ ${selection} }`).definitions[0] as OperationDefinitionNode;
  const newField = { ...field, selectionSet: replaced.selectionSet };
  const newOp = { ...op, selectionSet: { ...op.selectionSet, selections: [newField] } };
  return print({ ...doc, definitions: doc.definitions.map((d) => (d === op ? newOp : d)) });
}

/** Every string in `value` (an answer's data selected by {@link idSelection}: ids only). */
function idsIn(value: unknown, out: string[] = []): string[] {
  if (typeof value === "string") out.push(value);
  else if (Array.isArray(value)) for (const item of value) idsIn(item, out);
  else if (value && typeof value === "object") for (const item of Object.values(value)) idsIn(item, out);
  return out;
}

describe("create mutations", () => {
  it("name what they created among their entry's targets (enumerated from the schema)", {
    timeout: 300_000,
  }, async () => {
    const mutationType = buildSchema().getMutationType()!;
    const creates = Object.values(mutationType.getFields()).filter((f) => CREATES.test(f.name));
    expect(creates.length).toBeGreaterThan(10);
    const problems: string[] = [];
    let checked = 0;
    for (const field of creates) {
      const selection = idSelection(field.type);
      const row = graphqlRows.find((r) => r.field === `Mutation.${field.name}`);
      if (!row) {
        problems.push(`${field.name}: no row to call it with (test/access/matrix)`);
        continue;
      }
      const vars = (await row.variables?.(fx, "owner")) ?? {};
      const requestId = `audit-${randomUUID()}`;
      const res = await fetch(`${skiff.url}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headersOf(fx.credentials.owner, requestId) },
        body: JSON.stringify({
          query: selection ? withSelection(row.operation, selection) : row.operation,
          variables: vars,
        }),
      });
      const json = (await res.json()) as { data?: Record<string, unknown> | null; errors?: unknown[] };
      await row.after?.(fx, "owner");
      // The matrix's owner call of a few creates is refused by their input (e.g. a project without a payment
      // merchant): nothing was created to name.
      if (json.errors?.length) continue;
      checked++;
      const named = JSON.stringify(vars);
      const [entry] = (await entriesOf(requestId)) as Row[];
      // A type without an id (an agent token, known by its prefix): the entry still names a row beyond the arguments.
      if (!selection) {
        if (!entry?.targetIds.some((id) => !named.includes(id))) {
          problems.push(`${field.name}: targets ${entry?.targetIds.join(",")} name nothing created`);
        }
        continue;
      }
      const created = idsIn(json.data).filter((id) => !named.includes(id));
      if (created.length === 0) problems.push(`${field.name}: answered no new id`);
      for (const id of created) {
        if (!entry?.targetIds.some((target) => target === id || target.endsWith(`_${id}`))) {
          problems.push(`${field.name}: targets ${entry?.targetIds.join(",")} lack the created ${id}`);
        }
      }
    }
    console.info(`audit: ${creates.length} create mutations, ${checked} answered ok and checked`);
    expect(checked).toBeGreaterThan(8);
    expect(problems).toEqual([]);
  });
});

describe("what a call creates besides its answer", () => {
  it("is named among its entry's targets: queued deployments, webhook recoveries and deliveries, an owner's membership", {
    timeout: 120_000,
  }, async () => {
    const owner = fx.credentials.owner;
    const app = fx.applicationP;
    /** Runs `operation` on /graphql as the owner; its data and the call's entry. */
    const call = async (operation: string, variables: Record<string, unknown>) => {
      const requestId = `audit-${randomUUID()}`;
      const res = await fetch(`${skiff.url}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json", ...headersOf(owner, requestId) },
        body: JSON.stringify({ query: operation, variables }),
      });
      const json = (await res.json()) as { data?: Record<string, unknown>; errors?: unknown[] };
      expect(json.errors, operation).toBeUndefined();
      const entries = await entriesOf(requestId);
      expect(entries).toHaveLength(1);
      return { data: json.data!, entry: entries[0]! };
    };
    /** POSTs `body` to REST path `path` with the owner's API key; its body and the call's entry. */
    const rest = async (path: string, body: unknown) => {
      const requestId = `audit-${randomUUID()}`;
      const res = await fetch(`${skiff.url}${path}`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-request-id": requestId,
          authorization: `Bearer ${fx.ownerA.apiKey}`,
        },
        body: JSON.stringify(body),
      });
      expect(res.status, path).toBeLessThan(300);
      const entries = await entriesOf(requestId);
      expect(entries).toHaveLength(1);
      return { body: (await res.json()) as Record<string, unknown>, entry: entries[0]! };
    };
    const newestDeployment = async () =>
      (await db.knex("deployments").where({ application_id: app }).orderBy("id", "desc").first("id")).id as string;
    /** The string at `path` in an answer. */
    const at = (value: unknown, ...path: string[]): string =>
      String(path.reduce((v, key) => (v as Record<string, unknown>)[key], value));
    const names = (entry: Row, ...ids: string[]) => {
      for (const id of ids) expect(entry.targetIds, `${entry.action} names ${id}`).toContain(id);
    };

    // `deploy: true` queues a deployment the answer may not hold: the entry names it.
    const one = await call(
      'mutation($a: ID!, $v: String!) { setEnvironmentVariable(applicationId: $a, key: "CREATED", value: $v, deploy: true) { id } }',
      { a: app, v: randomUUID() },
    );
    names(one.entry, app, await newestDeployment());
    const many = await call(
      "mutation($a: ID!, $d: String!) { setEnvironmentVariables(applicationId: $a, dotenv: $d, deploy: true) { deployment { id } } }",
      { a: app, d: `CREATED=${randomUUID()}` },
    );
    expect(at(many.data, "setEnvironmentVariables", "deployment", "id")).toBe(await newestDeployment());
    names(many.entry, app, at(many.data, "setEnvironmentVariables", "deployment", "id"));
    const unset = await call(
      'mutation($a: ID!) { unsetEnvironmentVariable(applicationId: $a, key: "CREATED", deploy: true) { id } }',
      { a: app },
    );
    names(unset.entry, app, await newestDeployment());
    // The procedures (`skiff env set --deploy`) run the same mutations.
    const procedure = await rest("/api/variables.set", {
      applicationId: app,
      key: "CREATED",
      value: randomUUID(),
      deploy: true,
    });
    expect(procedure.entry).toMatchObject({ surface: "PROCEDURE", action: "setEnvironmentVariable", outcome: "ok" });
    names(procedure.entry, app, await newestDeployment());

    // A webhook recovery (GraphQL and REST), a test delivery, the deliveries of a published event.
    const { createWebhook } = (
      await call(
        'mutation($o: ID!) { createWebhook(organizationId: $o, input: { url: "https://127.0.0.1:9/created", events: ["course_completed"] }) { webhook { webhookUuid } } }',
        { o: fx.orgA },
      )
    ).data;
    const hook = at(createWebhook, "webhook", "webhookUuid");
    const since = new Date(Date.now() - 3_600_000).toISOString();
    const recovered = await call(
      "mutation($o: ID!, $h: ID!, $s: DateTime!) { recoverWebhookDeliveries(organizationId: $o, webhookUuid: $h, since: $s) { recoveryId alreadyRunning } }",
      { o: fx.orgA, h: hook, s: since },
    );
    expect((recovered.data.recoverWebhookDeliveries as { alreadyRunning: boolean }).alreadyRunning).toBe(false);
    names(recovered.entry, hook, at(recovered.data, "recoverWebhookDeliveries", "recoveryId"));
    const recoveredRest = await rest(`/api/v1/orgs/${fx.orgA}/webhooks/${hook}/recover`, {
      since: new Date(Date.now() - 1_800_000).toISOString(),
    });
    expect(at(recoveredRest.body, "recovery_id")).toMatch(/^whrec_/);
    names(recoveredRest.entry, hook, at(recoveredRest.body, "recovery_id"));
    const tested = await call(
      "mutation($o: ID!, $h: ID!) { testWebhook(organizationId: $o, webhookUuid: $h) { deliveryId } }",
      { o: fx.orgA, h: hook },
    );
    names(tested.entry, hook, at(tested.data, "testWebhook", "deliveryId"));
    const published = await call(
      'mutation($o: ID!, $d: JSONObject!) { publishWebhookEvent(organizationId: $o, event: "course_completed", data: $d) { deliveries { webhookUuid deliveryId } } }',
      {
        o: fx.orgA,
        d: {
          user: { user_uuid: "u1", email: "a@example.test", username: "a" },
          course: { course_uuid: "c1", name: "C" },
        },
      },
    );
    const deliveries = (published.data.publishWebhookEvent as { deliveries: unknown }).deliveries as Array<{
      webhookUuid: string;
      deliveryId: string;
    }>;
    expect(deliveries.map((d) => d.webhookUuid)).toContain(hook);
    // The organization (an argument) and as many deliveries as an entry holds.
    names(published.entry, ...deliveries.slice(0, 19).map((d) => d.deliveryId));

    // A new organization's entry names its owner's membership.
    const org = await call('mutation { createOrganization(input: { name: "Created" }) { id } }', {});
    const membership = await db
      .knex("members")
      .where({ organization_id: at(org.data, "createOrganization", "id") })
      .first("id");
    names(org.entry, at(org.data, "createOrganization", "id"), membership.id);
  });
});

describe("mutations refused before they run", () => {
  /** POSTs `query` with `variables` to /graphql with `auth` headers; the status, first error code and entries. */
  const post = async (query: string, variables: Record<string, unknown>, auth: Record<string, string>) => {
    const requestId = `audit-${randomUUID()}`;
    const res = await fetch(`${skiff.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-request-id": requestId, ...auth },
      body: JSON.stringify({ query, variables }),
    });
    const json = (await res.json()) as { data?: unknown; errors?: Array<{ extensions?: { code?: string } }> };
    expect(json.data).toBeUndefined();
    return { status: res.status, code: json.errors?.[0]?.extensions?.code, entries: await entriesOf(requestId) };
  };
  const CREATE = "mutation($i: CreateProjectInput!) { createProject(input: $i) { id } }";

  it("leave one refused entry per root mutation field: variables that do not coerce, a document that fails validation", async () => {
    const owner = headersOf(fx.credentials.owner, "");
    delete owner["x-request-id"];
    const expected = { actorKind: "USER", actorUserId: userIds.owner, credentialKind: "SESSION", surface: "GRAPHQL" };
    expect(expected.actorUserId).toBeTruthy();

    const coercion = await post(CREATE, { i: { name: 5 } }, owner);
    expect(coercion).toMatchObject({ status: 400, code: "BAD_USER_INPUT" });
    expect(coercion.entries).toMatchObject([
      { ...expected, action: "createProject", outcome: "refused", targetIds: [], organizationId: fx.orgA },
    ]);
    expect(coercion.entries[0]!.clientAddress).toBe("127.0.0.1");

    const validation = await post("mutation { createProject(input: { name: 5 }) { id } }", {}, owner);
    expect(validation).toMatchObject({ status: 400, code: "GRAPHQL_VALIDATION_FAILED" });
    expect(validation.entries).toMatchObject([{ ...expected, action: "createProject", outcome: "refused" }]);

    // Each root field named (a fragment on the root included) once, however many aliases name it: a refused
    // document cannot multiply its entries. A name the schema lacks is none.
    const aliases = Array.from({ length: 200 }, (_, i) => `a${i}: createProject(input: $i) { id }`).join(" ");
    const many = await post(
      `mutation($i: CreateProjectInput!, $id: ID!) { ${aliases} ...F nope }
      fragment F on Mutation { deleteProject(id: $id) }`,
      { i: { name: [] }, id: "prj_x" },
      owner,
    );
    expect(many).toMatchObject({ status: 400, code: "GRAPHQL_VALIDATION_FAILED" });
    expect(many.entries.map((e) => e.action).sort()).toEqual(["createProject", "deleteProject"]);
    expect(many.entries.every((e) => e.outcome === "refused" && e.targetIds.length === 0)).toBe(true);

    // A query refused for its variables is no change: no entry.
    const query = await post("query($id: ID!) { project(id: $id) { id } }", { id: 5.5 }, owner);
    expect(query.code).toBe("BAD_USER_INPUT");
    expect(query.entries).toEqual([]);

    // Without credentials: no one's call, no entry.
    const anonymous = await post(CREATE, { i: { name: 5 } }, {});
    expect(anonymous.code).toBe("UNAUTHENTICATED");
    expect(anonymous.entries).toEqual([]);

    // The procedure twin, for comparison: the same entry.
    const requestId = `audit-${randomUUID()}`;
    const res = await fetch(`${skiff.url}/api/project.create`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-request-id": requestId, ...owner },
      body: JSON.stringify({ name: 5 }),
    });
    expect(res.status).toBe(400);
    expect(await entriesOf(requestId)).toMatchObject([
      { ...expected, surface: "PROCEDURE", action: "createProject", outcome: "refused" },
    ]);
  });

  it("over WebSocket too; a remembered API key that no longer verifies leaves none", async () => {
    const last = async () => (await db.knex("audit_events").max("id as id").first())?.id as string;
    const since = await last();
    const socket = await wsOperation(skiff.url, fx.ownerA.apiKey, CREATE, { i: { name: 5 } });
    expect(JSON.stringify(socket.messages)).toContain("BAD_USER_INPUT");
    const invalid = await wsOperation(skiff.url, fx.ownerA.apiKey, "mutation { deleteProject(id: 5.5) }");
    expect(JSON.stringify(invalid.messages)).toContain("GRAPHQL_VALIDATION_FAILED");
    const entries: Row[] = await db
      .knex("audit_events")
      .where("id", ">", since)
      .where({ actorUserId: fx.ownerA.userId, credentialKind: "API_KEY" });
    // Sorted by action: the statement asks for no order (and ids within one millisecond have none).
    const actions = entries.map((e) => [e.surface, e.action, e.outcome]).sort((a, b) => a[1]!.localeCompare(b[1]!));
    expect(actions).toEqual([
      ["GRAPHQL", "createProject", "refused"],
      ["GRAPHQL", "deleteProject", "refused"],
    ]);
    expect(entries.every((e) => e.organizationId === fx.orgA)).toBe(true);

    // A key this server used once, deleted since: the refusal is the 401, and no one's.
    const key = await createApiKey(db.knex, fx.ownerA.userId, fx.orgA);
    const auth = { authorization: `Bearer ${key.apiKey}` };
    const viewer = await fetch(`${skiff.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", ...auth },
      body: JSON.stringify({ query: "{ viewer { user { id } } }" }),
    });
    expect(viewer.status).toBe(200);
    await db.knex("api_keys").where({ id: key.apiKeyId }).delete();
    const revoked = await post(CREATE, { i: { name: 5 } }, auth);
    expect(revoked.status).toBe(401);
    expect(revoked.entries).toEqual([]);
    expect(await db.knex("audit_events").where({ credentialId: key.apiKeyId })).toEqual([]);
  });
});

/** The mutation field a REST row's operation executes, or null for a query. */
function mutationOf(operation: string): string | null {
  const op = parse(operation).definitions.find(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  );
  if (op?.operation !== "mutation") return null;
  const field = op.selectionSet.selections[0];
  return field?.kind === Kind.FIELD ? field.name.value : null;
}

describe("every REST write path and agent API call", () => {
  it("leaves exactly one entry (enumerated from the route table)", { timeout: 300_000 }, async () => {
    const problems: string[] = [];
    let checked = 0;
    for (const route of restRoutes) {
      if ("serve" in route) continue;
      const key = `${route.method} ${route.path}`;
      const isAgent = "surface" in route && route.surface === "agent";
      const isCallback = "handle" in route;
      const mutation = "operation" in route ? mutationOf(route.operation) : null;
      if (!isAgent && !isCallback && !mutation) continue;
      const row = restRows.find((r) => r.route === key);
      if (!row) {
        problems.push(`${key}: no matrix row`);
        continue;
      }
      const persona: Persona = isAgent ? "agentToken" : isCallback ? "anonymous" : "owner";
      const call = await row.call(fx, persona);
      const requestId = `audit-${randomUUID()}`;
      const res = await fetch(`${skiff.url}${call.url}`, {
        method: route.method,
        headers: {
          ...(call.body === undefined ? {} : { "content-type": "application/json" }),
          ...headersOf(fx.credentials[persona], requestId),
        },
        body: call.body === undefined ? undefined : JSON.stringify(call.body),
      });
      await res.arrayBuffer();
      checked++;
      const entries = await entriesOf(requestId);
      if (entries.length !== 1) {
        problems.push(`${key} (${res.status}): ${entries.length} entries`);
        continue;
      }
      const [entry] = entries as [Row];
      const action = isCallback ? key : isAgent ? `agent.` : mutation;
      if (isAgent ? !entry.action.startsWith("agent.") : entry.action !== action) {
        problems.push(`${key}: action ${entry.action}`);
      }
      const surface = isAgent ? "AGENT" : /\/api\/[A-Za-z]+\.[A-Za-z]+$/.test(route.path) ? "PROCEDURE" : "REST";
      if (entry.surface !== surface) problems.push(`${key}: surface ${entry.surface}`);
      const outcome = res.status < 300 ? "ok" : entry.outcome;
      if (entry.outcome !== outcome) problems.push(`${key} (${res.status}): outcome ${entry.outcome}`);
      const anonymous = isCallback || route.surface === "none";
      if (!anonymous && entry.actorUserId === null) problems.push(`${key}: no actor`);
      if (call.target && !isCallback && !entry.targetIds.includes(call.target)) {
        problems.push(`${key}: targets ${entry.targetIds.join(",")} lack ${call.target}`);
      }
      // The deploy URL's token is a secret: the entry names the route's pattern only.
      if (JSON.stringify(entry).includes(call.url.split("/").at(-1) ?? "") && isCallback && key.includes(":token")) {
        problems.push(`${key}: holds the URL's token`);
      }
    }
    console.info(`audit: ${checked} REST write paths and agent calls checked`);
    expect(checked).toBeGreaterThan(15);
    expect(problems).toEqual([]);
  });
});

describe("surfaces", () => {
  it("names the CLI's requests (x-skiff-client: cli) CLI, on GraphQL and REST alike", async () => {
    const requestId = `audit-${randomUUID()}`;
    const res = await fetch(`${skiff.url}/graphql`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "x-skiff-client": "cli",
        "x-request-id": requestId,
        authorization: `Bearer ${fx.ownerA.apiKey}`,
      },
      body: JSON.stringify({ query: "mutation { ping }" }),
    });
    expect(res.status).toBe(200);
    const [entry] = await entriesOf(requestId);
    expect(entry).toMatchObject({ action: "ping", surface: "CLI", credentialKind: "API_KEY", outcome: "ok" });
  });
});

describe("same transaction", () => {
  it("a change rolled back with its caller's transaction leaves no entry; a committed one leaves one", async () => {
    const principal = await authenticate(skiff.services, { authorization: `Bearer ${fx.ownerA.apiKey}` }, "rest");
    const name = `rolled-back-${fx.unique()}`;
    const operation = `mutation($name: String!) { createProject(input: { organizationId: "${fx.orgA}", name: $name }) { id } }`;
    const requestId = `audit-${randomUUID()}`;
    const rollback = new Error("roll back");
    await expect(
      db.knex.transaction(async (trx) => {
        const ctx = buildContext(skiff.services, principal, requestId);
        const response = await skiff.apollo.executeOperation(
          { query: operation, variables: { name } },
          { contextValue: Object.assign(ctx, { knex: trx }) },
        );
        expect(response.body.kind === "single" && response.body.singleResult.errors).toBeFalsy();
        // Inside the transaction: the change and its entry.
        expect(await trx("projects").where({ name })).toHaveLength(1);
        expect(await trx("audit_events").where({ requestId: requestId })).toHaveLength(1);
        throw rollback;
      }),
    ).rejects.toBe(rollback);
    expect(await db.knex("projects").where({ name })).toHaveLength(0);
    expect(await entriesOf(requestId)).toHaveLength(0);
  });

  it("an entry written late in a long transaction is newest by id and by occurredAt alike", async () => {
    const principal = await authenticate(skiff.services, { authorization: `Bearer ${fx.ownerA.apiKey}` }, "rest");
    const operation = `mutation($name: String!) { createProject(input: { organizationId: "${fx.orgA}", name: $name }) { id } }`;
    const [late, early] = [`audit-${randomUUID()}`, `audit-${randomUUID()}`];
    await db.knex.transaction(async (trx) => {
      // The transaction starts (its `now()` fixed), another request's change commits, then this one's is made.
      await trx.raw("select now()");
      expect(await runGraphql(operation, { name: `early-${fx.unique()}` }, fx.credentials.owner, early)).toBe("ok");
      await new Promise((resolve) => setTimeout(resolve, 50));
      const ctx = buildContext(skiff.services, principal, late);
      const response = await skiff.apollo.executeOperation(
        { query: operation, variables: { name: `late-${fx.unique()}` } },
        { contextValue: Object.assign(ctx, { knex: trx }) },
      );
      expect(response.body.kind === "single" && response.body.singleResult.errors).toBeFalsy();
    });
    const page = await gql<{ auditEvents: { nodes: Array<{ occurredAt: string; requestId: string }> } }>(
      skiff.url,
      `query($org: ID!) { auditEvents(organizationId: $org, first: 2) { nodes { occurredAt requestId } } }`,
      { org: fx.orgA },
      { apiKey: fx.ownerA.apiKey },
    );
    expect(page.errors).toBeUndefined();
    const [first, second] = page.data!.auditEvents.nodes;
    expect([first?.requestId, second?.requestId]).toEqual([late, early]);
    expect(Date.parse(first!.occurredAt)).toBeGreaterThan(Date.parse(second!.occurredAt));
  });

  it("an entry that cannot be written fails the change with it", async () => {
    // A resolver that changes a row in its transaction, audited with an action the table refuses (no surface).
    const table = `audit_probe_${fx.unique()}`;
    await db.knex.schema.createTable(table, (t) => t.text("id"));
    const principal = await authenticate(skiff.services, { authorization: `Bearer ${fx.ownerA.apiKey}` }, "rest");
    const ctx = buildContext(skiff.services, principal, `audit-${randomUUID()}`);
    ctx.origin = { surface: "NOWHERE" as never, clientAddress: null };
    const resolve = auditedMutation("probe", [], async (_s, _a, c) =>
      c.knex.transaction(async (trx) => trx(table).insert({ id: "x" })),
    );
    await expect(resolve(null, {}, ctx, {} as never)).rejects.toThrow(/audit_events_surface_check/);
    expect(await db.knex(table)).toHaveLength(0);
    await db.knex.schema.dropTable(table);
  });
});

describe("one statement", () => {
  /** A probe table, the API key caller's context with request id `requestId`, and the statements sent meanwhile. */
  async function probe(requestId: string) {
    const table = `audit_probe_${fx.unique()}`;
    await db.knex.schema.createTable(table, (t) => t.text("id"));
    const principal = await authenticate(skiff.services, { authorization: `Bearer ${fx.ownerA.apiKey}` }, "rest");
    const ctx = buildContext(skiff.services, principal, requestId);
    const statements: string[] = [];
    const count = (q: { sql: string }) => statements.push(q.sql);
    return { table, ctx, statements, count, drop: () => db.knex.schema.dropTable(table) };
  }

  it("a change written in one statement carries its entry in that statement", async () => {
    const requestId = `audit-${randomUUID()}`;
    const p = await probe(requestId);
    // Targets: those noted before (one of them a row's own id), then the changed rows' other ids.
    const resolve = auditedMutation("probe", [], async (_s, _a, c) => {
      noteAuditTarget(c, "named_1");
      noteAuditTarget(c, "probe_2");
      return writeWithAuditEntry(
        c,
        c
          .knex(p.table)
          .insert([{ id: "probe_1" }, { id: "probe_2" }])
          .returning("*"),
        { namesChangedRows: true },
      );
    });
    skiff.services.knex.on("query", p.count);
    try {
      expect(await resolve(null, {}, p.ctx, {} as never)).toEqual([{ id: "probe_1" }, { id: "probe_2" }]);
    } finally {
      skiff.services.knex.off("query", p.count);
    }
    // The server's own jobs send statements meanwhile: those of the call name the probe or the log.
    const call = p.statements.filter((sql) => sql.includes(p.table) || sql.includes("audit_events"));
    expect(call, call.join("\n")).toHaveLength(1);
    expect(call[0]).toMatch(/^with "change" as \(insert into/);
    expect(await db.knex(p.table).orderBy("id")).toEqual([{ id: "probe_1" }, { id: "probe_2" }]);
    const [entry, ...more] = await entriesOf(requestId);
    expect(more).toEqual([]);
    expect(entry).toMatchObject({ action: "probe", outcome: "ok", organizationId: fx.orgA });
    expect(entry!.targetIds).toEqual(["named_1", "probe_2", "probe_1"]);
    // A column added since (a rolling upgrade's migration): the statement prepared before it still runs.
    const insertOne = (id: string) =>
      auditedMutation("probe", [], async (_s, _a, c) =>
        writeWithAuditEntry(c, c.knex(p.table).insert({ id }).returning("*")),
      )(null, {}, buildContext(skiff.services, p.ctx.caller, `audit-${randomUUID()}`), {} as never);
    expect(await insertOne("probe_3")).toEqual([{ id: "probe_3" }]);
    await db.knex.schema.alterTable(p.table, (t) => t.text("added"));
    for (const id of ["probe_4", "probe_5", "probe_6"]) expect(await insertOne(id)).toEqual([{ id, added: null }]);
    await p.drop();
  });

  it("an entry that cannot be written fails its statement's change; a change of no row writes the call's outcome", async () => {
    const p = await probe(`audit-${randomUUID()}`);
    p.ctx.origin = { surface: "NOWHERE" as never, clientAddress: null };
    const insert = auditedMutation("probe", [], async (_s, _a, c) =>
      writeWithAuditEntry(c, c.knex(p.table).insert({ id: "x" }).returning("*")),
    );
    await expect(insert(null, {}, p.ctx, {} as never)).rejects.toThrow(/audit_events_surface_check/);
    expect(await db.knex(p.table)).toHaveLength(0);
    const requestId = `audit-${randomUUID()}`;
    const none = await probe(requestId);
    const update = auditedMutation("probe", [], async (_s, _a, c) => {
      const rows = await writeWithAuditEntry(
        c,
        c.knex(none.table).where({ id: "gone" }).update({ id: "y" }).returning("*"),
      );
      if (rows.length === 0) throw new NotFoundError("Probe", "gone");
      return rows;
    });
    await expect(update(null, {}, none.ctx, {} as never)).rejects.toThrow(/not found/i);
    expect(await entriesOf(requestId)).toMatchObject([{ action: "probe", outcome: "refused" }]);
    await p.drop();
    await none.drop();
  });
});

describe("reading the log", () => {
  const list = `query($org: ID, $actor: ID, $action: String, $target: ID, $since: DateTime, $until: DateTime) {
    auditEvents(organizationId: $org, actorUserId: $actor, action: $action, targetId: $target, since: $since, until: $until, first: 200) {
      totalCount nodes { id occurredAt actorKind actorUserId credentialKind credentialId surface action targetIds outcome clientAddress requestId } } }`;
  type Page = { auditEvents: { totalCount: number; nodes: Array<Record<string, unknown>> } };

  it("owners and admins read their organization's entries, filtered; members cannot; another organization's are invisible", async () => {
    const requestId = `audit-${randomUUID()}`;
    const project = await fx.newProject();
    expect(
      await runGraphql(
        `mutation($id: ID!) { deleteProject(id: $id) }`,
        { id: project },
        fx.credentials.owner,
        requestId,
      ),
    ).toBe("ok");
    const asOwner = await gql<Page>(
      skiff.url,
      list,
      { org: fx.orgA, target: project },
      { cookie: fx.credentials.admin.cookie },
    );
    expect(asOwner.errors).toBeUndefined();
    const nodes = asOwner.data!.auditEvents.nodes;
    expect(nodes.map((n) => n.action)).toContain("deleteProject");
    expect(nodes.every((n) => (n.targetIds as string[]).includes(project))).toBe(true);
    const byAction = await gql<Page>(
      skiff.url,
      list,
      { org: fx.orgA, action: "deleteProject", actor: fx.ownerA.userId },
      {
        apiKey: fx.ownerA.apiKey,
      },
    );
    expect(byAction.data!.auditEvents.nodes.length).toBeGreaterThan(0);
    expect(
      byAction.data!.auditEvents.nodes.every((n) => n.action === "deleteProject" && n.actorUserId === fx.ownerA.userId),
    ).toBe(true);
    const future = await gql<Page>(
      skiff.url,
      list,
      { org: fx.orgA, since: new Date(Date.now() + 3600_000).toISOString() },
      {
        apiKey: fx.ownerA.apiKey,
      },
    );
    expect(future.data!.auditEvents.totalCount).toBe(0);
    const backwards = await gql(
      skiff.url,
      list,
      { org: fx.orgA, since: "2026-02-01T00:00:00Z", until: "2026-01-01T00:00:00Z" },
      {
        apiKey: fx.ownerA.apiKey,
      },
    );
    expect(backwards.errors?.[0]?.extensions?.code).toBe("BAD_USER_INPUT");

    const member = await gql(skiff.url, list, { org: fx.orgA }, { cookie: fx.credentials.granted.cookie });
    expect(member.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
    const rest = await fetch(`${skiff.url}/api/audit-events?organizationId=${fx.orgA}`, {
      headers: { cookie: fx.credentials.granted.cookie! },
    });
    expect(rest.status).toBe(403);
    const other = await gql(skiff.url, list, { org: fx.orgA }, { cookie: fx.credentials.otherOwner.cookie });
    expect(other.errors?.[0]?.extensions?.code).toBe("NOT_FOUND");
    // B's owner reads B's log: none of A's entries (its own refused attempts on A's resources are B's).
    const own = await gql<Page>(skiff.url, list, { org: fx.orgB }, { cookie: fx.credentials.otherOwner.cookie });
    expect(own.errors).toBeUndefined();
    const ids = own.data!.auditEvents.nodes.map((n) => n.id as string);
    const inA = await db.knex("audit_events").whereIn("id", ids).where({ organizationId: fx.orgA });
    expect(inA).toHaveLength(0);
    expect(own.data!.auditEvents.nodes.every((n) => n.actorUserId === userIds.otherOwner)).toBe(true);
  });

  it("GET /api/audit-events pages with the same filters; the export answers NDJSON for a time range", async () => {
    const since = new Date(Date.now() - 3600_000).toISOString();
    const page = await fetch(`${skiff.url}/api/audit-events?organizationId=${fx.orgA}&first=5&since=${since}`, {
      headers: { authorization: `Bearer ${fx.ownerA.apiKey}` },
    });
    expect(page.status).toBe(200);
    const body = (await page.json()) as {
      events: Array<{ id: string }>;
      totalCount: number;
      nextCursor: string | null;
    };
    expect(body.events).toHaveLength(5);
    expect(body.nextCursor).toBeTruthy();
    const next = await fetch(
      `${skiff.url}/api/audit-events?organizationId=${fx.orgA}&first=5&since=${since}&after=${body.nextCursor}`,
      {
        headers: { authorization: `Bearer ${fx.ownerA.apiKey}` },
      },
    );
    const second = (await next.json()) as { events: Array<{ id: string }> };
    expect(second.events[0]!.id < body.events[4]!.id).toBe(true);
    // `first` follows the integer rule of every REST query parameter: canonical decimal, in range, given once.
    for (const first of ["", "05", "+5", "%205", "0", "201", "5&first=5"]) {
      const refused = await fetch(`${skiff.url}/api/audit-events?organizationId=${fx.orgA}&first=${first}`, {
        headers: { authorization: `Bearer ${fx.ownerA.apiKey}` },
      });
      expect(refused.status, first).toBe(400);
      expect(await refused.json(), first).toMatchObject({
        code: "BAD_USER_INPUT",
        fieldErrors: { first: [expect.any(String)] },
      });
    }

    // More entries than one page of the export (200), so that it follows pages.
    const probe = `export-probe-${fx.unique()}`;
    await db.knex("audit_events").insert(
      Array.from({ length: 250 }, () => ({
        id: newId("auditEvent"),
        organizationId: fx.orgA,
        actorKind: "SYSTEM",
        surface: "SYSTEM",
        action: probe,
        outcome: "ok",
      })),
    );
    const probed = await fetch(`${skiff.url}/api/audit-events/export?organization_id=${fx.orgA}&action=${probe}`, {
      headers: { authorization: `Bearer ${fx.ownerA.apiKey}` },
    });
    const probeLines = (await probed.text()).trim().split("\n");
    expect(probeLines).toHaveLength(250);
    expect(new Set(probeLines.map((l) => (JSON.parse(l) as { id: string }).id)).size).toBe(250);
    const until = new Date(Date.now() + 1000).toISOString();
    const exported = await fetch(
      `${skiff.url}/api/audit-events/export?organizationId=${fx.orgA}&since=${since}&until=${until}`,
      {
        headers: { authorization: `Bearer ${fx.ownerA.apiKey}` },
      },
    );
    expect(exported.status).toBe(200);
    expect(exported.headers.get("content-type")).toContain("application/x-ndjson");
    const lines = (await exported.text())
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { occurredAt: string });
    expect(lines.length).toBe(body.totalCount + 250);
    expect(lines.every((l) => l.occurredAt >= since && l.occurredAt < until)).toBe(true);
    // Not a date, no such day, no offset: each the parameter's own 400, on the list and the export alike.
    for (const path of ["/api/audit-events", "/api/audit-events/export"]) {
      for (const [param, value] of [
        ["since", "yesterday"],
        ["since", "2026-02-30T00:00:00Z"],
        ["until", "2026-11-29T05:00:00"],
        ["since", "1764000000"],
      ]) {
        const bad = await fetch(`${skiff.url}${path}?organizationId=${fx.orgA}&${param}=${value}`, {
          headers: { authorization: `Bearer ${fx.ownerA.apiKey}` },
        });
        expect(bad.status, `${path} ${param}=${value}`).toBe(400);
        expect(
          ((await bad.json()) as { fieldErrors: Record<string, unknown> }).fieldErrors[param!],
          `${path} ${param}=${value}`,
        ).toEqual([expect.any(String)]);
      }
    }
  });
});

describe("sign-in events and retention", () => {
  it("records sign-in, its failure and sign-out on the AUTH surface, never the password or the session token", async () => {
    const email = fx.emails.admin!;
    const wrong = `planted-wrong-password-${fx.unique()}`;
    const failed = await postAuth(skiff.url, "/sign-in/email", { email, password: wrong });
    expect(failed.status).toBe(401);
    const ok = await postAuth(skiff.url, "/sign-in/email", { email, password: TEST_PASSWORD });
    expect(ok.status).toBe(200);
    const failedEntry = (await entriesOf(failed.headers.get("x-request-id")!))[0]!;
    expect(failedEntry).toMatchObject({
      action: "auth.sign_in_email",
      outcome: "refused",
      actorKind: "ANONYMOUS",
      surface: "AUTH",
    });
    const okEntry = (await entriesOf(ok.headers.get("x-request-id")!))[0]!;
    expect(okEntry).toMatchObject({
      action: "auth.sign_in_email",
      outcome: "ok",
      actorUserId: userIds.admin,
      surface: "AUTH",
    });
    expect(okEntry.organizationId).toBe(fx.orgA);
    const token = ok.headers.getSetCookie()[0]!.split(";")[0]!.split("=")[1]!;
    const text = JSON.stringify(await db.knex("audit_events").select());
    expect(text).not.toContain(wrong);
    expect(text).not.toContain(decodeURIComponent(token).split(".")[0]);
  });

  it("audit.prune deletes entries older than the retention", async () => {
    const old = `audit-old-${randomUUID()}`;
    await db.knex("audit_events").insert({
      id: newId("auditEvent"),
      occurredAt: new Date(Date.now() - 401 * 86_400_000),
      organizationId: fx.orgA,
      actorKind: "SYSTEM",
      surface: "SYSTEM",
      action: "probe",
      outcome: "ok",
      requestId: old,
    });
    const before = await db.knex("audit_events").count<{ count: string }[]>("* as count");
    expect(await pruneAuditEvents(db.knex, 400)).toBe(1);
    expect(await entriesOf(old)).toHaveLength(0);
    const after = await db.knex("audit_events").count<{ count: string }[]>("* as count");
    expect(Number(after[0]!.count)).toBe(Number(before[0]!.count) - 1);
    await expect(
      db.knex("audit_events").update({ action: "changed" }).where({ organizationId: fx.orgA }),
    ).rejects.toThrow(/append-only/);
  });
});

describe("no secret in any entry", () => {
  it("planted secrets (variable values, passwords) and returned ones (keys, tokens, webhook secrets): 0 hits", async () => {
    const tag = fx.unique();
    const planted = [`planted-env-value-${tag}`, `planted-db-password-${tag}`];
    const owner = { apiKey: fx.ownerA.apiKey };
    const set = await gql(
      skiff.url,
      `mutation($id: ID!, $v: String!) { setEnvironmentVariable(applicationId: $id, key: "API_TOKEN", value: $v) { id } }`,
      { id: fx.applicationP, v: planted[0] },
      owner,
    );
    expect(set.errors).toBeUndefined();
    const key = await gql<{ createApiKey: { secret: string } }>(
      skiff.url,
      `mutation { createApiKey(name: "k") { secret } }`,
      {},
      owner,
    );
    const agent = await gql<{ createAgentToken: { token: string } }>(
      skiff.url,
      `mutation { createAgentToken { token } }`,
      {},
      { cookie: fx.credentials.owner.cookie },
    );
    const deployToken = await gql<{ regenerateDeployToken: string }>(
      skiff.url,
      `mutation($id: ID!) { regenerateDeployToken(applicationId: $id) }`,
      { id: fx.applicationP },
      owner,
    );
    const returned = [
      key.data?.createApiKey.secret,
      agent.data?.createAgentToken.token,
      deployToken.data?.regenerateDeployToken.split("/").at(-1),
      fx.ownerA.apiKey,
    ].filter((s): s is string => typeof s === "string" && s.length > 10);
    expect(returned.length).toBeGreaterThanOrEqual(3);
    const text = JSON.stringify(await db.knex("audit_events").select());
    const hits = [...planted, ...returned].filter((secret) => text.includes(secret));
    expect(hits).toEqual([]);
  });
});
