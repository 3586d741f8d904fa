/**
 * The server secret (SKIFF_SECRET): signs sessions and encrypts stored secrets (src/db/secrets.ts). Without
 * SKIFF_SECRET a random one is generated once into `<SKIFF_DATA_DIR>/secret`; a canary row in the database
 * (`secret_checks`) proves at start-up that the secret in use is the one the stored secrets were sealed with.
 */
import { randomBytes } from "node:crypto";
import { link, mkdir, readFile, unlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { Knex } from "knex";
import type { Config } from "../config.ts";
import type { SecretBox } from "./secrets.ts";

/**
 * Returns SKIFF_SECRET, or the secret persisted in `<dataDir>/secret` (64 hex characters, mode 0600), creating
 * it when missing. Creation is exclusive (written to a private file, then hard-linked into place, which fails
 * when the name exists), so concurrent first starts all end up with the one secret that won.
 * @throws Error when the file exists but is shorter than 32 characters.
 */
export async function ensureSecret(config: Pick<Config, "SKIFF_SECRET" | "SKIFF_DATA_DIR">): Promise<string> {
  if (config.SKIFF_SECRET) return config.SKIFF_SECRET;
  const file = join(config.SKIFF_DATA_DIR, "secret");
  let secret = await readSecret(file);
  if (secret === undefined) {
    await mkdir(config.SKIFF_DATA_DIR, { recursive: true });
    const draft = `${file}.${process.pid}.${randomBytes(6).toString("hex")}`;
    await writeFile(draft, randomBytes(32).toString("hex"), { mode: 0o600, flag: "wx" });
    try {
      await link(draft, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    } finally {
      await unlink(draft);
    }
    secret = await readSecret(file);
  }
  if (!secret || secret.length < 32) {
    throw new Error(`${file} does not hold a secret of at least 32 characters; remove it or set SKIFF_SECRET`);
  }
  return secret;
}

async function readSecret(file: string): Promise<string | undefined> {
  try {
    return (await readFile(file, "utf8")).trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

const CANARY = "skiff secret check";

/**
 * Checks that `box` opens the canary sealed by the first start on this database, storing the canary when there
 * is none yet (a fresh database, or one from before the check existed). `source` names where the secret came
 * from, for the message.
 * @throws Error explaining that the secret changed, and how to recover, when it does not decrypt.
 */
export async function verifySecret(knex: Knex, box: SecretBox, source: string): Promise<void> {
  await knex("secret_checks")
    .insert({ id: "canary", sealed: box.encrypt(CANARY) })
    .onConflict("id")
    .ignore();
  const { sealed } = (await knex("secret_checks").where({ id: "canary" }).first()) as { sealed: string };
  let opened: string | undefined;
  try {
    opened = box.decrypt(sealed);
  } catch {
    opened = undefined;
  }
  if (opened !== CANARY) {
    throw new Error(
      `The server secret (${source}) is not the one this database's stored secrets were encrypted with, so ` +
        "they could not be read (registry passwords, SSH keys, environment variables, invitations). Start with " +
        "the original secret (SKIFF_SECRET, or the file <SKIFF_DATA_DIR>/secret that was in use), or point " +
        "DATABASE_URL/SKIFF_DATA_DIR at a new database.",
    );
  }
}
