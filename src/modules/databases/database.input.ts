/**
 * The input rules of a database service, one implementation for the site import request (spec: "Import request"
 * `database`) and the `createDatabase` mutation: engine, name, user and password.
 */
import { z } from "zod";
import { requiredOr, text } from "../../shared/input-fields.ts";

/** Database engines (spec: database.type). */
export const databaseTypeSchema = z.enum(
  ["mariadb", "mysql", "postgres", "mongodb"],
  requiredOr("one of mariadb, mysql, postgres, mongodb"),
);

/** Database name: 1 to 63 characters, letters, digits, `_` and `-`. */
export const databaseNameSchema = text(63).regex(
  /^[A-Za-z0-9_][A-Za-z0-9_-]*$/,
  "Letters, digits, _ and - only, not starting with -",
);

/** Database user: 1 to 63 characters, starting with a letter or `_`; letters, digits, `_`, `.`, `-`. */
export const databaseUserSchema = text(63).regex(
  /^[A-Za-z_][A-Za-z0-9_.-]*$/,
  "Must start with a letter or _; letters, digits, _ . - only",
);

/** Database password: 1 to 256 characters without control characters (not trimmed). */
export const databasePasswordSchema = z
  .string(requiredOr("a string"))
  .min(1, "Must not be empty")
  .max(256, "At most 256 characters")
  .regex(/^[^\p{Cc}]*$/u, "Must not contain control characters");

/**
 * Engines whose official images refuse `root` as the user they create (`MYSQL_USER`, `MARIADB_USER`): the image
 * sets up `root` itself and does not start when asked to create it again.
 */
const ROOT_RESERVED: ReadonlySet<string> = new Set(["mysql", "mariadb"]);

/**
 * A database to create, every field required (the import request's `database`; `createDatabase` extends it with
 * `safeExtend`, which keeps this check): `user` `root` (any case) is refused for mysql and mariadb, under `user`.
 */
export const databaseSchema = z
  .strictObject(
    { type: databaseTypeSchema, name: databaseNameSchema, user: databaseUserSchema, password: databasePasswordSchema },
    requiredOr("an object"),
  )
  .superRefine((db, ctx) => {
    if (ROOT_RESERVED.has(db.type) && db.user.toLowerCase() === "root") {
      ctx.addIssue({
        code: "custom",
        path: ["user"],
        message: `Must not be root for ${db.type}: the image creates root itself and refuses it as the user`,
      });
    }
  });
