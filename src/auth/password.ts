/**
 * Password hashing for e-mail/password accounts: argon2id (`@node-rs/argon2` defaults: m=19 MiB, t=2, p=1,
 * the OWASP baseline), stored as a PHC string (`$argon2id$v=19$...`). Replaces better-auth's default scrypt.
 */
import { hash, verify } from "@node-rs/argon2";

/** Minimum length of a password (spec: Limits, "password length: minimum 8 characters"). */
export const MIN_PASSWORD_LENGTH = 8;

/** Hashes `password` with argon2id. @returns the PHC-encoded hash. */
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

/** True when `password` matches the PHC `hash`; false (never throws) for a mismatch or a malformed hash. */
export async function verifyPassword(data: { hash: string; password: string }): Promise<boolean> {
  try {
    return await verify(data.hash, data.password);
  } catch {
    return false;
  }
}
