/**
 * The management mutations on the internal procedure surface (spec: Procedure interface; unpublished, so
 * SKIFF_PUBLIC_API_ONLY=true hides them): `POST /api/<object>.<action>` with a JSON object as body, each row executing
 * its GraphQL mutation of schema/applications.graphql in-process — same roles, validation, quotas, events and
 * errors as /graphql. Credentials: a session cookie or an account API key (agent tokens are refused, 401); by-id
 * procedures act on the caller's organization (a session's active one, an API key's bound one).
 *
 * Success: 200 `{ result: { data } }` (`data`: the mutation's answer). Error: status by code — 400 (BAD_USER_INPUT,
 * with `fieldErrors` / `formErrors`), 401, 403 (a role or a plan quota), 404 (unknown, another organization's or not
 * granted), 409, 500 — with `{ error: { message, code, fieldErrors?, formErrors?, errorId? } }`.
 */
import { z } from "zod";
import { procedureError } from "../../shared/procedure-error.ts";
import type { RestRoute } from "../../shared/rest-route.ts";
import { parseInput } from "../../shared/validate.ts";

/** Application fields the procedures answer with (never variable values: a procedure's body is often logged). */
const APPLICATION = `id name appName applicationStatus sourceType buildType port needsDeployment createdAt
  source { type repo branch buildPath dockerImage gitProviderId customGitUrl customGitSSHKeyId }
  environment { id } project { id } domains { id host port https } environmentVariables { key }`;
const DATABASE = "id type name user serviceHost createdAt environment { id }";
const DOMAIN = "id host port https createdAt application { id }";
const ENVIRONMENT = "id name createdAt project { id }";

const id = z.string().min(1, "Required");
/** Any JSON value, checked by the GraphQL input type and the service behind it. */
const value = z.unknown();

/** One procedure: its name, input fields (ids checked here), GraphQL mutation, variables and answer. */
interface Procedure {
  name: string;
  input: z.ZodObject;
  operation: string;
  variables(input: Record<string, unknown>): Record<string, unknown>;
  /** The mutation's field in `data`. */
  field: string;
}

/** `input` without `key`. */
function without(input: Record<string, unknown>, key: string): Record<string, unknown> {
  const { [key]: _omitted, ...rest } = input;
  return rest;
}

/** Every management procedure (one per mutation of schema/applications.graphql). */
export const MANAGE_PROCEDURES: readonly Procedure[] = [
  {
    name: "application.create",
    input: z.strictObject({ environmentId: id, name: value, source: value, port: value.optional() }),
    operation: `mutation CreateApplication($input: CreateApplicationInput!) { createApplication(input: $input) { ${APPLICATION} } }`,
    variables: (input) => ({ input }),
    field: "createApplication",
  },
  {
    name: "application.update",
    input: z.strictObject({
      applicationId: id,
      name: value.optional(),
      source: value.optional(),
      branch: value.optional(),
      buildPath: value.optional(),
      buildType: value.optional(),
      dockerImage: value.optional(),
      port: value.optional(),
      healthPath: value.optional(),
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
    input: z.strictObject({ applicationId: id, key: value, value: value, deploy: value.optional() }),
    operation: `mutation SetEnvironmentVariable($applicationId: ID!, $key: String!, $value: String!, $deploy: Boolean) {
      setEnvironmentVariable(applicationId: $applicationId, key: $key, value: $value, deploy: $deploy) { ${APPLICATION} } }`,
    variables: (input) => input,
    field: "setEnvironmentVariable",
  },
  {
    name: "variables.setMany",
    input: z.strictObject({
      applicationId: id,
      variables: value.optional(),
      dotenv: value.optional(),
      deploy: value.optional(),
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
    input: z.strictObject({ applicationId: id, key: value, deploy: value.optional() }),
    operation: `mutation UnsetEnvironmentVariable($applicationId: ID!, $key: String!, $deploy: Boolean) {
      unsetEnvironmentVariable(applicationId: $applicationId, key: $key, deploy: $deploy) { ${APPLICATION} } }`,
    variables: (input) => input,
    field: "unsetEnvironmentVariable",
  },
  {
    name: "database.create",
    input: z.strictObject({
      environmentId: id,
      type: value,
      name: value,
      user: value,
      password: value.optional(),
      applicationIds: value.optional(),
    }),
    operation: `mutation CreateDatabase($input: CreateDatabaseInput!) {
      createDatabase(input: $input) {
        database { ${DATABASE} } applications { id needsDeployment } generatedPassword } }`,
    variables: (input) => ({ input }),
    field: "createDatabase",
  },
  {
    name: "database.rotatePassword",
    input: z.strictObject({ databaseId: id, password: value.optional() }),
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
    input: z.strictObject({ applicationId: id, host: value, port: value.optional(), https: value.optional() }),
    operation: `mutation AddDomain($input: AddDomainInput!) { addDomain(input: $input) { ${DOMAIN} } }`,
    variables: (input) => ({ input }),
    field: "addDomain",
  },
  {
    name: "domain.update",
    input: z.strictObject({
      domainId: id,
      host: value.optional(),
      port: value.optional(),
      useApplicationPort: value.optional(),
      https: value.optional(),
    }),
    operation: `mutation UpdateDomain($id: ID!, $input: UpdateDomainInput!) { updateDomain(id: $id, input: $input) { ${DOMAIN} } }`,
    variables: (input) => ({ id: input.domainId, input: without(input, "domainId") }),
    field: "updateDomain",
  },
  {
    name: "domain.remove",
    input: z.strictObject({ applicationId: id, host: value }),
    operation: `mutation RemoveDomain($applicationId: ID!, $host: String!) {
      removeDomain(applicationId: $applicationId, host: $host) { ${APPLICATION} } }`,
    variables: (input) => input,
    field: "removeDomain",
  },
  {
    name: "environment.create",
    input: z.strictObject({ projectId: id, name: value }),
    operation: `mutation CreateEnvironment($projectId: ID!, $name: String!) {
      createEnvironment(projectId: $projectId, name: $name) { ${ENVIRONMENT} } }`,
    variables: (input) => input,
    field: "createEnvironment",
  },
  {
    name: "environment.rename",
    input: z.strictObject({ environmentId: id, name: value }),
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

/** The row of one procedure: POST only (every one is a mutation). */
function procedureRow(p: Procedure): RestRoute {
  return {
    method: "POST",
    path: `/api/${p.name}`,
    surface: "rest",
    organization: "active",
    published: false,
    operation: p.operation,
    variables: (req) => p.variables(parseInput(p.input, req.body ?? {}, "Invalid input")),
    respond: (data) => ({ status: 200, body: { result: { data: data[p.field] } } }),
    error: procedureError,
  };
}

/** Every management procedure row, in the order of {@link MANAGE_PROCEDURES}. */
export const manageRoutes: readonly RestRoute[] = MANAGE_PROCEDURES.map(procedureRow);
