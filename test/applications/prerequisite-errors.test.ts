/**
 * The prerequisites of createApplication and updateApplication (spec: "Prerequisites outside the request"), over
 * real HTTP against a real server and PostgreSQL: a git provider or SSH key that is not the organization's answers
 * BAD_USER_INPUT with `fieldErrors` under the source field naming it; a missing container registry is a form error.
 */
import { describe, expect, it } from "vitest";
import { createGitProvider, createOrg, createProjects, createRegistry, createSshKey } from "../helpers/seed.ts";
import { type GqlResponse, gql, useTestServer } from "../helpers/server.ts";

const t = useTestServer();

const CREATE = "mutation($i: CreateApplicationInput!) { createApplication(input: $i) { id } }";
const UPDATE = "mutation($id: ID!, $i: UpdateApplicationInput!) { updateApplication(id: $id, input: $i) { id } }";

/** An owner's organization (with a registry unless `registry` is false) and an empty environment. */
async function world(registry = true) {
  const org = await createOrg(t.db.knex);
  if (registry) await createRegistry(t.db.knex, org.organizationId);
  const [projectId] = await createProjects(t.db.knex, org.organizationId, 1, { applicationsPerEnvironment: 0 });
  const env = await t.db.knex("environments").where({ project_id: projectId }).first("id");
  const call = (query: string, variables: Record<string, unknown>) =>
    gql<{ createApplication: { id: string } }>(t.skiff.url, query, variables, { apiKey: org.owner.apiKey });
  const create = (source: Record<string, unknown>) =>
    call(CREATE, { i: { environmentId: env.id, name: "app", source } });
  return { org, call, create };
}

/** The BAD_USER_INPUT extensions of `res` (fails the test on any other answer). */
function badInput(res: GqlResponse) {
  expect(res.errors?.[0]?.extensions?.code, JSON.stringify(res.errors ?? res.data)).toBe("BAD_USER_INPUT");
  return res.errors![0]!.extensions as { fieldErrors: Record<string, string[]>; formErrors: string[] };
}

describe("prerequisite errors", () => {
  it("name the source field of another organization's SSH key or git provider, or a provider of the wrong kind", async () => {
    const w = await world();
    const other = await createOrg(t.db.knex);
    const foreignKey = await createSshKey(t.db.knex, other.organizationId);
    const foreignGithub = await createGitProvider(t.db.knex, other.organizationId, "github");
    const ownGitlab = await createGitProvider(t.db.knex, w.org.organizationId, "gitlab");
    const git = { type: "git", customGitUrl: "git@git.example.test:a/b.git" };
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [
        { ...git, customGitSSHKeyId: foreignKey },
        "source.customGitSSHKeyId",
        `SSH key ${foreignKey} is not stored in this organization (source.customGitSSHKeyId)`,
      ],
      [
        { type: "github", repo: "a/b", githubId: foreignGithub },
        "source.githubId",
        `GitHub provider ${foreignGithub} is not configured in this organization (source.githubId)`,
      ],
      [
        { type: "github", repo: "a/b", githubId: ownGitlab },
        "source.githubId",
        `Git provider ${ownGitlab} is a GitLab provider; source.githubId needs a GitHub provider`,
      ],
    ];
    for (const [source, field, message] of cases) {
      const ext = badInput(await w.create(source));
      expect(ext.fieldErrors, field).toEqual({ [field]: [message] });
      expect(ext.formErrors).toEqual([]);
    }
    // updateApplication's new source is checked the same way.
    const app = await w.create(git);
    expect(app.errors).toBeUndefined();
    const updated = badInput(
      await w.call(UPDATE, {
        id: app.data!.createApplication.id,
        i: { source: { ...git, customGitSSHKeyId: foreignKey } },
      }),
    );
    expect(Object.keys(updated.fieldErrors)).toEqual(["source.customGitSSHKeyId"]);
  });

  it("a missing container registry is a form error", async () => {
    const w = await world(false);
    const ext = badInput(await w.create({ type: "docker", dockerImage: "nginx:1.27" }));
    expect(ext.fieldErrors).toEqual({});
    expect(ext.formErrors).toEqual([expect.stringMatching(/^No container registry/)]);
  });
});
