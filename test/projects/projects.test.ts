/**
 * Projects (spec: "Organization and access resources", Role table): owners and admins create and delete projects,
 * members neither; a project starts with its `production` environment; names are unique per organization; the
 * `projects` connection pages by cursor and shows a member limited by grants only its granted projects (and those of
 * its granted applications); another organization's project is NOT_FOUND, never FORBIDDEN.
 */
import { describe, expect, it } from "vitest";
import { addMember, createOrg, createProjects } from "../helpers/seed.ts";
import { gql, useTestServer } from "../helpers/server.ts";

const t = useTestServer();

function code(res: { errors?: Array<{ extensions?: { code?: string } }> }) {
  return res.errors?.[0]?.extensions?.code;
}

const PAGE = `query($first: Int, $after: String) { projects(first: $first, after: $after) {
  totalCount nodes { id } edges { cursor node { id } } pageInfo { hasNextPage endCursor } } }`;

interface Page {
  totalCount: number;
  nodes: Array<{ id: string }>;
  edges: Array<{ cursor: string; node: { id: string } }>;
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}

/** Every project id the caller sees, page by page (`first` per page), and the pages' total counts. */
async function allPages(apiKey: string, first: number): Promise<{ ids: string[]; totals: number[] }> {
  const ids: string[] = [];
  const totals: number[] = [];
  let after: string | null = null;
  for (;;) {
    const res: { data?: { projects: Page } | null; errors?: unknown } = await gql<{ projects: Page }>(
      t.skiff.url,
      PAGE,
      { first, after },
      { apiKey },
    );
    expect(res.errors).toBeUndefined();
    const page: Page = res.data!.projects;
    expect(page.edges.map((e) => e.node.id)).toEqual(page.nodes.map((n) => n.id));
    ids.push(...page.nodes.map((n) => n.id));
    totals.push(page.totalCount);
    if (!page.pageInfo.hasNextPage) return { ids, totals };
    after = page.pageInfo.endCursor;
  }
}

describe("projects by role", () => {
  it("lets owners and admins create and delete projects; members neither", async () => {
    const org = await createOrg(t.db.knex);
    const admin = await addMember(t.db.knex, org.organizationId, "admin");
    const member = await addMember(t.db.knex, org.organizationId, "member");
    const CREATE_PROJECT = `mutation($input: CreateProjectInput!) { createProject(input: $input) { id name organization { id } environments { name } } }`;
    const made = await gql<{ createProject: { id: string } }>(
      t.skiff.url,
      CREATE_PROJECT,
      { input: { name: "web" } },
      { apiKey: admin.apiKey },
    );
    expect(made.data!.createProject).toMatchObject({
      name: "web",
      organization: { id: org.organizationId },
      environments: [{ name: "production" }],
    });
    expect(code(await gql(t.skiff.url, CREATE_PROJECT, { input: { name: "web" } }, { apiKey: org.owner.apiKey }))).toBe(
      "CONFLICT",
    );
    expect(code(await gql(t.skiff.url, CREATE_PROJECT, { input: { name: "mine" } }, { apiKey: member.apiKey }))).toBe(
      "FORBIDDEN",
    );
    const DELETE = `mutation($id: ID!) { deleteProject(id: $id) }`;
    const id = made.data!.createProject.id;
    expect(code(await gql(t.skiff.url, DELETE, { id }, { apiKey: member.apiKey }))).toBe("FORBIDDEN");
    expect((await gql(t.skiff.url, DELETE, { id }, { apiKey: org.owner.apiKey })).data).toEqual({ deleteProject: id });
    expect(code(await gql(t.skiff.url, DELETE, { id }, { apiKey: org.owner.apiKey }))).toBe("NOT_FOUND");

    // Names are one line: control characters are refused, as on every other name; so are invisible characters that
    // make a name look like another (or like nothing).
    const unreadable = ["line\nbreak", "bell\u0007", "esc\u001b[31m", "\u200b", "web\u200b", "\u202Ebew", "\u200d"];
    // Line and paragraph separators, and the fillers and blanks that show as nothing.
    unreadable.push("line\u2028sep", "para\u2029sep", "\u3164", "\u115f", "web\u1160", "\uffa0", "web\u2800");
    // Variation selectors alone (they only modify a neighbour), also left alone once blanks are trimmed.
    unreadable.push("\ufe0f", "\ufe0e", "\ufe00", "\u{e0100}", "\u180b", "\u3000\ufe0f");
    for (const name of unreadable) {
      const refused = await gql(t.skiff.url, CREATE_PROJECT, { input: { name } }, { apiKey: org.owner.apiKey });
      expect(code(refused), JSON.stringify(name)).toBe("BAD_USER_INPUT");
    }
    // A name typed precomposed or decomposed is one name (stored in Unicode normalization form C).
    const precomposed = await gql<{ createProject: { name: string } }>(
      t.skiff.url,
      CREATE_PROJECT,
      { input: { name: "caf\u00e9" } },
      { apiKey: org.owner.apiKey },
    );
    expect(precomposed.data?.createProject.name).toBe("caf\u00e9");
    const decomposed = await gql(
      t.skiff.url,
      CREATE_PROJECT,
      { input: { name: "cafe\u0301" } },
      {
        apiKey: org.owner.apiKey,
      },
    );
    expect(code(decomposed)).toBe("CONFLICT");
    // Joiners that scripts and emoji need stay.
    const joined = await gql<{ createProject: { name: string } }>(
      t.skiff.url,
      CREATE_PROJECT,
      { input: { name: "\u{1F468}\u200d\u{1F469}\u200d\u{1F467} \u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645" } },
      { apiKey: org.owner.apiKey },
    );
    expect(joined.errors).toBeUndefined();
  });

  it("answers one of concurrent deletes of a project; the others find it gone (NOT_FOUND)", async () => {
    const org = await createOrg(t.db.knex);
    const [project] = await createProjects(t.db.knex, org.organizationId, 1);
    const DELETE = `mutation($id: ID!) { deleteProject(id: $id) }`;
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => gql(t.skiff.url, DELETE, { id: project }, { apiKey: org.owner.apiKey })),
    );
    expect(answers.filter((a) => a.data?.deleteProject === project)).toHaveLength(1);
    expect(answers.filter((a) => code(a) === "NOT_FOUND")).toHaveLength(3);
    // One change, one `ok` entry in the audit log; the calls that found it gone are refused.
    const entries = await t.db
      .knex("audit_events")
      .where({ action: "deleteProject" })
      .whereRaw("? = any(target_ids)", [project])
      .pluck("outcome");
    expect(entries.sort()).toEqual(["ok", "refused", "refused", "refused"]);
  });
});

describe("projects as a connection", () => {
  it("pages every visible project once, in order, with the same total on every page", async () => {
    const org = await createOrg(t.db.knex);
    const ids = await createProjects(t.db.knex, org.organizationId, 7);
    const { ids: seen, totals } = await allPages(org.owner.apiKey, 3);
    expect(seen).toEqual([...ids].sort());
    expect(totals).toEqual([7, 7, 7]);
    expect(code(await gql(t.skiff.url, PAGE, { first: 0 }, { apiKey: org.owner.apiKey }))).toBe("BAD_USER_INPUT");
    expect(code(await gql(t.skiff.url, PAGE, { first: 101 }, { apiKey: org.owner.apiKey }))).toBe("BAD_USER_INPUT");
    expect(code(await gql(t.skiff.url, PAGE, { after: "not-a-cursor" }, { apiKey: org.owner.apiKey }))).toBe(
      "BAD_USER_INPUT",
    );
  });

  it("shows a member limited by grants only its granted projects; another organization's project is NOT_FOUND", async () => {
    const org = await createOrg(t.db.knex);
    const [granted, other, third] = await createProjects(t.db.knex, org.organizationId, 3);
    const limited = await addMember(t.db.knex, org.organizationId, "member", { projectIds: [granted!] });
    const { ids, totals } = await allPages(limited.apiKey, 1);
    expect(ids).toEqual([granted]);
    expect(totals).toEqual([1]);
    const ONE = `query($id: ID!) { project(id: $id) { id } }`;
    expect((await gql(t.skiff.url, ONE, { id: granted }, { apiKey: limited.apiKey })).data).toEqual({
      project: { id: granted },
    });
    expect(code(await gql(t.skiff.url, ONE, { id: other }, { apiKey: limited.apiKey }))).toBe("NOT_FOUND");

    const stranger = await createOrg(t.db.knex);
    expect(code(await gql(t.skiff.url, ONE, { id: third }, { apiKey: stranger.owner.apiKey }))).toBe("NOT_FOUND");
    const DELETE = `mutation($id: ID!) { deleteProject(id: $id) }`;
    expect(code(await gql(t.skiff.url, DELETE, { id: third }, { apiKey: stranger.owner.apiKey }))).toBe("NOT_FOUND");
    expect(await t.db.knex("projects").where({ id: third }).first()).toBeDefined();
  });
});
