/**
 * The world of the isolation matrix: organization A (named with the leak marker `LEAKA-ORG`) with an owner, an
 * admin, a member granted project P (`LEAKA-P`, also its site import's project) and a member granted only
 * project Q (`LEAKA-Q`); organization B with its owner; a neutral organization C for invitations that anyone
 * may hold. Personas carry the credentials each cell is run with; builders create fresh targets per cell.
 */
import { randomBytes } from "node:crypto";
import type { Knex } from "knex";
import { expect } from "vitest";
import { newId } from "../../../src/db/ids.ts";
import {
  addMember,
  createAgentTokenFor,
  createApiKey,
  createOrg,
  createProjects,
  createRegistry,
} from "../../helpers/seed.ts";
import { gql } from "../../helpers/server.ts";
import { sessionFor } from "../../helpers/session.ts";

/** Who runs a cell. */
export const PERSONAS = [
  "owner",
  "admin",
  "granted",
  "notGranted",
  "otherOwner",
  "revokedKey",
  "anonymous",
  "agentToken",
] as const;

/** One persona of {@link PERSONAS}. */
export type Persona = (typeof PERSONAS)[number];

/** Credentials of a request: a session cookie, a bearer token (API key or agent token), or nothing. */
export interface Credentials {
  cookie?: string;
  bearer?: string;
}

/**
 * Marker substrings each persona must never receive (names of resources it cannot see). The agent token belongs
 * to a member of A limited to project Q, so it may see Q (on the agent API) but never P.
 */
export const FORBIDDEN_MARKERS: Record<Persona, string[]> = {
  owner: [],
  admin: [],
  granted: ["LEAKA-Q"],
  notGranted: ["LEAKA-P"],
  otherOwner: ["LEAKA"],
  revokedKey: ["LEAKA"],
  anonymous: ["LEAKA"],
  agentToken: ["LEAKA-P"],
};

const unique = () => randomBytes(4).toString("hex");

/** Everything a row needs to build its variables. */
export interface Fixture {
  url: string;
  knex: Knex;
  orgA: string;
  orgB: string;
  orgC: string;
  ownerA: { userId: string; memberId: string; apiKey: string };
  grantedMemberId: string;
  credentials: Record<Persona, Credentials>;
  /** Emails of the session personas. */
  emails: Partial<Record<Persona, string>>;
  projectP: string;
  applicationP: string;
  projectQ: string;
  /** A successful site import of organization A whose project (`LEAKA-P-site`) is granted to `granted`. */
  importP: string;
  unique(): string;
  /** A new project of A (with one application), granted to the `granted` persona. */
  newProject(): Promise<string>;
  /** A new member (role member) of A. */
  newMember(): Promise<{ memberId: string; userId: string; apiKeyId: string }>;
  /** A new pending invitation of `organizationId` (default A) to a fresh address. */
  newInvitation(organizationId?: string): Promise<{ id: string; token: string; email: string }>;
  /** A new notification channel of A. */
  newChannel(): Promise<string>;
  /** A new grant (of a fresh member on P). */
  newGrant(): Promise<string>;
  /** A new successful site import of A whose project is granted to `granted`. */
  newImport(): Promise<string>;
  /** A docker import request for organization A with a fresh name. */
  importRequest(organizationId?: string): Record<string, unknown>;
}

async function ownerGql<T>(fx: { url: string; ownerA: { apiKey: string } }, query: string, variables = {}) {
  const res = await gql<T>(fx.url, query, variables, { apiKey: fx.ownerA.apiKey });
  expect(res.errors, query).toBeUndefined();
  return res.data!;
}

/** Builds the fixture on a running server `url` with database `knex`. */
export async function buildFixture(url: string, knex: Knex): Promise<Fixture> {
  const a = await createOrg(knex);
  await knex("organizations").where({ id: a.organizationId }).update({ name: "LEAKA-ORG" });
  await createRegistry(knex, a.organizationId);
  const b = await createOrg(knex);
  const c = await createOrg(knex);
  const [projectP, projectQ] = await createProjects(knex, a.organizationId, 2, {
    applicationsPerEnvironment: 1,
    deploymentsPerApplication: 1,
    domainsPerApplication: 1,
  });
  await knex("projects").where({ id: projectP }).update({ name: "LEAKA-P" });
  await knex("projects").where({ id: projectQ }).update({ name: "LEAKA-Q" });
  await knex("applications").where({ project_id: projectP }).update({ name: "LEAKA-P-app" });
  await knex("applications").where({ project_id: projectQ }).update({ name: "LEAKA-Q-app" });
  const applicationP = (await knex("applications").where({ project_id: projectP }).first("id")).id as string;

  const admin = await addMember(knex, a.organizationId, "admin");
  const granted = await addMember(knex, a.organizationId, "member", { projectIds: [projectP!] });
  const notGranted = await addMember(knex, a.organizationId, "member", { projectIds: [projectQ!] });
  const agentUser = await addMember(knex, a.organizationId, "member", { projectIds: [projectQ!] });
  const revoked = await createApiKey(knex, a.owner.userId, a.organizationId);

  const fx: Fixture = {
    url,
    knex,
    orgA: a.organizationId,
    orgB: b.organizationId,
    orgC: c.organizationId,
    ownerA: a.owner,
    grantedMemberId: granted.memberId,
    credentials: {
      owner: { cookie: await sessionFor(knex, url, a.owner) },
      admin: { cookie: await sessionFor(knex, url, admin) },
      granted: { cookie: await sessionFor(knex, url, granted) },
      notGranted: { cookie: await sessionFor(knex, url, notGranted) },
      otherOwner: { cookie: await sessionFor(knex, url, b.owner) },
      revokedKey: { bearer: revoked.apiKey },
      anonymous: {},
      agentToken: { bearer: await createAgentTokenFor(knex, a.organizationId, agentUser) },
    },
    emails: {
      owner: a.owner.email,
      admin: admin.email,
      granted: granted.email,
      notGranted: notGranted.email,
      otherOwner: b.owner.email,
    },
    projectP: projectP!,
    applicationP,
    projectQ: projectQ!,
    importP: "",
    unique,
    async newProject() {
      const [id] = await createProjects(knex, a.organizationId, 1, { applicationsPerEnvironment: 1 });
      await knex("member_grants").insert({ id: newId("grant"), member_id: granted.memberId, project_id: id });
      return id!;
    },
    async newMember() {
      const m = await addMember(knex, a.organizationId, "member");
      return { memberId: m.memberId, userId: m.userId, apiKeyId: m.apiKeyId };
    },
    async newInvitation(organizationId = a.organizationId) {
      const email = `invitee-${unique()}@example.test`;
      const owner = organizationId === a.organizationId ? a.owner.apiKey : c.owner.apiKey;
      const res = await gql<{ inviteMember: { id: string; link: string } }>(
        url,
        `mutation($input: InviteMemberInput!) { inviteMember(input: $input) { id link } }`,
        { input: { organizationId, email, role: "member" } },
        { apiKey: owner },
      );
      expect(res.errors).toBeUndefined();
      const { id, link } = res.data!.inviteMember;
      return { id, token: new URL(link).searchParams.get("token")!, email };
    },
    async newChannel() {
      const id = newId("notificationChannel");
      await knex("notification_channels").insert({
        id,
        organization_id: a.organizationId,
        type: "email",
        name: "ops",
        target: `ops-${unique()}@example.test`,
      });
      return id;
    },
    async newGrant() {
      const m = await addMember(knex, a.organizationId, "member");
      const id = newId("grant");
      await knex("member_grants").insert({ id, member_id: m.memberId, project_id: projectP });
      return id;
    },
    async newImport() {
      const data = await ownerGql<{ importSite: { importId: string; projectId: string; status: string } }>(
        fx,
        `mutation($input: SiteImportInput!) { importSite(input: $input) { importId projectId status } }`,
        { input: fx.importRequest() },
      );
      expect(data.importSite.status).toBe("success");
      await knex("member_grants").insert({
        id: newId("grant"),
        member_id: granted.memberId,
        project_id: data.importSite.projectId,
      });
      return data.importSite.importId;
    },
    importRequest(organizationId = a.organizationId) {
      return { organizationId, name: `site-${unique()}`, source: { type: "docker", dockerImage: "nginx:1.27" } };
    },
  };
  const imported = await ownerGql<{ importSite: { importId: string; projectId: string } }>(
    fx,
    `mutation($input: SiteImportInput!) { importSite(input: $input) { importId projectId } }`,
    { input: { ...fx.importRequest(), name: "LEAKA-P-site" } },
  );
  await knex("member_grants").insert({
    id: newId("grant"),
    member_id: granted.memberId,
    project_id: imported.importSite.projectId,
  });
  fx.importP = imported.importSite.importId;
  const deleted = await gql(
    url,
    `mutation($id: ID!) { deleteApiKey(id: $id) }`,
    { id: revoked.apiKeyId },
    {
      apiKey: a.owner.apiKey,
    },
  );
  expect(deleted.errors).toBeUndefined();
  return fx;
}

/** The id `id` with its random part zeroed: same prefix and shape, but nonexistent. */
export function missingTwin(id: string): string {
  const cut = id.lastIndexOf("_");
  return `${id.slice(0, cut + 1)}${"0".repeat(id.length - cut - 1)}`;
}
