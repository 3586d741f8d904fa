/**
 * The GraphQL table of the isolation matrix: one row per root field (Query, Mutation, Subscription), with the
 * expected outcome for each persona. `ok` = no error; otherwise the `extensions.code` of the first error.
 * `target` names the variable holding the id that must answer exactly like a nonexistent one where the
 * expectation is NOT_FOUND. Personas, in column order: owner, admin, granted (member granted the resource),
 * notGranted (member limited to another project), otherOwner (owner of organization B), revokedKey (a deleted
 * API key), anonymous, agentToken (an agent token of organization A).
 */
import { newId } from "../../../src/db/ids.ts";
import { deployGraphqlRows } from "./deploy-rows.ts";
import { docsGraphqlRows } from "./docs-rows.ts";
import type { Fixture, Persona } from "./fixture.ts";
import { manageGraphqlRows } from "./manage-rows.ts";
import { webhookGraphqlRows } from "./webhook-rows.ts";

/** What a cell must answer. */
export type Outcome = "ok" | "NOT_FOUND" | "FORBIDDEN" | "UNAUTHENTICATED" | "BAD_USER_INPUT" | "CONFLICT";

/** Expected outcome per persona. */
export type Expectation = Record<Persona, Outcome>;

/** One row: a root field, how to call it, and what each persona gets. */
export interface GraphqlRow {
  /** `Query.project`, `Mutation.deleteProject`, `Subscription.siteImportUpdated`. */
  field: string;
  operation: string;
  /** Variables of one cell; may create fresh targets (mutations consume them). */
  variables?: (fx: Fixture, persona: Persona) => Promise<Record<string, unknown>> | Record<string, unknown>;
  /** Path of the target id in the variables (for the nonexistent-id twin of NOT_FOUND cells). */
  target?: string[];
  expect: Expectation;
  /** Undoes what a successful cell changed that later rows rely on. */
  after?: (fx: Fixture, persona: Persona) => Promise<void>;
}

const U = "UNAUTHENTICATED";

/** An expectation in column order (see the file comment). */
function cells(
  owner: Outcome,
  admin: Outcome,
  granted: Outcome,
  notGranted: Outcome,
  otherOwner: Outcome,
  revokedKey: Outcome,
  anonymous: Outcome,
  agentToken: Outcome,
): Expectation {
  return { owner, admin, granted, notGranted, otherOwner, revokedKey, anonymous, agentToken };
}

/** A new payment gateway service of A on project P (no merchant: deleting it releases nothing). */
async function newGatewayService(fx: Fixture): Promise<string> {
  const id = newId("paymentGatewayService");
  await fx.knex("payment_gateway_services").insert({
    id,
    organization_id: fx.orgA,
    project_id: fx.projectP,
    name: `LEAKA-P-pay-${fx.unique()}`,
  });
  return id;
}

/** An organization bundle with nothing in it (docs/organization-transfer.md). */
export const EMPTY_BUNDLE = {
  format: "skiff.organization-bundle",
  version: 1,
  exportedAt: "2026-01-01T00:00:00.000Z",
  organization: { id: "org_x", name: "x", slug: null },
  secrets: { encryption: "none", recipient: null, count: 0, ciphertext: null, note: "" },
  projects: [],
  webhookEndpoints: [],
  docsTheme: null,
  members: [],
};

const PROJECT_FIELDS = "id name environments { name applications { name domains { host } } }";

/** Every row; the test fails for a root field without a row and for a row without a field. */
export const graphqlRows: GraphqlRow[] = [
  // ---- Query ------------------------------------------------------------------------------------------------
  {
    // The audit log: owners and admins; members FORBIDDEN (the organization is visible to them).
    field: "Query.auditEvents",
    operation: "query($org: ID) { auditEvents(organizationId: $org) { totalCount nodes { action actorUserId } } }",
    variables: (fx) => ({ org: fx.orgA }),
    target: ["org"],
    expect: cells("ok", "ok", "FORBIDDEN", "FORBIDDEN", "NOT_FOUND", U, U, U),
  },
  {
    // The organization bundle (docs/organization-transfer.md): owners only; admins and members FORBIDDEN.
    field: "Query.organizationExport",
    operation: "query($org: ID!) { organizationExport(organizationId: $org) }",
    variables: (fx) => ({ org: fx.orgA }),
    target: ["org"],
    expect: cells("ok", "FORBIDDEN", "FORBIDDEN", "FORBIDDEN", "NOT_FOUND", U, U, U),
  },
  {
    // The plan of importing a bundle: owners only; admins and members FORBIDDEN.
    field: "Query.organizationImportPlan",
    operation:
      "query($org: ID!, $bundle: JSONObject!) { organizationImportPlan(organizationId: $org, bundle: $bundle) { creates conflicts } }",
    variables: (fx) => ({ org: fx.orgA, bundle: EMPTY_BUNDLE }),
    target: ["org"],
    expect: cells("ok", "FORBIDDEN", "FORBIDDEN", "FORBIDDEN", "NOT_FOUND", U, U, U),
  },
  {
    // Applying a bundle: owners only, as the plan (an empty bundle creates nothing).
    field: "Mutation.importOrganization",
    operation:
      "mutation($org: ID!, $bundle: JSONObject!) { importOrganization(organizationId: $org, bundle: $bundle) { exists created { kind } } }",
    variables: (fx) => ({ org: fx.orgA, bundle: EMPTY_BUNDLE }),
    target: ["org"],
    expect: cells("ok", "FORBIDDEN", "FORBIDDEN", "FORBIDDEN", "NOT_FOUND", U, U, U),
  },
  {
    field: "Query.viewer",
    operation: "{ viewer { authenticatedBy role user { email } activeOrganization { id name } } }",
    expect: cells("ok", "ok", "ok", "ok", "ok", U, U, U),
  },
  {
    field: "Query.organizations",
    // first: 10 keeps the whole tree under SKIFF_MAX_QUERY_COST (10 organizations × 10 projects × tree).
    operation: `{ organizations { id name plan { name usage { projects } } projects(first: 10) { edges { node { ${PROJECT_FIELDS} } } } } }`,
    expect: cells("ok", "ok", "ok", "ok", "ok", U, U, U),
  },
  {
    field: "Query.organization",
    operation: `query($id: ID!) { organization(id: $id) { id name viewerRole members { role user { email } grants { project { name } } }
      invitations { email link } apiKeys { name } notificationChannels { target } projects(first: 100) { totalCount edges { node { ${PROJECT_FIELDS} } } } } }`,
    variables: (fx) => ({ id: fx.orgA }),
    target: ["id"],
    expect: cells("ok", "ok", "ok", "ok", "NOT_FOUND", U, U, U),
  },
  {
    field: "Query.project",
    operation: `query($id: ID!) { project(id: $id) { ${PROJECT_FIELDS} organization { name } } }`,
    variables: (fx) => ({ id: fx.projectP }),
    target: ["id"],
    expect: cells("ok", "ok", "ok", "NOT_FOUND", "NOT_FOUND", U, U, U),
  },
  {
    field: "Query.projects",
    operation: `{ projects(first: 100) { totalCount edges { node { ${PROJECT_FIELDS} } } } }`,
    expect: cells("ok", "ok", "ok", "ok", "ok", U, U, U),
  },
  {
    field: "Query.application",
    operation: `query($id: ID!) { application(id: $id) { name project { name } environment { name } domains { host }
      environmentVariables { key } deployments { title } } }`,
    variables: (fx) => ({ id: fx.applicationP }),
    target: ["id"],
    expect: cells("ok", "ok", "ok", "NOT_FOUND", "NOT_FOUND", U, U, U),
  },
  {
    field: "Query.agentToken",
    operation: "{ agentToken { prefix createdAt } }",
    expect: cells("ok", "ok", "ok", "ok", "ok", U, U, U),
  },
  {
    field: "Query.siteImports",
    operation: "{ siteImports { totalCount edges { node { id name project { name } } } } }",
    expect: cells("ok", "ok", "ok", "ok", "ok", U, U, U),
  },
  {
    field: "Query.siteImport",
    operation: "query($id: ID!) { siteImport(id: $id) { id name status project { name } application { name } } }",
    variables: (fx) => ({ id: fx.importP }),
    target: ["id"],
    expect: cells("ok", "ok", "ok", "NOT_FOUND", "NOT_FOUND", U, U, U),
  },
  {
    field: "Query.previewSiteImport",
    operation: "query($input: SiteImportInput!) { previewSiteImport(input: $input) { valid errors } }",
    variables: (fx) => ({ input: fx.importRequest() }),
    target: ["input", "organizationId"],
    expect: cells("ok", "ok", "FORBIDDEN", "FORBIDDEN", "NOT_FOUND", U, U, U),
  },
  {
    field: "Query.invitationLink",
    operation: "query($token: String!) { invitationLink(token: $token) { valid status organizationName } }",
    variables: async (fx) => ({ token: (await fx.newInvitation(fx.orgC)).token }),
    // Public, but a credential that does not verify (revoked key, agent token) is refused whatever the operation.
    expect: cells("ok", "ok", "ok", "ok", "ok", U, "ok", U),
  },
  {
    field: "Query._service",
    operation: "{ _service { sdl } }",
    expect: cells("ok", "ok", "ok", "ok", "ok", U, "ok", U),
  },
  {
    field: "Query._entities",
    operation: `query($reps: [_Any!]!) { _entities(representations: $reps) {
      ... on Project { id name } ... on Application { id name } ... on Organization { id name } } }`,
    variables: (fx) => ({
      reps: [
        { __typename: "Project", id: fx.projectP },
        { __typename: "Project", id: fx.projectQ },
        { __typename: "Application", id: fx.applicationP },
        { __typename: "Organization", id: fx.orgA },
      ],
    }),
    expect: cells("ok", "ok", "ok", "ok", "ok", U, U, U),
  },
  // ---- Mutation: platform and account ---------------------------------------------------------------------------
  { field: "Mutation.ping", operation: "mutation { ping }", expect: cells("ok", "ok", "ok", "ok", "ok", U, U, U) },
  {
    field: "Mutation.createApiKey",
    operation: `mutation($name: String!) { createApiKey(name: $name) { apiKey { id name } } }`,
    variables: () => ({ name: "matrix" }),
    expect: cells("ok", "ok", "ok", "ok", "ok", U, U, U),
  },
  {
    field: "Mutation.deleteApiKey",
    operation: "mutation($id: ID!) { deleteApiKey(id: $id) }",
    variables: async (fx) => ({ id: (await fx.newMember()).apiKeyId }),
    target: ["id"],
    expect: cells("ok", "ok", "NOT_FOUND", "NOT_FOUND", "NOT_FOUND", U, U, U),
  },
  {
    field: "Mutation.createAgentToken",
    operation: "mutation { createAgentToken { agentToken { prefix } } }",
    expect: cells("ok", "ok", "ok", "ok", "ok", U, U, U),
  },
  {
    field: "Mutation.revokeAgentToken",
    operation: "mutation { revokeAgentToken }",
    expect: cells("ok", "ok", "ok", "ok", "ok", U, U, U),
  },
  // ---- Mutation: organizations -------------------------------------------------------------------------------
  {
    field: "Mutation.createOrganization",
    operation: `mutation($input: CreateOrganizationInput!) { createOrganization(input: $input) { id viewerRole } }`,
    variables: () => ({ input: { name: "Matrix Org" } }),
    expect: cells("ok", "ok", "ok", "ok", "ok", U, U, U),
  },
  {
    field: "Mutation.renameOrganization",
    operation: `mutation($id: ID!, $name: String!) { renameOrganization(id: $id, name: $name) { name } }`,
    variables: (fx) => ({ id: fx.orgA, name: "LEAKA-ORG" }),
    target: ["id"],
    expect: cells("ok", "ok", "FORBIDDEN", "FORBIDDEN", "NOT_FOUND", U, U, U),
  },
  {
    field: "Mutation.setActiveOrganization",
    operation: `mutation($id: ID!) { setActiveOrganization(id: $id) { role activeOrganization { id } } }`,
    variables: (fx) => ({ id: fx.orgA }),
    target: ["id"],
    expect: cells("ok", "ok", "ok", "ok", "NOT_FOUND", U, U, U),
  },
  {
    field: "Mutation.changePlan",
    operation: `mutation($id: ID!) { changePlan(organizationId: $id, plan: "unlimited") { plan { name } } }`,
    variables: (fx) => ({ id: fx.orgA }),
    target: ["id"],
    expect: cells("ok", "FORBIDDEN", "FORBIDDEN", "FORBIDDEN", "NOT_FOUND", U, U, U),
  },
  {
    field: "Mutation.addNotificationChannel",
    operation: `mutation($input: AddNotificationChannelInput!) { addNotificationChannel(input: $input) { id } }`,
    variables: (fx) => ({ input: { organizationId: fx.orgA, name: "ops", email: `ops-${fx.unique()}@example.test` } }),
    target: ["input", "organizationId"],
    expect: cells("ok", "ok", "FORBIDDEN", "FORBIDDEN", "NOT_FOUND", U, U, U),
  },
  {
    field: "Mutation.removeNotificationChannel",
    operation: "mutation($id: ID!) { removeNotificationChannel(id: $id) }",
    variables: async (fx) => ({ id: await fx.newChannel() }),
    target: ["id"],
    expect: cells("ok", "ok", "FORBIDDEN", "FORBIDDEN", "NOT_FOUND", U, U, U),
  },
  {
    field: "Mutation.createProject",
    operation: `mutation($input: CreateProjectInput!) { createProject(input: $input) { id } }`,
    variables: (fx) => ({ input: { organizationId: fx.orgA, name: `matrix-${fx.unique()}` } }),
    target: ["input", "organizationId"],
    expect: cells("ok", "ok", "FORBIDDEN", "FORBIDDEN", "NOT_FOUND", U, U, U),
  },
  {
    field: "Mutation.deleteProject",
    operation: "mutation($id: ID!) { deleteProject(id: $id) }",
    variables: async (fx) => ({ id: await fx.newProject() }),
    target: ["id"],
    expect: cells("ok", "ok", "FORBIDDEN", "NOT_FOUND", "NOT_FOUND", U, U, U),
  },
  {
    field: "Mutation.updateProject",
    operation: "mutation($id: ID!, $input: UpdateProjectInput!) { updateProject(id: $id, input: $input) { id name } }",
    variables: async (fx) => ({ id: await fx.newProject(), input: { name: `matrix-${fx.unique()}` } }),
    target: ["id"],
    expect: cells("ok", "ok", "FORBIDDEN", "NOT_FOUND", "NOT_FOUND", U, U, U),
  },
  // ---- Mutation: team ----------------------------------------------------------------------------------------
  {
    field: "Mutation.inviteMember",
    operation: `mutation($input: InviteMemberInput!) { inviteMember(input: $input) { id } }`,
    variables: (fx) => ({
      input: { organizationId: fx.orgA, email: `m-${fx.unique()}@example.test`, role: "member" },
    }),
    target: ["input", "organizationId"],
    expect: cells("ok", "ok", "FORBIDDEN", "FORBIDDEN", "NOT_FOUND", U, U, U),
  },
  {
    field: "Mutation.resendInvitation",
    operation: "mutation($id: ID!) { resendInvitation(id: $id) { id } }",
    variables: async (fx) => ({ id: (await fx.newInvitation()).id }),
    target: ["id"],
    expect: cells("ok", "ok", "FORBIDDEN", "FORBIDDEN", "NOT_FOUND", U, U, U),
  },
  {
    field: "Mutation.cancelInvitation",
    operation: "mutation($id: ID!) { cancelInvitation(id: $id) { status } }",
    variables: async (fx) => ({ id: (await fx.newInvitation()).id }),
    target: ["id"],
    expect: cells("ok", "ok", "FORBIDDEN", "FORBIDDEN", "NOT_FOUND", U, U, U),
  },
  {
    // Invitations of organization C to fresh addresses: every signed-in persona is "another user" (sign out first).
    field: "Mutation.acceptInvitation",
    operation: "mutation($token: String!) { acceptInvitation(token: $token) { id } }",
    variables: async (fx) => ({ token: (await fx.newInvitation(fx.orgC)).token }),
    expect: cells("FORBIDDEN", "FORBIDDEN", "FORBIDDEN", "FORBIDDEN", "FORBIDDEN", U, U, U),
  },
  {
    // Public: invalid credentials count as none, so the revoked key and the agent token sign up like anyone.
    field: "Mutation.signUpWithInvitation",
    operation: `mutation($input: SignUpWithInvitationInput!) { signUpWithInvitation(input: $input) { id } }`,
    variables: async (fx) => ({
      input: { token: (await fx.newInvitation(fx.orgC)).token, name: "New", password: "matrix-password" },
    }),
    expect: cells("FORBIDDEN", "FORBIDDEN", "FORBIDDEN", "FORBIDDEN", "FORBIDDEN", U, "ok", U),
  },
  {
    field: "Mutation.updateMemberRole",
    operation: "mutation($id: ID!) { updateMemberRole(memberId: $id, role: admin) { role } }",
    variables: async (fx) => ({ id: (await fx.newMember()).memberId }),
    target: ["id"],
    expect: cells("ok", "ok", "FORBIDDEN", "FORBIDDEN", "NOT_FOUND", U, U, U),
  },
  {
    field: "Mutation.removeMember",
    operation: "mutation($id: ID!) { removeMember(memberId: $id) }",
    variables: async (fx) => ({ id: (await fx.newMember()).memberId }),
    target: ["id"],
    expect: cells("ok", "ok", "FORBIDDEN", "FORBIDDEN", "NOT_FOUND", U, U, U),
  },
  {
    field: "Mutation.leaveOrganization",
    operation: "mutation($id: ID!) { leaveOrganization(organizationId: $id) }",
    // The owner of A may not leave A; every other session persona joins C as a member first and leaves C, so
    // the memberships later rows rely on stay as they are.
    variables: async (fx, persona) => {
      if (persona === "owner") return { id: fx.orgA };
      const email = fx.emails[persona];
      if (email) {
        const user = await fx.knex("users").where({ email }).first("id");
        await fx
          .knex("members")
          .insert({ id: newId("member"), organization_id: fx.orgC, user_id: user.id, role: "member" });
      }
      return { id: fx.orgC };
    },
    expect: cells("FORBIDDEN", "ok", "ok", "ok", "ok", U, U, U),
  },
  {
    field: "Mutation.transferOwnership",
    operation: "mutation($id: ID!) { transferOwnership(memberId: $id) { role } }",
    variables: async (fx) => ({ id: (await fx.newMember()).memberId }),
    target: ["id"],
    expect: cells("ok", "FORBIDDEN", "FORBIDDEN", "FORBIDDEN", "NOT_FOUND", U, U, U),
    // Give the ownership back so that later rows see the same roles.
    after: async (fx) => {
      await fx.knex("members").where({ organization_id: fx.orgA, role: "owner" }).update({ role: "member" });
      await fx.knex("members").where({ id: fx.ownerA.memberId }).update({ role: "owner" });
    },
  },
  {
    field: "Mutation.grantAccess",
    operation: `mutation($input: GrantAccessInput!) { grantAccess(input: $input) { id } }`,
    variables: async (fx) => ({ input: { memberId: (await fx.newMember()).memberId, projectId: fx.projectP } }),
    target: ["input", "memberId"],
    expect: cells("ok", "ok", "FORBIDDEN", "FORBIDDEN", "NOT_FOUND", U, U, U),
  },
  {
    field: "Mutation.revokeAccess",
    operation: "mutation($id: ID!) { revokeAccess(grantId: $id) }",
    variables: async (fx) => ({ id: await fx.newGrant() }),
    target: ["id"],
    expect: cells("ok", "ok", "FORBIDDEN", "FORBIDDEN", "NOT_FOUND", U, U, U),
  },
  // ---- Mutation: import prerequisites and site imports --------------------------------------------------------
  {
    field: "Mutation.createGitProvider",
    operation: `mutation($input: CreateGitProviderInput!) { createGitProvider(input: $input) { id } }`,
    variables: (fx) => ({ input: { organizationId: fx.orgA, type: "github", name: "gh" } }),
    target: ["input", "organizationId"],
    expect: cells("ok", "ok", "FORBIDDEN", "FORBIDDEN", "NOT_FOUND", U, U, U),
  },
  {
    field: "Mutation.createContainerRegistry",
    operation: `mutation($input: CreateContainerRegistryInput!) { createContainerRegistry(input: $input) { id } }`,
    variables: (fx) => ({ input: { organizationId: fx.orgA, name: "reg", url: "registry.example.test/acme" } }),
    target: ["input", "organizationId"],
    expect: cells("ok", "ok", "FORBIDDEN", "FORBIDDEN", "NOT_FOUND", U, U, U),
  },
  {
    field: "Mutation.createSshKey",
    operation: `mutation($input: CreateSshKeyInput!) { createSshKey(input: $input) { id } }`,
    variables: (fx) => ({
      input: {
        organizationId: fx.orgA,
        name: "deploy",
        publicKey: "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIMatrixMatrixMatrixMatrixMatrixMatrixMatr matrix",
        privateKey: "-----BEGIN OPENSSH PRIVATE KEY-----\nbWF0cml4\n-----END OPENSSH PRIVATE KEY-----\n",
      },
    }),
    target: ["input", "organizationId"],
    expect: cells("ok", "ok", "FORBIDDEN", "FORBIDDEN", "NOT_FOUND", U, U, U),
  },
  {
    field: "Mutation.importSite",
    operation: "mutation($input: SiteImportInput!) { importSite(input: $input) { status errorMessage } }",
    variables: (fx) => ({ input: fx.importRequest() }),
    target: ["input", "organizationId"],
    expect: cells("ok", "ok", "FORBIDDEN", "FORBIDDEN", "NOT_FOUND", U, U, U),
  },
  {
    // The import succeeded, so those who see it and may import get CONFLICT (only partial/failed ones retry).
    field: "Mutation.retrySiteImport",
    operation: "mutation($id: ID!) { retrySiteImport(id: $id) { status } }",
    variables: (fx) => ({ id: fx.importP }),
    target: ["id"],
    expect: cells("CONFLICT", "CONFLICT", "FORBIDDEN", "NOT_FOUND", "NOT_FOUND", U, U, U),
  },
  {
    field: "Mutation.deleteSiteImport",
    operation: "mutation($id: ID!) { deleteSiteImport(id: $id) { id } }",
    variables: async (fx) => ({ id: await fx.newImport() }),
    target: ["id"],
    expect: cells("ok", "ok", "FORBIDDEN", "NOT_FOUND", "NOT_FOUND", U, U, U),
  },
  ...webhookGraphqlRows,
  // ---- Mutation: payment gateway services (the matrix server has no gateway: creation stops at BAD_USER_INPUT)
  {
    field: "Mutation.createPaymentGatewayService",
    operation: `mutation($projectId: ID!) { createPaymentGatewayService(projectId: $projectId, name: "pay") { id } }`,
    variables: (fx) => ({ projectId: fx.projectP }),
    target: ["projectId"],
    expect: cells("BAD_USER_INPUT", "BAD_USER_INPUT", "FORBIDDEN", "NOT_FOUND", "NOT_FOUND", U, U, U),
  },
  {
    field: "Mutation.updatePaymentGatewayService",
    operation: `mutation($id: ID!) { updatePaymentGatewayService(id: $id, name: "renamed") { id name } }`,
    variables: async (fx) => ({ id: await newGatewayService(fx) }),
    target: ["id"],
    expect: cells("ok", "ok", "FORBIDDEN", "NOT_FOUND", "NOT_FOUND", U, U, U),
  },
  {
    field: "Mutation.deletePaymentGatewayService",
    operation: "mutation($id: ID!) { deletePaymentGatewayService(id: $id) }",
    variables: async (fx) => ({ id: await newGatewayService(fx) }),
    target: ["id"],
    expect: cells("ok", "ok", "FORBIDDEN", "NOT_FOUND", "NOT_FOUND", U, U, U),
  },
  {
    // No merchant yet (provisioning): those who may manage get BAD_USER_INPUT after the access checks.
    field: "Mutation.setPaymentMethodEnabled",
    operation: `mutation($id: ID!) { setPaymentMethodEnabled(serviceId: $id, method: "card", enabled: false) { id } }`,
    variables: async (fx) => ({ id: await newGatewayService(fx) }),
    target: ["id"],
    expect: cells("BAD_USER_INPUT", "BAD_USER_INPUT", "FORBIDDEN", "NOT_FOUND", "NOT_FOUND", U, U, U),
  },
  ...docsGraphqlRows,
  ...deployGraphqlRows,
  ...manageGraphqlRows,
  // ---- Subscription ------------------------------------------------------------------------------------------
  {
    field: "Subscription.heartbeat",
    operation: "subscription { heartbeat }",
    expect: cells("ok", "ok", "ok", "ok", "ok", U, U, U),
  },
  {
    field: "Subscription.siteImportUpdated",
    operation: "subscription($id: ID) { siteImportUpdated(id: $id) { importId status } }",
    variables: (fx) => ({ id: fx.importP }),
    target: ["id"],
    expect: cells("ok", "ok", "ok", "NOT_FOUND", "NOT_FOUND", U, U, U),
  },
];
