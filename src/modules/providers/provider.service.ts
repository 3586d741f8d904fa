/**
 * Writes of import prerequisites (spec: "Prerequisites outside the request"): git providers, container
 * registries and SSH keys of an organization. Owners and admins only (`provider:manage`); secrets (registry
 * password, SSH private key) are write-only and stored encrypted.
 */
import type { Knex } from "knex";
import { z } from "zod";
import { newId } from "../../db/ids.ts";
import { nameText } from "../../shared/input-fields.ts";
import { parseInput } from "../../shared/validate.ts";
import { organizationAccess } from "../access/index.ts";
import { noteAuditTarget, writeModelsWithAuditEntry } from "../audit/index.ts";
import type { ServiceContext } from "../context.ts";
import { ContainerRegistry, GitProvider, SshKey } from "./provider.models.ts";

const name = nameText(100);
const organizationId = z.string().min(1, "Required");

const gitProviderSchema = z.strictObject({ organizationId, type: z.enum(["github", "gitlab"]), name });

const registrySchema = z.strictObject({
  organizationId,
  name,
  url: z
    .string()
    .trim()
    .regex(/^[a-z0-9.-]+(:\d{1,5})?(\/[\w./-]*)?$/i, "Registry address without scheme, e.g. ghcr.io/acme"),
  username: z.string().trim().min(1).max(200).nullish(),
  password: z.string().min(1).max(4096).nullish(),
});

const sshKeySchema = z.strictObject({
  organizationId,
  name,
  publicKey: z
    .string()
    .trim()
    .regex(
      /^(ssh-ed25519|ssh-rsa|ecdsa-sha2-nistp(256|384|521)|sk-ssh-ed25519@openssh\.com|sk-ecdsa-sha2-nistp256@openssh\.com) [A-Za-z0-9+/]+={0,3}( [^\n]*)?$/,
      "Must be one OpenSSH public key line, e.g. ssh-ed25519 AAAA... comment",
    ),
  privateKey: z
    .string()
    .max(16_384, "At most 16384 characters")
    .regex(
      /^\s*-----BEGIN ([A-Z]+ )?PRIVATE KEY-----\n[\s\S]+\n-----END ([A-Z]+ )?PRIVATE KEY-----\s*$/,
      "Must be a PEM or OpenSSH private key (-----BEGIN ... PRIVATE KEY-----)",
    ),
});

/** Configures a git provider `{ organizationId, type: github|gitlab, name }`. @throws BadUserInputError, NotFoundError, ForbiddenError. */
export async function createGitProvider(ctx: ServiceContext, raw: unknown): Promise<GitProvider> {
  const input = parseInput(gitProviderSchema, raw, "Invalid git provider");
  await organizationAccess(ctx.scope, { organizationId: input.organizationId, action: "provider:manage" });
  const id = newId(GitProvider.idKind);
  noteAuditTarget(ctx, id);
  const [made] = await writeModelsWithAuditEntry(
    ctx,
    GitProvider,
    GitProvider.query(ctx.knex)
      .insert({ ...input, id })
      .returning("*"),
  );
  return made!;
}

/**
 * Configures a container registry `{ organizationId, name, url, username?, password? }`; the password is stored
 * encrypted. @throws BadUserInputError, NotFoundError, ForbiddenError.
 */
export async function createContainerRegistry(ctx: ServiceContext, raw: unknown): Promise<ContainerRegistry> {
  const { password, username, ...input } = parseInput(registrySchema, raw, "Invalid container registry");
  await organizationAccess(ctx.scope, { organizationId: input.organizationId, action: "provider:manage" });
  const id = newId(ContainerRegistry.idKind);
  const row = {
    ...input,
    id,
    username: username ?? null,
    passwordEncrypted: password ? ctx.services.secrets.encrypt(password) : null,
  };
  noteAuditTarget(ctx, id);
  const query = ContainerRegistry.query(ctx.knex).insert(row).returning("*");
  const [made] = await writeModelsWithAuditEntry(ctx, ContainerRegistry, query);
  return made!;
}

/**
 * Stores an SSH key pair `{ organizationId, name, publicKey, privateKey }`; the private key is stored encrypted.
 * @throws BadUserInputError, NotFoundError, ForbiddenError.
 */
export async function createSshKey(ctx: ServiceContext, raw: unknown): Promise<SshKey> {
  const { privateKey, ...input } = parseInput(sshKeySchema, raw, "Invalid SSH key");
  await organizationAccess(ctx.scope, { organizationId: input.organizationId, action: "provider:manage" });
  const id = newId(SshKey.idKind);
  const row = { ...input, id, privateKeyEncrypted: ctx.services.secrets.encrypt(privateKey) };
  noteAuditTarget(ctx, id);
  const [made] = await writeModelsWithAuditEntry(ctx, SshKey, SshKey.query(ctx.knex).insert(row).returning("*"));
  return made!;
}

/** Query (not run) of the `type` (github, gitlab) of git provider `id` of `organizationId` (import prerequisites). */
export function gitProviderType(db: Knex | Knex.Transaction, id: string, organizationId: string): Knex.QueryBuilder {
  return db("git_providers").where({ id, organization_id: organizationId }).select("type");
}

/**
 * The first git provider (by creation) of `type` (github, gitlab) in `organizationId`, or null when it has none
 * (the organization import attaches bundle applications of that source type to it).
 */
export async function gitProviderOfKind(
  db: Knex | Knex.Transaction,
  organizationId: string,
  type: "github" | "gitlab",
): Promise<{ id: string; name: string } | null> {
  const row = await db("git_providers")
    .where({ organization_id: organizationId, type })
    .orderBy([{ column: "created_at" }, { column: "id" }])
    .first("id", "name");
  return (row as { id: string; name: string } | undefined) ?? null;
}

/** Query (not run) of SSH key `id` of `organizationId` (import prerequisites). */
export function sshKeyOfOrganization(
  db: Knex | Knex.Transaction,
  id: string,
  organizationId: string,
): Knex.QueryBuilder {
  return db("ssh_keys").where({ id, organization_id: organizationId }).select(1);
}

/** Query (not run) of the container registries of `organizationId` (import prerequisites). */
export function registriesOfOrganization(db: Knex | Knex.Transaction, organizationId: string): Knex.QueryBuilder {
  return db("container_registries").where("organization_id", organizationId).select(1);
}

/** Sealed build credentials (src/db/secrets.ts form): decrypt only to render, never store or log the result. */
export interface SealedBuildCredentials {
  /** The organization's first container registry (builds push there), or null. */
  registry: { url: string; username: string | null; passwordEncrypted: string | null } | null;
  /** Private key of the requested SSH key of the organization, or null (none requested, or not the org's). */
  sshPrivateKeyEncrypted: string | null;
}

/**
 * What a build of `organizationId` authenticates with: its first container registry with
 * credentials, and SSH key `sshKeyId` when given. Two statements; secrets stay sealed.
 */
export async function buildCredentialsOf(
  db: Knex | Knex.Transaction,
  organizationId: string,
  sshKeyId: string | null | undefined,
): Promise<SealedBuildCredentials> {
  const registry = await db("container_registries")
    .where({ organization_id: organizationId })
    .orderBy("created_at")
    .first("url", "username", "password_encrypted");
  const key = sshKeyId
    ? await db("ssh_keys").where({ id: sshKeyId, organization_id: organizationId }).first("private_key_encrypted")
    : null;
  return {
    registry: registry
      ? {
          url: String(registry.url),
          username: registry.username ?? null,
          passwordEncrypted: registry.passwordEncrypted ?? null,
        }
      : null,
    sshPrivateKeyEncrypted: key?.privateKeyEncrypted ?? null,
  };
}
