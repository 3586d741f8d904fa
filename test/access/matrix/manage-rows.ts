/**
 * Isolation-matrix rows of the management mutations (schema/applications.graphql): owners and admins manage
 * environments, applications, variables, databases and domains; a member granted the project sees them but may
 * not change them (FORBIDDEN: members view and deploy only); a member not granted and the owner of B get NOT_FOUND,
 * exactly as for a nonexistent id; invalid credentials UNAUTHENTICATED. Targets that a cell consumes (deletions,
 * renames) are fresh rows of project P inserted per cell. The same rows on the procedure surface
 * (`POST /api/<object>.<action>`) answer 200 / 403 / 404 / 401 alike.
 */
import { newId } from "../../../src/db/ids.ts";
import { createSecretBox } from "../../../src/db/secrets.ts";
import { TEST_SECRET } from "../../helpers/seed.ts";
import type { Fixture, Persona } from "./fixture.ts";
import type { GraphqlRow, Outcome } from "./graphql-rows.ts";
import type { RestRow, StatusExpectation } from "./rest-rows.ts";

const box = createSecretBox(TEST_SECRET);
const U = "UNAUTHENTICATED" as const;

/** Owners and admins: ok; a granted member FORBIDDEN; others NOT_FOUND; bad credentials UNAUTHENTICATED. */
export const MANAGE_OUTCOMES: Record<Persona, Outcome> = {
  owner: "ok",
  admin: "ok",
  granted: "FORBIDDEN",
  notGranted: "NOT_FOUND",
  otherOwner: "NOT_FOUND",
  revokedKey: U,
  anonymous: U,
  agentToken: U,
};

/** The `production` environment of project P. */
async function environmentP(fx: Fixture): Promise<string> {
  return (await fx.knex("environments").where({ project_id: fx.projectP }).orderBy("created_at").first("id")).id;
}

/** A fresh docker application in P's environment. */
async function newApplication(fx: Fixture): Promise<string> {
  const id = newId("application");
  await fx.knex("applications").insert({
    id,
    organization_id: fx.orgA,
    project_id: fx.projectP,
    environment_id: await environmentP(fx),
    name: `m-${fx.unique()}`,
    app_name: `m-${fx.unique()}${fx.unique()}`,
    source_type: "docker",
    source: JSON.stringify({ dockerImage: "nginx:1.27" }),
    build_type: "dockerfile",
  });
  return id;
}

/** A fresh postgres database in P's environment. */
async function newDatabase(fx: Fixture): Promise<string> {
  const id = newId("database");
  await fx.knex("databases").insert({
    id,
    organization_id: fx.orgA,
    project_id: fx.projectP,
    environment_id: await environmentP(fx),
    type: "postgres",
    name: `db-${fx.unique()}`,
    username: "u",
    password_encrypted: box.encrypt("p"),
    service_host: `m-${fx.unique()}${fx.unique()}-db.svc.cluster.local`,
  });
  return id;
}

/** A fresh domain of application P. */
async function newDomain(fx: Fixture): Promise<string> {
  const id = newId("domain");
  await fx.knex("domains").insert({
    id,
    organization_id: fx.orgA,
    application_id: fx.applicationP,
    host: `m${fx.unique()}.example.test`,
    https: true,
  });
  return id;
}

/** A fresh empty environment of P. */
async function newEnvironment(fx: Fixture): Promise<string> {
  const id = newId("environment");
  await fx.knex("environments").insert({ id, project_id: fx.projectP, name: `e-${fx.unique()}` });
  return id;
}

const row = (field: string, operation: string, variables: GraphqlRow["variables"], target: string[]): GraphqlRow => ({
  field: `Mutation.${field}`,
  operation,
  variables,
  target,
  expect: MANAGE_OUTCOMES,
});

/** Every management mutation's row. */
export const manageGraphqlRows: GraphqlRow[] = [
  row(
    "createApplication",
    "mutation($i: CreateApplicationInput!) { createApplication(input: $i) { id } }",
    async (fx) => ({
      i: {
        environmentId: await environmentP(fx),
        name: `m-${fx.unique()}`,
        source: { type: "docker", dockerImage: "nginx:1.27" },
      },
    }),
    ["i", "environmentId"],
  ),
  row(
    "updateApplication",
    "mutation($id: ID!) { updateApplication(id: $id, input: { port: 8080 }) { id port } }",
    async (fx) => ({ id: await newApplication(fx) }),
    ["id"],
  ),
  row(
    "deleteApplication",
    "mutation($id: ID!) { deleteApplication(id: $id) }",
    async (fx) => ({ id: await newApplication(fx) }),
    ["id"],
  ),
  row(
    "setEnvironmentVariable",
    'mutation($a: ID!) { setEnvironmentVariable(applicationId: $a, key: "MATRIX", value: "1") { id } }',
    (fx) => ({ a: fx.applicationP }),
    ["a"],
  ),
  row(
    "setEnvironmentVariables",
    'mutation($a: ID!) { setEnvironmentVariables(applicationId: $a, dotenv: "MATRIX_A=1\\nMATRIX_B=2") { setKeys } }',
    (fx) => ({ a: fx.applicationP }),
    ["a"],
  ),
  row(
    "unsetEnvironmentVariable",
    'mutation($a: ID!) { unsetEnvironmentVariable(applicationId: $a, key: "MATRIX") { id } }',
    (fx) => ({ a: fx.applicationP }),
    ["a"],
  ),
  row(
    "createDatabase",
    "mutation($i: CreateDatabaseInput!) { createDatabase(input: $i) { database { id } } }",
    async (fx) => ({
      i: { environmentId: await environmentP(fx), type: "mysql", name: `m-${fx.unique()}`, user: "m" },
    }),
    ["i", "environmentId"],
  ),
  row(
    "rotateDatabasePassword",
    "mutation($id: ID!) { rotateDatabasePassword(id: $id) { database { id } } }",
    async (fx) => ({ id: await newDatabase(fx) }),
    ["id"],
  ),
  row(
    "deleteDatabase",
    "mutation($id: ID!) { deleteDatabase(id: $id) { id } }",
    async (fx) => ({ id: await newDatabase(fx) }),
    ["id"],
  ),
  row(
    "addDomain",
    "mutation($i: AddDomainInput!) { addDomain(input: $i) { id } }",
    (fx) => ({ i: { applicationId: fx.applicationP, host: `m${fx.unique()}.example.test` } }),
    ["i", "applicationId"],
  ),
  row(
    "updateDomain",
    "mutation($id: ID!) { updateDomain(id: $id, input: { port: 8080 }) { id port } }",
    async (fx) => ({ id: await newDomain(fx) }),
    ["id"],
  ),
  row(
    "removeDomain",
    "mutation($a: ID!, $h: String!) { removeDomain(applicationId: $a, host: $h) { id } }",
    async (fx) => {
      const id = await newDomain(fx);
      const { host } = await fx.knex("domains").where({ id }).first("host");
      return { a: fx.applicationP, h: host };
    },
    ["a"],
  ),
  row(
    "createEnvironment",
    "mutation($p: ID!, $n: String!) { createEnvironment(projectId: $p, name: $n) { id } }",
    (fx) => ({ p: fx.projectP, n: `e-${fx.unique()}` }),
    ["p"],
  ),
  row(
    "renameEnvironment",
    "mutation($id: ID!, $n: String!) { renameEnvironment(id: $id, name: $n) { id name } }",
    async (fx) => ({ id: await newEnvironment(fx), n: `r-${fx.unique()}` }),
    ["id"],
  ),
  row(
    "deleteEnvironment",
    "mutation($id: ID!) { deleteEnvironment(id: $id) }",
    async (fx) => ({ id: await newEnvironment(fx) }),
    ["id"],
  ),
];

/** Management procedures: 200 for owners and admins, as the GraphQL rows otherwise (agent tokens 401). */
const MANAGE_STATUSES: StatusExpectation = {
  owner: 200,
  admin: 200,
  granted: 403,
  notGranted: 404,
  otherOwner: 404,
  revokedKey: 401,
  anonymous: 401,
  agentToken: 401,
};

/** The row of procedure `name` (`POST /api/<name>`); `target` names the body field holding the target id. */
const procedure = (
  name: string,
  body: (fx: Fixture) => Promise<Record<string, unknown>> | Record<string, unknown>,
  target: string,
): RestRow => ({
  route: `POST /api/${name}`,
  call: async (fx) => {
    const b = await body(fx);
    return { url: `/api/${name}`, body: b, target: b[target] as string };
  },
  expect: MANAGE_STATUSES,
});

/** Every management procedure's row (src/modules/applications/manage.rest.ts). */
export const manageRestRows: RestRow[] = [
  procedure(
    "application.create",
    async (fx) => ({
      environmentId: await environmentP(fx),
      name: `m-${fx.unique()}`,
      source: { type: "docker", dockerImage: "nginx:1.27" },
    }),
    "environmentId",
  ),
  procedure(
    "application.update",
    async (fx) => ({ applicationId: await newApplication(fx), port: 8080 }),
    "applicationId",
  ),
  procedure("application.delete", async (fx) => ({ applicationId: await newApplication(fx) }), "applicationId"),
  procedure("variables.set", (fx) => ({ applicationId: fx.applicationP, key: "MATRIX", value: "1" }), "applicationId"),
  procedure("variables.setMany", (fx) => ({ applicationId: fx.applicationP, dotenv: "MATRIX_A=1" }), "applicationId"),
  procedure("variables.unset", (fx) => ({ applicationId: fx.applicationP, key: "MATRIX" }), "applicationId"),
  procedure(
    "database.create",
    async (fx) => ({ environmentId: await environmentP(fx), type: "mysql", name: `m-${fx.unique()}`, user: "m" }),
    "environmentId",
  ),
  procedure("database.rotatePassword", async (fx) => ({ databaseId: await newDatabase(fx) }), "databaseId"),
  procedure("database.delete", async (fx) => ({ databaseId: await newDatabase(fx) }), "databaseId"),
  procedure(
    "domain.add",
    (fx) => ({ applicationId: fx.applicationP, host: `m${fx.unique()}.example.test` }),
    "applicationId",
  ),
  procedure("domain.update", async (fx) => ({ domainId: await newDomain(fx), port: 8080 }), "domainId"),
  procedure(
    "domain.remove",
    async (fx) => {
      const id = await newDomain(fx);
      const { host } = await fx.knex("domains").where({ id }).first("host");
      return { applicationId: fx.applicationP, host };
    },
    "applicationId",
  ),
  procedure("environment.create", (fx) => ({ projectId: fx.projectP, name: `e-${fx.unique()}` }), "projectId"),
  procedure(
    "environment.rename",
    async (fx) => ({ environmentId: await newEnvironment(fx), name: `r-${fx.unique()}` }),
    "environmentId",
  ),
  procedure("environment.delete", async (fx) => ({ environmentId: await newEnvironment(fx) }), "environmentId"),
];
