/**
 * Identifier scheme: TypeIDs, `<prefix>_<26 chars of base32 UUIDv7>`, e.g. `prj_01jd3v7q6mf3ks0t1r4y8c2xzn`.
 * Opaque to clients, globally unique, time-sortable (ordering by id orders by creation time).
 */
import { typeid } from "typeid-js";

/** Prefix of each entity's ids. */
export const ID_PREFIX = {
  user: "usr",
  session: "ses",
  account: "acc",
  verification: "ver",
  organization: "org",
  member: "mem",
  invitation: "inv",
  apiKey: "key",
  twoFactor: "tfa",
  plan: "plan",
  grant: "grt",
  project: "prj",
  environment: "env",
  application: "app",
  database: "db",
  domain: "dom",
  envVar: "var",
  deployment: "dpl",
  gitProvider: "gitp",
  registry: "reg",
  sshKey: "ssh",
  siteImport: "imp",
  agentToken: "agt",
  outbox: "mail",
  notificationChannel: "nch",
  jwk: "jwk",
  paymentGatewayService: "pgs",
  paymentRelay: "prl",
  auditEvent: "aud",
} as const;

/** Entity names that have an id prefix. */
export type IdKind = keyof typeof ID_PREFIX;

/** Returns a new TypeID string for `kind`. */
export function newId(kind: IdKind): string {
  return typeid(ID_PREFIX[kind]).toString();
}

/**
 * A new TypeID for `kind` and the instant its UUIDv7 holds (milliseconds): a row stamped with that instant orders
 * the same by id and by time (an id's order within one millisecond is random; their instants are then equal).
 */
export function newTimedId(kind: IdKind): { id: string; at: Date } {
  const id = typeid(ID_PREFIX[kind]);
  // The UUIDv7's first 6 bytes: its Unix time in milliseconds, big-endian.
  const bytes = id.toUUIDBytes();
  let ms = 0;
  for (let i = 0; i < 6; i++) ms = ms * 256 + bytes[i]!;
  return { id: id.toString(), at: new Date(ms) };
}
