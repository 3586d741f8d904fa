/**
 * The embedded cluster's superuser password: random (32 bytes, hex), generated when the cluster is created and
 * kept in `<dataDir>/postgres-password` (mode 0600), so that other local users cannot log in on 127.0.0.1.
 */
import { randomBytes } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";

/** Path of the password file of data directory `dataDir`. */
export function passwordFile(dataDir: string): string {
  return join(dataDir, "postgres-password");
}

/** A new random password (64 hex characters: safe in URLs as is). */
export function newPassword(): string {
  return randomBytes(32).toString("hex");
}

/** The stored password of `dataDir`, or undefined when there is none yet. */
export async function readPassword(dataDir: string): Promise<string | undefined> {
  const text = await readFile(passwordFile(dataDir), "utf8").catch(() => undefined);
  return text?.trim() || undefined;
}

/** Stores `password` for `dataDir` (mode 0600, replacing an older one). */
export async function writePassword(dataDir: string, password: string): Promise<void> {
  await writeFile(passwordFile(dataDir), `${password}\n`, { mode: 0o600 });
}

/**
 * Connection URL of database `database` on the embedded cluster of `dataDir` listening on `port`,
 * e.g. `postgres://postgres:<password>@127.0.0.1:54329/skiff`.
 * @throws Error when the data directory has no password file (no embedded cluster was created there).
 */
export async function embeddedUrl(dataDir: string, port: number, database = "postgres"): Promise<string> {
  const password = await readPassword(dataDir);
  if (!password) throw new Error(`No embedded PostgreSQL password in ${passwordFile(dataDir)}`);
  return `postgres://postgres:${password}@127.0.0.1:${port}/${database}`;
}
