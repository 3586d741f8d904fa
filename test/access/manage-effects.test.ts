/**
 * What each management mutation does to reads, for each kind of caller — a differential test against an oracle that
 * does not share Skiff's read code (plain SQL over the tables, values decrypted here). For every mutation of
 * schema/applications.graphql (enumerated from the SDL: a new mutation without a case fails) and every caller kind
 * (owner by API key and by session, admin, member granted the project, member not granted, another organization's
 * owner, agent token), on a fresh project:
 * - the call answers the role table's outcome (ok / FORBIDDEN / NOT_FOUND / UNAUTHENTICATED);
 * - afterwards the project as read through GraphQL is the project as the rows say (oracle), and it changed exactly
 *   when the call succeeded (a refused call has no effect);
 * - after a successful call, every reader kind reads the new state as the oracle says where it sees the project,
 *   NOT_FOUND (the same answer as for a nonexistent id) where it does not, UNAUTHENTICATED for agent tokens.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { newId } from "../../src/db/ids.ts";
import { createSecretBox } from "../../src/db/secrets.ts";
import { managementMutations } from "../helpers/management-mutations.ts";
import {
  addMember,
  createAgentTokenFor,
  createOrg,
  createProjects,
  createRegistry,
  TEST_SECRET,
} from "../helpers/seed.ts";
import { type GqlResponse, gql, useTestServer } from "../helpers/server.ts";
import { sessionFor } from "../helpers/session.ts";

const t = useTestServer({ SKIFF_WORKER: "false" });
const box = createSecretBox(TEST_SECRET);

/** The kinds of caller, in the order they are run. */
const CALLERS = ["ownerKey", "ownerSession", "admin", "granted", "notGranted", "otherOwner", "agentToken"] as const;
type CallerKind = (typeof CALLERS)[number];
type Auth = { apiKey?: string; cookie?: string };

/** The outcome of a management mutation per caller kind (spec role table; agent tokens are for the agent API). */
const OUTCOME: Record<CallerKind, string> = {
  ownerKey: "ok",
  ownerSession: "ok",
  admin: "ok",
  granted: "FORBIDDEN",
  notGranted: "NOT_FOUND",
  otherOwner: "NOT_FOUND",
  agentToken: "UNAUTHENTICATED",
};

/** A fresh project of organization A (granted to the `granted` member) and the targets the cases act on. */
interface World {
  projectId: string;
  environmentId: string;
  emptyEnvironmentId: string;
  applicationId: string;
  domainId: string;
  host: string;
  databaseId: string;
}

/** One mutation's case: its document and variables on a fresh world. */
interface Case {
  operation: string;
  variables(w: World): Record<string, unknown>;
}

const CASES: Record<string, Case> = {
  createApplication: {
    operation: "mutation($i: CreateApplicationInput!) { createApplication(input: $i) { id } }",
    variables: (w) => ({
      i: { environmentId: w.environmentId, name: "made", source: { type: "docker", dockerImage: "nginx:1" } },
    }),
  },
  updateApplication: {
    operation: 'mutation($id: ID!) { updateApplication(id: $id, input: { port: 8081, name: "renamed" }) { id } }',
    variables: (w) => ({ id: w.applicationId }),
  },
  deleteApplication: {
    operation: "mutation($id: ID!) { deleteApplication(id: $id) }",
    variables: (w) => ({ id: w.applicationId }),
  },
  setEnvironmentVariable: {
    operation: 'mutation($a: ID!) { setEnvironmentVariable(applicationId: $a, key: "NEW", value: "v") { id } }',
    variables: (w) => ({ a: w.applicationId }),
  },
  setEnvironmentVariables: {
    operation:
      'mutation($a: ID!) { setEnvironmentVariables(applicationId: $a, dotenv: "A=1\\nEXISTING=changed") { setKeys } }',
    variables: (w) => ({ a: w.applicationId }),
  },
  unsetEnvironmentVariable: {
    operation: 'mutation($a: ID!) { unsetEnvironmentVariable(applicationId: $a, key: "EXISTING") { id } }',
    variables: (w) => ({ a: w.applicationId }),
  },
  createDatabase: {
    operation: "mutation($i: CreateDatabaseInput!) { createDatabase(input: $i) { database { id } } }",
    variables: (w) => ({
      i: { environmentId: w.environmentId, type: "mysql", name: "made", user: "u", applicationIds: [w.applicationId] },
    }),
  },
  rotateDatabasePassword: {
    operation: "mutation($id: ID!) { rotateDatabasePassword(id: $id) { database { id } } }",
    variables: (w) => ({ id: w.databaseId }),
  },
  deleteDatabase: {
    operation: "mutation($id: ID!) { deleteDatabase(id: $id) { id } }",
    variables: (w) => ({ id: w.databaseId }),
  },
  addDomain: {
    operation: "mutation($i: AddDomainInput!) { addDomain(input: $i) { id } }",
    variables: (w) => ({ i: { applicationId: w.applicationId, host: `new-${w.host}` } }),
  },
  updateDomain: {
    operation: "mutation($id: ID!) { updateDomain(id: $id, input: { port: 8443, https: false }) { id } }",
    variables: (w) => ({ id: w.domainId }),
  },
  removeDomain: {
    operation: "mutation($a: ID!, $h: String!) { removeDomain(applicationId: $a, host: $h) { id } }",
    variables: (w) => ({ a: w.applicationId, h: w.host }),
  },
  createEnvironment: {
    operation: 'mutation($p: ID!) { createEnvironment(projectId: $p, name: "made") { id } }',
    variables: (w) => ({ p: w.projectId }),
  },
  renameEnvironment: {
    operation: 'mutation($id: ID!) { renameEnvironment(id: $id, name: "renamed") { id } }',
    variables: (w) => ({ id: w.emptyEnvironmentId }),
  },
  deleteEnvironment: {
    operation: "mutation($id: ID!) { deleteEnvironment(id: $id) }",
    variables: (w) => ({ id: w.emptyEnvironmentId }),
  },
};

const READ = `query($id: ID!) { project(id: $id) { id environments { id name
  applications { id name port needsDeployment sourceType source { type dockerImage }
    domains { id host port https } environmentVariables { key value } }
  databases { id name type user serviceHost } } } }`;

// biome-ignore lint/suspicious/noExplicitAny: snapshots are compared structurally.
type Snapshot = any;

/** `rows` sorted by `id` (or `key`), so that order rules do not enter the comparison. */
function sorted<T extends { id?: string; key?: string }>(rows: T[]): T[] {
  return [...rows].sort((a, b) => String(a.id ?? a.key).localeCompare(String(b.id ?? b.key)));
}

/** A read answer's project, arrays sorted. */
function normalize(project: Snapshot): Snapshot {
  if (!project) return project;
  return {
    id: project.id,
    environments: sorted(project.environments).map((e: Snapshot) => ({
      ...e,
      applications: sorted(e.applications).map((a: Snapshot) => ({
        ...a,
        domains: sorted(a.domains),
        environmentVariables: sorted(a.environmentVariables),
      })),
      databases: sorted(e.databases),
    })),
  };
}

/** The oracle: project `projectId` as its rows say, in the read's shape (plain SQL, values decrypted here). */
async function oracle(projectId: string): Promise<Snapshot> {
  const k = t.db.knex;
  const envs = await k("environments").where({ project_id: projectId });
  const apps = await k("applications").where({ project_id: projectId });
  const appIds = apps.map((a) => a.id);
  const domains = await k("domains").whereIn("application_id", appIds);
  const vars = await k("environment_variables").whereIn("application_id", appIds);
  const dbs = await k("databases").where({ project_id: projectId });
  return normalize({
    id: projectId,
    environments: envs.map((e) => ({
      id: e.id,
      name: e.name,
      applications: apps
        .filter((a) => a.environmentId === e.id)
        .map((a) => ({
          id: a.id,
          name: a.name,
          port: a.port,
          needsDeployment: a.needsDeployment,
          sourceType: a.sourceType,
          source: { type: a.sourceType, dockerImage: a.source?.dockerImage ?? null },
          domains: domains
            .filter((d) => d.applicationId === a.id)
            .map((d) => ({ id: d.id, host: d.host, port: d.port, https: d.https })),
          environmentVariables: vars
            .filter((v) => v.applicationId === a.id)
            .map((v) => ({ key: v.key, value: box.decrypt(v.valueEncrypted) })),
        })),
      databases: dbs
        .filter((d) => d.environmentId === e.id)
        .map((d) => ({ id: d.id, name: d.name, type: d.type, user: d.username, serviceHost: d.serviceHost })),
    })),
  });
}

const outcomeOf = (res: GqlResponse) => String(res.errors?.[0]?.extensions?.code ?? "ok");

describe("management mutations: effect on reads per caller kind", () => {
  const auth = {} as Record<CallerKind, Auth>;
  let orgA = "";
  let grantedMemberId = "";

  beforeAll(async () => {
    const a = await createOrg(t.db.knex);
    const b = await createOrg(t.db.knex);
    orgA = a.organizationId;
    await createRegistry(t.db.knex, orgA);
    const [other] = await createProjects(t.db.knex, orgA, 1);
    const admin = await addMember(t.db.knex, orgA, "admin");
    const granted = await addMember(t.db.knex, orgA, "member");
    const notGranted = await addMember(t.db.knex, orgA, "member", { projectIds: [other!] });
    grantedMemberId = granted.memberId;
    auth.ownerKey = { apiKey: a.owner.apiKey };
    auth.ownerSession = { cookie: await sessionFor(t.db.knex, t.skiff.url, a.owner) };
    auth.admin = { apiKey: admin.apiKey };
    auth.granted = { apiKey: granted.apiKey };
    auth.notGranted = { apiKey: notGranted.apiKey };
    auth.otherOwner = { apiKey: b.owner.apiKey };
    auth.agentToken = { apiKey: await createAgentTokenFor(t.db.knex, orgA, a.owner) };
  });

  /** A fresh project: `production` with an application (a domain, a variable, a database's variables), an empty `spare`. */
  async function world(): Promise<World> {
    const k = t.db.knex;
    const [projectId] = await createProjects(k, orgA, 1, { environments: 2, applicationsPerEnvironment: 0 });
    await k("member_grants").insert({ id: newId("grant"), member_id: grantedMemberId, project_id: projectId });
    const envs = await k("environments").where({ project_id: projectId }).orderBy("name");
    const environmentId = envs.find((e) => e.name === "production").id as string;
    const emptyEnvironmentId = envs.find((e) => e.name !== "production").id as string;
    const applicationId = newId("application");
    const suffix = applicationId.slice(-10);
    await k("applications").insert({
      id: applicationId,
      organization_id: orgA,
      project_id: projectId,
      environment_id: environmentId,
      name: "app",
      app_name: `app-${suffix}`,
      source_type: "docker",
      source: JSON.stringify({ dockerImage: "nginx:1.27" }),
      build_type: "dockerfile",
    });
    const domainId = newId("domain");
    const host = `d-${suffix}.example.test`;
    await k("domains").insert({
      id: domainId,
      organization_id: orgA,
      application_id: applicationId,
      host,
      https: true,
    });
    const databaseId = newId("database");
    const serviceHost = `app-${suffix}-db.svc.cluster.local`;
    await k("databases").insert({
      id: databaseId,
      organization_id: orgA,
      project_id: projectId,
      environment_id: environmentId,
      type: "mysql",
      name: "db",
      username: "u",
      password_encrypted: box.encrypt("p"),
      service_host: serviceHost,
    });
    const vars = { EXISTING: "1", DB_HOST: serviceHost, DB_DATABASE: "db", DB_USERNAME: "u", DB_PASSWORD: "p" };
    await k("environment_variables").insert(
      Object.entries(vars).map(([key, value]) => ({
        id: newId("envVar"),
        application_id: applicationId,
        key,
        value_encrypted: box.encrypt(value),
      })),
    );
    return { projectId: projectId!, environmentId, emptyEnvironmentId, applicationId, domainId, host, databaseId };
  }

  /** The project as `reader` reads it: its normalized snapshot, or the error code. */
  async function read(projectId: string, reader: Auth): Promise<{ outcome: string; project: Snapshot; body: string }> {
    const res = await gql<{ project: Snapshot }>(t.skiff.url, READ, { id: projectId }, reader);
    return { outcome: outcomeOf(res), project: normalize(res.data?.project), body: JSON.stringify(res.errors ?? []) };
  }

  it("has a case for every management mutation of the schema, and none for a mutation that does not exist", () => {
    expect(Object.keys(CASES).sort()).toEqual(managementMutations().sort());
  });

  for (const mutation of managementMutations()) {
    it(mutation, { timeout: 120_000 }, async () => {
      const c = CASES[mutation];
      expect(c, `no case for ${mutation}`).toBeDefined();
      const problems: string[] = [];
      for (const caller of CALLERS) {
        const w = await world();
        const before = await read(w.projectId, auth.ownerKey);
        expect(before.project, "the world reads as its rows").toEqual(await oracle(w.projectId));
        const res = await gql(t.skiff.url, c!.operation, c!.variables(w), auth[caller]);
        const outcome = outcomeOf(res);
        if (outcome !== OUTCOME[caller]) problems.push(`${caller}: expected ${OUTCOME[caller]}, got ${outcome}`);
        const after = await read(w.projectId, auth.ownerKey);
        const rows = await oracle(w.projectId);
        if (JSON.stringify(after.project) !== JSON.stringify(rows)) {
          problems.push(
            `${caller}: the read differs from the rows:\n  ${JSON.stringify(after.project)}\n  ${JSON.stringify(rows)}`,
          );
        }
        const changed = JSON.stringify(after.project) !== JSON.stringify(before.project);
        if (changed !== (outcome === "ok")) {
          problems.push(`${caller}: ${outcome} but the project ${changed ? "changed" : "did not change"}`);
        }
        if (outcome !== "ok") continue;
        // Every reader kind reads the new state as it may see it.
        for (const reader of CALLERS) {
          const seen = await read(w.projectId, auth[reader]);
          const sees = ["ownerKey", "ownerSession", "admin", "granted"].includes(reader);
          if (sees && JSON.stringify(seen.project) !== JSON.stringify(rows)) {
            problems.push(`${caller} → ${reader} reads ${seen.outcome} ${JSON.stringify(seen.project)}`);
          }
          if (!sees) {
            const expected = reader === "agentToken" ? "UNAUTHENTICATED" : "NOT_FOUND";
            const missing = `prj_${"0".repeat(w.projectId.length - 4)}`;
            const twin = await read(missing, auth[reader]);
            if (
              seen.outcome !== expected ||
              seen.body.replaceAll(w.projectId, "<id>") !== twin.body.replaceAll(missing, "<id>")
            ) {
              problems.push(`${caller} → ${reader}: ${seen.outcome} ${seen.body} (a missing project: ${twin.body})`);
            }
          }
        }
      }
      expect(problems).toEqual([]);
    });
  }
});
