/**
 * First run on an empty database: an owner account (e-mail verified), the organization "Default" (slug
 * `default`) owned by it, and an account API key bound to that organization. Never touches a database that
 * already has users; concurrent starts are serialised by a PostgreSQL advisory lock.
 */
import { randomInt } from "node:crypto";
import type { Knex } from "knex";
import type { Auth } from "../../auth/auth.ts";
import { insertOrganizationWithOwner } from "./organization.service.ts";

/** Inputs of {@link bootstrapFirstRun}: the owner e-mail, and optionally a password and API key to use as is. */
export interface BootstrapOptions {
  email: string;
  /** Default: a generated 20-character password. */
  password?: string;
  /** Default: a generated `skiff_…` key. Stored hashed, like every key, by `storeApiKey`. */
  apiKey?: string;
  /**
   * Makes `apiKey` the secret of the created key `id` (the api-keys module's `replaceApiKeySecret`, handed in by
   * the transport: that module owns the table and sits above this one). Required with `apiKey`.
   */
  storeApiKey?: (knex: Knex, id: string, plaintext: string) => Promise<void>;
  log: { info(obj: object, msg?: string): void };
}

/** What the first run created; `password` and `apiKey` are plaintext, to be shown once. */
export interface FirstRun {
  email: string;
  password: string;
  apiKey: string;
  userId: string;
  organizationId: string;
}

const ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";
const LOCK = "skiff:bootstrap-first-run";

function generatePassword(length = 20): string {
  return Array.from({ length }, () => ALPHABET[randomInt(ALPHABET.length)]).join("");
}

async function createOwnerOrgAndKey(
  auth: Auth,
  knex: Knex,
  opts: BootstrapOptions,
  created: Array<[table: string, id: string]>,
) {
  const ctx = await auth.$context;
  const password = opts.password ?? generatePassword();
  const user = await ctx.internalAdapter.createUser(
    { email: opts.email, name: "Owner", emailVerified: true },
    { method: "admin" },
  );
  created.push(["users", user.id]);
  await ctx.internalAdapter.linkAccount({
    userId: user.id,
    providerId: "credential",
    accountId: user.id,
    password: await ctx.password.hash(password),
  });
  const org = await insertOrganizationWithOwner({ knex }, { name: "Default", slug: "default", userId: user.id });
  created.push(["organizations", org.id]);
  const key = await auth.api.createApiKey({
    body: { name: "Bootstrap key", userId: user.id, organizationId: org.id },
  });
  if (opts.apiKey) {
    if (!opts.storeApiKey) throw new Error("bootstrapFirstRun: storeApiKey is required with apiKey");
    await opts.storeApiKey(knex, key.id, opts.apiKey);
  }
  return { email: user.email, password, apiKey: opts.apiKey ?? key.key, userId: user.id, organizationId: org.id };
}

/**
 * Creates the first owner, organization and API key when the `users` table is empty.
 * @returns the credentials (plaintext, shown once by the caller), or null when users already existed.
 * @throws on any failure, after deleting whatever it had created (so the next start tries again).
 */
export async function bootstrapFirstRun(auth: Auth, knex: Knex, opts: BootstrapOptions): Promise<FirstRun | null> {
  return knex.transaction(async (trx) => {
    await trx.raw("select pg_advisory_xact_lock(hashtext(?))", [LOCK]);
    if (await trx("users").first("id")) return null;
    const created: Array<[table: string, id: string]> = [];
    try {
      const first = await createOwnerOrgAndKey(auth, knex, opts, created);
      opts.log.info(
        { email: first.email, organizationId: first.organizationId },
        "first run: owner, organization and API key created",
      );
      return first;
    } catch (err) {
      for (const [table, id] of created.reverse()) await knex(table).where({ id }).delete();
      throw err;
    }
  });
}
