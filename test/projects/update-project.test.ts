/**
 * Changing a project (`updateProject`, `POST /api/project.update`) against a real server and PostgreSQL: renames and
 * description changes (set, trimmed, cleared by a blank one; omitted and null fields unchanged), createProject's
 * blank description stored as null, a taken name answering CONFLICT with createProject's message and changing
 * nothing, 10 concurrent renames onto one name leaving one, owners and admins allowed, a member FORBIDDEN on a
 * project it sees and NOT_FOUND on one it does not, another organization's project NOT_FOUND like a missing one,
 * the procedure giving the same answers with its statuses (a session reaching every organization it belongs to, as
 * over GraphQL), BAD_USER_INPUT with `fieldErrors`, and `project.updated` emitted once per call that changed
 * something, never for one that changed nothing.
 */
import { describe, expect, it } from "vitest";
import { subscribeToEvents, type WebhookDomainEvent } from "../../src/modules/events.ts";
import { lockWaiters } from "../helpers/lock-waiters.ts";
import { addMember, addMembership, createAgentTokenFor, createOrg, createProjects } from "../helpers/seed.ts";
import { type GqlResponse, gql, useTestServer } from "../helpers/server.ts";
import { sessionFor } from "../helpers/session.ts";

const t = useTestServer();

const UPDATE = `mutation($id: ID!, $input: UpdateProjectInput!) {
  updateProject(id: $id, input: $input) { id name description organization { id } } }`;
const CREATE = "mutation($input: CreateProjectInput!) { createProject(input: $input) { id name description } }";

interface ProjectAnswer {
  id: string;
  name: string;
  description: string | null;
  organization: { id: string };
}

/** Every `project.updated` event emitted in this process (the server runs in it). */
const emitted: WebhookDomainEvent<"project.updated">[] = [];
subscribeToEvents(async (_ctx, event) => {
  if (event.kind === "webhook" && event.name === "project.updated") {
    emitted.push(event as WebhookDomainEvent<"project.updated">);
  }
});

/** The `project.updated` events of project `id`, in order. */
function eventsOf(id: string) {
  return emitted.filter((e) => e.data.project.project_id === id);
}

function code(res: GqlResponse<unknown>): unknown {
  return res.errors?.[0]?.extensions?.code;
}

/** `updateProject(id, input)` as the holder of `apiKey`. */
function update(apiKey: string, id: string, input: Record<string, unknown>) {
  return gql<{ updateProject: ProjectAnswer }>(t.skiff.url, UPDATE, { id, input }, { apiKey });
}

/** POSTs `body` to `/api/project.update` with bearer `token`. */
async function procedure(token: string, body: unknown, name = "project.update") {
  const res = await fetch(`${t.skiff.url}/api/${name}`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  // biome-ignore lint/suspicious/noExplicitAny: answers are checked by assertions, not by types.
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

/** The stored name and description of project `id`. */
function stored(id: string) {
  return t.db.knex("projects").where({ id }).first("name", "description");
}

/** An organization with its owner and `count` projects. */
async function world(count = 1) {
  const org = await createOrg(t.db.knex);
  const projects = (await createProjects(t.db.knex, org.organizationId, count)) as string[];
  return { org, key: org.owner.apiKey, projects };
}

describe("updateProject", () => {
  it("renames a project and sets, trims and clears its description; omitted and null fields stay", async () => {
    const { org, key, projects } = await world();
    const id = projects[0]!;
    const renamed = await update(key, id, { name: "  Storefront  " });
    expect(renamed.errors).toBeUndefined();
    expect(renamed.data!.updateProject).toEqual({
      id,
      name: "Storefront",
      description: null,
      organization: { id: org.organizationId },
    });
    expect(eventsOf(id).map((e) => e.data.fields)).toEqual([["name"]]);
    expect(eventsOf(id)[0]).toMatchObject({
      organizationId: org.organizationId,
      data: { project: { project_id: id, name: "Storefront" }, changed_by: org.owner.userId },
    });

    const described = await update(key, id, { description: "  The shop's front end.  " });
    expect(described.data!.updateProject).toMatchObject({ name: "Storefront", description: "The shop's front end." });
    const both = await update(key, id, { name: "Shop", description: "Front end" });
    expect(both.data!.updateProject).toMatchObject({ name: "Shop", description: "Front end" });
    expect(eventsOf(id).map((e) => e.data.fields)).toEqual([["name"], ["description"], ["name", "description"]]);

    // Null and omitted fields keep their value: nothing changes, no event.
    for (const input of [{}, { name: null, description: null }, { name: "Shop" }, { description: " Front end " }]) {
      const same = await update(key, id, input);
      expect(same.data!.updateProject, JSON.stringify(input)).toMatchObject({ name: "Shop", description: "Front end" });
    }
    expect(eventsOf(id)).toHaveLength(3);

    // An empty or whitespace-only description clears it; clearing a cleared one changes nothing.
    const cleared = await update(key, id, { description: " \t\n " });
    expect(cleared.data!.updateProject).toMatchObject({ name: "Shop", description: null });
    expect(await stored(id)).toEqual({ name: "Shop", description: null });
    expect((await update(key, id, { description: "" })).data!.updateProject.description).toBeNull();
    expect(eventsOf(id).map((e) => e.data.fields)).toEqual([
      ["name"],
      ["description"],
      ["name", "description"],
      ["description"],
    ]);

    // Names are stored in Unicode normalization form C.
    const decomposed = await update(key, id, { name: "cafe\u0301" });
    expect(decomposed.data!.updateProject.name).toBe("caf\u00e9");
    expect((await stored(id)).name).toBe("caf\u00e9");
    const precomposed = await update(key, id, { name: "caf\u00e9" });
    expect(precomposed.errors).toBeUndefined();
    expect(eventsOf(id)).toHaveLength(5);
  });

  it("moves updated_at only when something changed", async () => {
    const { key, projects } = await world();
    const id = projects[0]!;
    const at = async () => (await t.db.knex("projects").where({ id }).first("updated_at")).updatedAt as Date;
    const before = await at();
    await update(key, id, { description: null });
    expect(await at()).toEqual(before);
    await update(key, id, { description: "x" });
    expect((await at()).getTime()).toBeGreaterThan(before.getTime());
  });

  it("createProject stores a blank description as null and trims a given one", async () => {
    const { key } = await world(0);
    const blank = await gql<{ createProject: { id: string; description: string | null } }>(
      t.skiff.url,
      CREATE,
      { input: { name: "p", description: "   " } },
      { apiKey: key },
    );
    expect(blank.errors).toBeUndefined();
    expect(blank.data!.createProject.description).toBeNull();
    expect((await stored(blank.data!.createProject.id)).description).toBeNull();
    const empty = await gql<{ createProject: { id: string } }>(
      t.skiff.url,
      CREATE,
      { input: { name: "q", description: "" } },
      { apiKey: key },
    );
    expect((await stored(empty.data!.createProject.id)).description).toBeNull();
    const given = await gql<{ createProject: { id: string; description: string } }>(
      t.skiff.url,
      CREATE,
      { input: { name: "r", description: "  Docs site " } },
      { apiKey: key },
    );
    expect(given.data!.createProject.description).toBe("Docs site");
  });

  it("a taken name is a CONFLICT with createProject's message and changes nothing", async () => {
    const { key, projects } = await world(2);
    const [a, b] = projects as [string, string];
    await update(key, a, { name: "web" });
    await update(key, b, { name: "blog", description: "Blog" });
    const before = emitted.length;
    const taken = await update(key, b, { name: "web", description: "Moved" });
    expect(code(taken)).toBe("CONFLICT");
    const created = await gql(t.skiff.url, CREATE, { input: { name: "web" } }, { apiKey: key });
    expect(code(created)).toBe("CONFLICT");
    expect(taken.errors![0]!.message).toBe(created.errors![0]!.message);
    expect(taken.errors![0]!.message).toBe('A project named "web" already exists in this organization');
    // Also when it is typed in another normalization form, or with spaces around it.
    const decomposedTaken = await update(key, a, { name: "caf\u00e9" });
    expect(decomposedTaken.errors).toBeUndefined();
    expect(code(await update(key, b, { name: " cafe\u0301 " }))).toBe("CONFLICT");
    expect(await stored(b)).toEqual({ name: "blog", description: "Blog" });
    expect(emitted.length).toBe(before + 1);
    // The same name in another organization is fine.
    const other = await world();
    expect((await update(other.key, other.projects[0]!, { name: "web" })).errors).toBeUndefined();
  });

  it("10 concurrent renames of 10 projects onto one name: one wins, nine CONFLICTs, one event", async () => {
    const { org, key, projects } = await world(10);
    const before = emitted.length;
    // Every rename waits on its project's row until all ten are waiting, then they run at once.
    const hold = await t.db.knex.transaction();
    try {
      await hold("projects").whereIn("id", projects).forUpdate().select("id");
      const pending = projects.map((id) => update(key, id, { name: "race" }));
      await lockWaiters(t.db.knex, 10, '%from "projects"%for update%');
      await hold.commit();
      const answers = await Promise.all(pending);
      expect(answers.filter((a) => !a.errors)).toHaveLength(1);
      expect(answers.filter((a) => code(a) === "CONFLICT")).toHaveLength(9);
    } finally {
      if (!hold.isCompleted()) await hold.rollback();
    }
    const named = await t.db.knex("projects").where({ organization_id: org.organizationId, name: "race" });
    expect(named).toHaveLength(1);
    expect(emitted.slice(before).filter((e) => e.data.project.name === "race")).toHaveLength(1);
    // Each call leaves one audit entry: one ok, nine conflicts.
    const outcomes = await t.db
      .knex("audit_events")
      .where({ action: "updateProject", organizationId: org.organizationId })
      .pluck("outcome");
    expect(outcomes.sort()).toEqual(["ok", ...Array(9).fill("CONFLICT")].sort());
  });

  it("10 concurrent renames of one project to one name all succeed with one event", async () => {
    const { key, projects } = await world();
    const id = projects[0]!;
    const answers = await Promise.all(Array.from({ length: 10 }, () => update(key, id, { name: "same" })));
    expect(answers.every((a) => a.data?.updateProject.name === "same")).toBe(true);
    expect(eventsOf(id)).toHaveLength(1);
  });

  it("owners and admins may; a member gets FORBIDDEN on a project it sees, NOT_FOUND on one it does not", async () => {
    const { org, key, projects } = await world(2);
    const [p, q] = projects as [string, string];
    const admin = await addMember(t.db.knex, org.organizationId, "admin");
    const member = await addMember(t.db.knex, org.organizationId, "member");
    const grantedP = await addMember(t.db.knex, org.organizationId, "member", { projectIds: [p] });
    const grantedQ = await addMember(t.db.knex, org.organizationId, "member", { projectIds: [q] });
    expect((await update(admin.apiKey, p, { name: "by-admin" })).data!.updateProject.name).toBe("by-admin");
    expect((await update(key, p, { name: "by-owner" })).data!.updateProject.name).toBe("by-owner");

    const DELETE = "mutation($id: ID!) { deleteProject(id: $id) }";
    for (const [who, apiKey, expected] of [
      ["member", member.apiKey, "FORBIDDEN"],
      ["member granted P", grantedP.apiKey, "FORBIDDEN"],
      ["member granted Q", grantedQ.apiKey, "NOT_FOUND"],
    ] as const) {
      const refused = await update(apiKey, p, { name: "by-member", description: "no" });
      expect(code(refused), who).toBe(expected);
      // Exactly as deleteProject answers it.
      const deleted = await gql(t.skiff.url, DELETE, { id: p }, { apiKey });
      expect(code(deleted), who).toBe(expected);
    }
    expect(await stored(p)).toEqual({ name: "by-owner", description: null });
    // A bad input from a member is refused for the role, not judged.
    expect(code(await update(member.apiKey, p, { name: "" }))).toBe("FORBIDDEN");
    expect(code(await update(grantedQ.apiKey, p, { name: "" }))).toBe("NOT_FOUND");
  });

  it("another organization's project is NOT_FOUND, answered exactly as a nonexistent id", async () => {
    const a = await world();
    const b = await world();
    const id = a.projects[0]!;
    const missing = `${id.slice(0, id.lastIndexOf("_") + 1)}${"0".repeat(id.length - id.lastIndexOf("_") - 1)}`;
    const theirs = await update(b.key, id, { name: "mine" });
    expect(code(theirs)).toBe("NOT_FOUND");
    const none = await update(b.key, missing, { name: "mine" });
    expect(JSON.stringify(theirs.errors).replaceAll(id, "<id>")).toBe(
      JSON.stringify(none.errors).replaceAll(missing, "<id>"),
    );
    expect((await stored(id)).name).not.toBe("mine");
    expect(eventsOf(id)).toHaveLength(0);
    // Deleted: NOT_FOUND too.
    await gql(t.skiff.url, "mutation($id: ID!) { deleteProject(id: $id) }", { id }, { apiKey: a.key });
    expect(code(await update(a.key, id, { name: "gone" }))).toBe("NOT_FOUND");
  });

  it("bad input is BAD_USER_INPUT with fieldErrors naming the field, and changes nothing", async () => {
    const { key, projects } = await world();
    const id = projects[0]!;
    await update(key, id, { name: "kept", description: "kept" });
    const before = eventsOf(id).length;
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ name: "" }, "name"],
      [{ name: "   " }, "name"],
      [{ name: "x".repeat(101) }, "name"],
      [{ name: "line\nbreak" }, "name"],
      [{ name: "web\u200b" }, "name"],
      [{ name: "ok", description: "d".repeat(1001) }, "description"],
    ];
    for (const [input, field] of cases) {
      const res = await update(key, id, input);
      expect(code(res), JSON.stringify(input)).toBe("BAD_USER_INPUT");
      const fieldErrors = res.errors![0]!.extensions!.fieldErrors as Record<string, string[]>;
      expect(Object.keys(fieldErrors), JSON.stringify(input)).toEqual([field]);
    }
    // At the limits: 100 characters of name, 1000 of description (after trimming).
    const limits = await update(key, id, { name: ` ${"n".repeat(100)} `, description: ` ${"d".repeat(1000)} ` });
    expect(limits.errors).toBeUndefined();
    expect(await stored(id)).toEqual({ name: "n".repeat(100), description: "d".repeat(1000) });
    expect(eventsOf(id)).toHaveLength(before + 1);
    // GraphQL's own check of the argument types.
    expect(code(await update(key, id, { name: 5 }))).toBe("BAD_USER_INPUT");
    expect(code(await update(key, id, { color: "red" }))).toBe("BAD_USER_INPUT");
  });
});

describe("POST /api/project.create and /api/project.delete", () => {
  it("create a project (in the key's organization when none is named) and delete it with what it holds", async () => {
    const { org, key } = await world(0);
    const made = await procedure(key, { name: "  Shop  ", description: "The shop" }, "project.create");
    expect(made.status).toBe(200);
    expect(made.body.result.data).toMatchObject({
      name: "Shop",
      description: "The shop",
      organization: { id: org.organizationId },
    });
    const id = made.body.result.data.id as string;
    expect(await t.db.knex("environments").where({ project_id: id })).toHaveLength(1);
    const taken = await procedure(key, { name: "Shop" }, "project.create");
    expect(taken.status).toBe(409);
    expect(taken.body.error.fieldErrors).toEqual({ name: [expect.stringContaining("Shop")] });
    expect((await procedure(key, { name: "x", bogus: 1 }, "project.create")).body.error.fieldErrors).toEqual({
      bogus: ["Unknown field"],
    });

    const deleted = await procedure(key, { projectId: id }, "project.delete");
    expect(deleted).toEqual({ status: 200, body: { result: { data: id } } });
    expect(await t.db.knex("projects").where({ id })).toEqual([]);
    expect(await t.db.knex("environments").where({ project_id: id })).toEqual([]);
    expect((await procedure(key, { projectId: id }, "project.delete")).status).toBe(404);
  });
});

describe("POST /api/project.update", () => {
  it("gives the mutation's answers: 200, 409, 404, 403, 400 with fieldErrors, 401 for agent tokens", async () => {
    const { org, key, projects } = await world(2);
    const [p, q] = projects as [string, string];
    const ok = await procedure(key, { projectId: p, name: " Shop ", description: " Front " });
    expect(ok).toEqual({
      status: 200,
      body: {
        result: {
          data: {
            id: p,
            name: "Shop",
            description: "Front",
            createdAt: expect.any(String),
            organization: { id: org.organizationId },
          },
        },
      },
    });
    expect(eventsOf(p).map((e) => e.data.fields)).toEqual([["name", "description"]]);
    const cleared = await procedure(key, { projectId: p, description: "  " });
    expect(cleared.body.result.data.description).toBeNull();
    const unchanged = await procedure(key, { projectId: p, name: "Shop", description: null });
    expect(unchanged.status).toBe(200);
    expect(eventsOf(p)).toHaveLength(2);

    const taken = await procedure(key, { projectId: q, name: "Shop" });
    expect(taken).toEqual({
      status: 409,
      body: {
        error: {
          message: 'A project named "Shop" already exists in this organization',
          code: "CONFLICT",
          fieldErrors: { name: ['A project named "Shop" already exists in this organization'] },
        },
      },
    });

    const other = await world();
    const theirs = await procedure(other.key, { projectId: p, name: "mine" });
    expect(theirs.status).toBe(404);
    expect(theirs.body.error.code).toBe("NOT_FOUND");
    expect((await procedure(key, { projectId: "", name: "x" })).status).toBe(404);

    const member = await addMember(t.db.knex, org.organizationId, "member", { projectIds: [p] });
    expect(await procedure(member.apiKey, { projectId: p, name: "mine" })).toMatchObject({
      status: 403,
      body: { error: { code: "FORBIDDEN" } },
    });
    expect(await procedure(member.apiKey, { projectId: q, name: "mine" })).toMatchObject({
      status: 404,
      body: { error: { code: "NOT_FOUND" } },
    });

    const bad = await procedure(key, { projectId: p, name: "" });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: "BAD_USER_INPUT", fieldErrors: { name: [expect.any(String)] } });
    const typed = await procedure(key, { projectId: p, name: 5, colour: "red" });
    expect(typed.status).toBe(400);
    expect(typed.body.error.fieldErrors).toEqual({ name: ["Must be a string"], colour: ["Unknown field"] });
    const noId = await procedure(key, { name: "x" });
    expect(noId.status).toBe(400);
    expect(noId.body.error.fieldErrors).toEqual({ projectId: ["Required"] });
    expect(await stored(p)).toEqual({ name: "Shop", description: null });

    const agentUser = await addMember(t.db.knex, org.organizationId, "member");
    const agent = await createAgentTokenFor(t.db.knex, org.organizationId, agentUser);
    expect((await procedure(agent, { projectId: p, name: "agent" })).status).toBe(401);
  });

  it("reaches with a session what the mutation reaches over GraphQL: every organization of the session", async () => {
    const a = await createOrg(t.db.knex);
    const b = await createOrg(t.db.knex);
    // A's owner also owns B; the session acts on A (its first organization), B's project is named by id.
    await addMembership(t.db.knex, b.organizationId, a.owner.userId, "owner");
    const [projectB] = (await createProjects(t.db.knex, b.organizationId, 1)) as [string];
    const cookie = await sessionFor(t.db.knex, t.skiff.url, a.owner);
    const call = (body: unknown) =>
      fetch(`${t.skiff.url}/api/project.update`, {
        method: "POST",
        headers: { "content-type": "application/json", cookie },
        body: JSON.stringify(body),
      });
    expect((await call({ projectId: projectB, name: "via-rest" })).status).toBe(200);
    const viaGraphql = await gql(
      t.skiff.url,
      UPDATE,
      { id: projectB, input: { description: "via GraphQL" } },
      { cookie },
    );
    expect(viaGraphql.errors).toBeUndefined();
    expect(await stored(projectB)).toEqual({ name: "via-rest", description: "via GraphQL" });
    // Another organization's project stays NOT_FOUND.
    const [foreign] = (await createProjects(t.db.knex, (await createOrg(t.db.knex)).organizationId, 1)) as [string];
    expect((await call({ projectId: foreign, name: "x" })).status).toBe(404);
  });
});
