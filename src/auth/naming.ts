/**
 * How better-auth's models and fields map onto our SQL names: plural snake_case tables, snake_case columns.
 * The tables themselves are created by `migrations/20261122000100_create_auth_tables.ts`; keep both in step
 * (test/auth/auth.test.ts checks every field better-auth knows against the database).
 */
import { snakeCase } from "../db/column-names.ts";
import type { IdKind } from "../db/ids.ts";

/** SQL table of each better-auth model (keys are better-auth's model names). */
export const AUTH_TABLES = {
  user: "users",
  session: "sessions",
  account: "accounts",
  verification: "verifications",
  organization: "organizations",
  member: "members",
  invitation: "invitations",
  twoFactor: "two_factors",
  apikey: "api_keys",
  jwks: "jwks",
} as const;

/** A better-auth model name that has a table of ours. */
export type AuthModel = keyof typeof AUTH_TABLES;

/** TypeID kind of the primary key of each model (see `src/db/ids.ts`). */
export const AUTH_ID_KINDS: Record<AuthModel, IdKind> = {
  user: "user",
  session: "session",
  account: "account",
  verification: "verification",
  organization: "organization",
  member: "member",
  invitation: "invitation",
  twoFactor: "twoFactor",
  apikey: "apiKey",
  jwks: "jwk",
};

/** better-auth `fields` option mapping each camelCase field name to its snake_case column. */
export function snakeFields<const K extends string>(...names: K[]): Record<K, string> {
  return Object.fromEntries(names.map((n) => [n, snakeCase(n)])) as Record<K, string>;
}
