/**
 * The management mutations on the internal procedure surface (spec: Procedure interface; unpublished, so
 * SKIFF_PUBLIC_API_ONLY=true hides them): `POST /api/<object>.<action>` with a JSON object as body, each row executing
 * its GraphQL mutation of schema/applications.graphql in-process — same roles, validation, quotas, events and
 * errors as /graphql (src/shared/procedure-route.ts). Credentials: a session cookie or an account API key (agent
 * tokens are refused, 401); the body's ids name the organization: a session reaches every organization it belongs
 * to, as over GraphQL, an API key its own.
 *
 * Success: 200 `{ result: { data } }` (`data`: the mutation's answer). Error: status by code — 400 (BAD_USER_INPUT,
 * with `fieldErrors` / `formErrors`: an unknown field, a field of the wrong JSON type named as the body spells it,
 * or the service's rules), 401, 403 (a role or a plan quota), 404 (an id that names nothing — the empty string
 * included —, another organization's or not granted), 409, 500 — with
 * `{ error: { message, code, fieldErrors?, formErrors?, errorId? } }`.
 */
import { z } from "zod";
import type { BuildType, DatabaseType, SourceType } from "../../generated/graphql.ts";
import { requiredOr } from "../../shared/input-fields.ts";
import { type Procedure, procedureRoute } from "../../shared/procedure-route.ts";
import type { RestRoute } from "../../shared/rest-route.ts";

/** Application fields the procedures answer with (never variable values: a procedure's body is often logged). */
const APPLICATION = `id name appName applicationStatus sourceType buildType port needsDeployment createdAt
  source { type repo branch buildPath dockerImage gitProviderId customGitUrl customGitSSHKeyId }
  environment { id } project { id } domains { id host port https } environmentVariables { key }`;
const DATABASE = "id type name user serviceHost createdAt environment { id }";
const DOMAIN = "id host port https createdAt application { id }";
const ENVIRONMENT = "id name createdAt project { id }";

/*
 * The body of each procedure is checked against the JSON its mutation's GraphQL argument types take before the
 * variables are built, so a wrong type is a 400 whose `fieldErrors` names the body field (`applicationId`,
 * `source.dockerImage`, `variables.0.value`) rather than GraphQL's message about the variable it became. Only the
 * types are checked here; the rules of the values (lengths, formats, existence) stay in the services behind the
 * mutations, once for both surfaces.
 */

/** `String`. */
const str = z.string(requiredOr("a string"));
/**
 * `ID`: a JSON string (GraphQL also coerces a number; a REST body names ids as strings). Any string, the empty one
 * included: an id that names nothing answers 404 NOT_FOUND, as in GraphQL.
 */
const id = str;
/** `Int`: a 32-bit signed integer, as GraphQL's `Int` takes. */
const int = z
  .number(requiredOr("an integer"))
  .int("Must be an integer")
  .min(-(2 ** 31), "Must be at least -2147483648")
  .max(2 ** 31 - 1, "Must be at most 2147483647");
/** `Boolean`. */
const bool = z.boolean(requiredOr("true or false"));
/** `[T!]`: a JSON array (GraphQL would also take a single value as a list of one). */
const list = <T extends z.ZodType>(item: T) => z.array(item, requiredOr("an array"));

/**
 * A GraphQL enum of the schema: `values` lists each of codegen's `E` once, so adding or removing a value in the
 * schema fails to compile here until the list follows.
 */
function graphqlEnum<E extends string>(values: Record<E, true>) {
  const names = Object.keys(values) as [E, ...E[]];
  return z.enum(names, requiredOr(`one of ${names.join(", ")}`));
}

const sourceType = graphqlEnum<SourceType>({ github: true, gitlab: true, docker: true, git: true });
const buildType = graphqlEnum<BuildType>({ dockerfile: true, nixpacks: true });
const databaseType = graphqlEnum<DatabaseType>({ mariadb: true, mysql: true, postgres: true, mongodb: true });

/** `SiteImportSourceInput`. */
const sourceInput = z.strictObject(
  {
    type: sourceType,
    repo: str.nullish(),
    branch: str.nullish(),
    buildPath: str.nullish(),
    buildType: buildType.nullish(),
    dockerImage: str.nullish(),
    githubId: id.nullish(),
    gitlabId: id.nullish(),
    customGitUrl: str.nullish(),
    customGitSSHKeyId: id.nullish(),
  },
  requiredOr("an object"),
);

/** `EnvironmentVariableInput`. */
const variableInput = z.strictObject({ key: str, value: str }, requiredOr("an object"));

/** One procedure: its name, body (the types of its fields), GraphQL mutation, variables and answer. */

/** `input` without `key`. */
function without(input: Record<string, unknown>, key: string): Record<string, unknown> {
  const { [key]: _omitted, ...rest } = input;
  return rest;
}

/** Every management procedure (one per mutation of schema/applications.graphql). */
export const MANAGE_PROCEDURES: readonly Procedure[] = [
  {
    name: "application.create",
    input: z.strictObject({ environmentId: id, name: str, source: sourceInput, port: int.nullish() }),
    operation: `mutation CreateApplication($input: CreateApplicationInput!) { createApplication(input: $input) { ${APPLICATION} } }`,
    variables: (input) => ({ input }),
    field: "createApplication",
  },
  {
    name: "application.update",
    input: z.strictObject({
      applicationId: id,
      name: str.nullish(),
      source: sourceInput.nullish(),
      branch: str.nullish(),
      buildPath: str.nullish(),
      buildType: buildType.nullish(),
      dockerImage: str.nullish(),
      port: int.nullish(),
      healthPath: str.nullish(),
    }),
    operation: `mutation UpdateApplication($id: ID!, $input: UpdateApplicationInput!) {
      updateApplication(id: $id, input: $input) { ${APPLICATION} } }`,
    variables: (input) => ({ id: input.applicationId, input: without(input, "applicationId") }),
    field: "updateApplication",
  },
  {
    name: "application.delete",
    input: z.strictObject({ applicationId: id }),
    operation: "mutation DeleteApplication($id: ID!) { deleteApplication(id: $id) }",
    variables: (input) => ({ id: input.applicationId }),
    field: "deleteApplication",
  },
  {
    name: "variables.set",
    input: z.strictObject({ applicationId: id, key: str, value: str, deploy: bool.nullish() }),
    operation: `mutation SetEnvironmentVariable($applicationId: ID!, $key: String!, $value: String!, $deploy: Boolean) {
      setEnvironmentVariable(applicationId: $applicationId, key: $key, value: $value, deploy: $deploy) { ${APPLICATION} } }`,
    variables: (input) => input,
    field: "setEnvironmentVariable",
  },
  {
    name: "variables.setMany",
    input: z.strictObject({
      applicationId: id,
      variables: list(variableInput).nullish(),
      dotenv: str.nullish(),
      deploy: bool.nullish(),
    }),
    operation: `mutation SetEnvironmentVariables($applicationId: ID!, $variables: [EnvironmentVariableInput!],
      $dotenv: String, $deploy: Boolean) {
      setEnvironmentVariables(applicationId: $applicationId, variables: $variables, dotenv: $dotenv, deploy: $deploy) {
        setKeys deployment { id status } application { ${APPLICATION} } } }`,
    variables: (input) => input,
    field: "setEnvironmentVariables",
  },
  {
    name: "variables.unset",
    input: z.strictObject({ applicationId: id, key: str, deploy: bool.nullish() }),
    operation: `mutation UnsetEnvironmentVariable($applicationId: ID!, $key: String!, $deploy: Boolean) {
      unsetEnvironmentVariable(applicationId: $applicationId, key: $key, deploy: $deploy) { ${APPLICATION} } }`,
    variables: (input) => input,
    field: "unsetEnvironmentVariable",
  },
  {
    name: "database.create",
    input: z.strictObject({
      environmentId: id,
      type: databaseType,
      name: str,
      user: str,
      password: str.nullish(),
      applicationIds: list(id).nullish(),
    }),
    operation: `mutation CreateDatabase($input: CreateDatabaseInput!) {
      createDatabase(input: $input) {
        database { ${DATABASE} } applications { id needsDeployment } generatedPassword } }`,
    variables: (input) => ({ input }),
    field: "createDatabase",
  },
  {
    name: "database.rotatePassword",
    input: z.strictObject({ databaseId: id, password: str.nullish() }),
    operation: `mutation RotateDatabasePassword($id: ID!, $password: String) {
      rotateDatabasePassword(id: $id, password: $password) {
        database { ${DATABASE} } applications { id needsDeployment } generatedPassword } }`,
    variables: (input) => ({ id: input.databaseId, password: input.password }),
    field: "rotateDatabasePassword",
  },
  {
    name: "database.delete",
    input: z.strictObject({ databaseId: id }),
    operation: `mutation DeleteDatabase($id: ID!) {
      deleteDatabase(id: $id) { id affectedApplications { id needsDeployment } } }`,
    variables: (input) => ({ id: input.databaseId }),
    field: "deleteDatabase",
  },
  {
    name: "domain.add",
    input: z.strictObject({ applicationId: id, host: str, port: int.nullish(), https: bool.nullish() }),
    operation: `mutation AddDomain($input: AddDomainInput!) { addDomain(input: $input) { ${DOMAIN} } }`,
    variables: (input) => ({ input }),
    field: "addDomain",
  },
  {
    name: "domain.update",
    input: z.strictObject({
      domainId: id,
      host: str.nullish(),
      port: int.nullish(),
      useApplicationPort: bool.nullish(),
      https: bool.nullish(),
    }),
    operation: `mutation UpdateDomain($id: ID!, $input: UpdateDomainInput!) { updateDomain(id: $id, input: $input) { ${DOMAIN} } }`,
    variables: (input) => ({ id: input.domainId, input: without(input, "domainId") }),
    field: "updateDomain",
  },
  {
    name: "domain.remove",
    input: z.strictObject({ applicationId: id, host: str }),
    operation: `mutation RemoveDomain($applicationId: ID!, $host: String!) {
      removeDomain(applicationId: $applicationId, host: $host) { ${APPLICATION} } }`,
    variables: (input) => input,
    field: "removeDomain",
  },
  {
    name: "environment.create",
    input: z.strictObject({ projectId: id, name: str }),
    operation: `mutation CreateEnvironment($projectId: ID!, $name: String!) {
      createEnvironment(projectId: $projectId, name: $name) { ${ENVIRONMENT} } }`,
    variables: (input) => input,
    field: "createEnvironment",
  },
  {
    name: "environment.rename",
    input: z.strictObject({ environmentId: id, name: str }),
    operation: `mutation RenameEnvironment($id: ID!, $name: String!) { renameEnvironment(id: $id, name: $name) { ${ENVIRONMENT} } }`,
    variables: (input) => ({ id: input.environmentId, name: input.name }),
    field: "renameEnvironment",
  },
  {
    name: "environment.delete",
    input: z.strictObject({ environmentId: id }),
    operation: "mutation DeleteEnvironment($id: ID!) { deleteEnvironment(id: $id) }",
    variables: (input) => ({ id: input.environmentId }),
    field: "deleteEnvironment",
  },
];

/** Every management procedure row, in the order of {@link MANAGE_PROCEDURES}. */
export const manageRoutes: readonly RestRoute[] = MANAGE_PROCEDURES.map(procedureRoute);
