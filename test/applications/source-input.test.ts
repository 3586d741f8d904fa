/**
 * An application's source as createApplication and updateApplication take it, over real HTTP against a real server
 * and PostgreSQL: fields of another source type are refused under their own name (never dropped), and docker images
 * are checked with the distribution reference grammar (lowercase repository path, tag of at most 128 characters,
 * `sha256:` digest of 64 hex digits) while every valid reference — registry with port, `library/nginx`, tag with
 * digest — is still accepted.
 */
import { describe, expect, it } from "vitest";
import { createOrg, createProjects, createRegistry } from "../helpers/seed.ts";
import { type GqlResponse, gql, useTestServer } from "../helpers/server.ts";

const t = useTestServer();

const CREATE = `mutation($i: CreateApplicationInput!) { createApplication(input: $i) { id source { dockerImage branch } } }`;
const UPDATE = `mutation($id: ID!, $i: UpdateApplicationInput!) { updateApplication(id: $id, input: $i) { id source { branch buildPath } } }`;

/** An owner's organization with a registry and an empty environment; a GraphQL caller. */
async function world() {
  const org = await createOrg(t.db.knex);
  await createRegistry(t.db.knex, org.organizationId);
  const [projectId] = await createProjects(t.db.knex, org.organizationId, 1, { applicationsPerEnvironment: 0 });
  const env = await t.db.knex("environments").where({ project_id: projectId }).first("id");
  // biome-ignore lint/suspicious/noExplicitAny: answers are checked by assertions, not by types.
  const call = (query: string, variables: Record<string, unknown>): Promise<GqlResponse<any>> =>
    gql(t.skiff.url, query, variables, { apiKey: org.owner.apiKey });
  const create = (source: Record<string, unknown>, name = "app") =>
    call(CREATE, { i: { environmentId: env.id, name, source } });
  return { org, environmentId: env.id as string, call, create };
}

/** The `fieldErrors` of a BAD_USER_INPUT answer (fails the test on any other answer). */
function fieldErrorsOf(res: GqlResponse): Record<string, string[]> {
  expect(res.errors?.[0]?.extensions?.code, JSON.stringify(res.errors ?? res.data)).toBe("BAD_USER_INPUT");
  return res.errors![0]!.extensions!.fieldErrors as Record<string, string[]>;
}

const BUILD_ONLY = "Only used by github, gitlab or git sources";

describe("source fields of another source type", () => {
  it("createApplication refuses branch and buildPath on a docker source, naming each", async () => {
    const w = await world();
    const res = await w.create({ type: "docker", dockerImage: "nginx", branch: "x", buildPath: "/x" });
    expect(fieldErrorsOf(res)).toEqual({ "source.branch": [BUILD_ONLY], "source.buildPath": [BUILD_ONLY] });
    expect(await t.db.knex("applications").where({ environment_id: w.environmentId })).toEqual([]);
  });

  it("updateApplication refuses branch and buildPath on a docker application and changes nothing", async () => {
    const w = await world();
    const created = await w.create({ type: "docker", dockerImage: "nginx:1.27" });
    const id = created.data.createApplication.id as string;
    for (const [field, value] of [
      ["branch", "release"],
      ["buildPath", "/app"],
    ]) {
      expect(fieldErrorsOf(await w.call(UPDATE, { id, i: { [field]: value } }))).toEqual({ [field]: [BUILD_ONLY] });
    }
    const row = await t.db.knex("applications").where({ id }).first("source", "needs_deployment");
    expect(row.source).toEqual({ dockerImage: "nginx:1.27" });
    // A git application takes them.
    const git = await w.create({ type: "git", customGitUrl: "https://git.example.test/a/b.git" }, "git");
    const updated = await w.call(UPDATE, {
      id: git.data.createApplication.id,
      i: { branch: "release", buildPath: "/app" },
    });
    expect(updated.data?.updateApplication.source).toEqual({ branch: "release", buildPath: "/app" });
  });

  it("updateApplication refuses a source field given beside a whole source, naming it, and changes nothing", async () => {
    const w = await world();
    const created = await w.create({ type: "docker", dockerImage: "nginx:1.27" });
    const id = created.data.createApplication.id as string;
    const both = await w.call(UPDATE, {
      id,
      i: { source: { type: "docker", dockerImage: "nginx:1.29" }, dockerImage: "nginx:1.30" },
    });
    expect(fieldErrorsOf(both)).toEqual({ dockerImage: [expect.stringContaining("Given with source")] });
    expect((await t.db.knex("applications").where({ id }).first("source")).source).toEqual({
      dockerImage: "nginx:1.27",
    });
  });
});

describe("docker image references", () => {
  it("refuses what the distribution grammar refuses, under source.dockerImage / dockerImage", async () => {
    const w = await world();
    const bad = [
      "UPPER/case",
      "Nginx:1.27",
      "nginx:latest@sha256:abc",
      `nginx@sha256:${"A".repeat(64)}`,
      `nginx:${"a".repeat(129)}`,
      "nginx:.hidden",
      "nginx::1",
      "nginx/",
      "-nginx",
    ];
    for (const image of bad) {
      expect(
        fieldErrorsOf(await w.create({ type: "docker", dockerImage: image }))["source.dockerImage"],
        image,
      ).toHaveLength(1);
    }
    const app = await w.create({ type: "docker", dockerImage: "nginx:1.27" }, "patched");
    const patched = await w.call(UPDATE, {
      id: app.data.createApplication.id,
      i: { dockerImage: "ghcr.io/Org/app:1" },
    });
    expect(fieldErrorsOf(patched).dockerImage).toHaveLength(1);
  });

  it("accepts every valid reference: registry with port, library/nginx, tags, tag with digest", async () => {
    const w = await world();
    const digest = `sha256:${"0123456789abcdef".repeat(4)}`;
    const good = [
      "nginx",
      "nginx:1.27",
      "library/nginx",
      "ghcr.io/org/app:1.2",
      "registry.example.test:5000/team/app:v1",
      "localhost:5000/app",
      "Registry.Example.test/app_name/sub-path:Tag_1.x-y",
      `nginx:${"a".repeat(128)}`,
      `nginx@${digest}`,
      `ghcr.io/org/app:1.2@${digest}`,
    ];
    for (const [i, image] of good.entries()) {
      const res = await w.create({ type: "docker", dockerImage: image }, `ok${i}`);
      expect(res.errors, image).toBeUndefined();
      expect(res.data.createApplication.source.dockerImage).toBe(image);
    }
  });
});
