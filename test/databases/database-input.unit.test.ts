/**
 * The input rules of a database service (src/modules/databases/database.input.ts), shared by the site import request
 * and `createDatabase`: engine, name, user and password.
 */
import { describe, expect, it } from "vitest";
import {
  databaseNameSchema,
  databasePasswordSchema,
  databaseSchema,
  databaseTypeSchema,
  databaseUserSchema,
} from "../../src/modules/databases/database.input.ts";

const ok = (schema: { safeParse: (v: unknown) => { success: boolean } }, value: unknown) =>
  schema.safeParse(value).success;

describe("database input", () => {
  it("accepts the four engines only", () => {
    for (const type of ["mariadb", "mysql", "postgres", "mongodb"]) expect(ok(databaseTypeSchema, type)).toBe(true);
    expect(ok(databaseTypeSchema, "redis")).toBe(false);
    expect(ok(databaseTypeSchema, undefined)).toBe(false);
  });

  it("checks the name: 1 to 63 letters, digits, _ and -, not starting with -", () => {
    expect(ok(databaseNameSchema, "app_db-1")).toBe(true);
    expect(ok(databaseNameSchema, "x".repeat(63))).toBe(true);
    expect(ok(databaseNameSchema, "x".repeat(64))).toBe(false);
    expect(ok(databaseNameSchema, "-db")).toBe(false);
    expect(ok(databaseNameSchema, "my db")).toBe(false);
    expect(ok(databaseNameSchema, "")).toBe(false);
  });

  it("checks the user: starts with a letter or _, then letters, digits, _ . -", () => {
    expect(ok(databaseUserSchema, "_app.user-1")).toBe(true);
    expect(ok(databaseUserSchema, "1user")).toBe(false);
    expect(ok(databaseUserSchema, "user@host")).toBe(false);
  });

  it("keeps the password as given, refusing empty, over 256 characters and control characters", () => {
    expect(databasePasswordSchema.parse(" a b@c ")).toBe(" a b@c ");
    expect(ok(databasePasswordSchema, "x".repeat(256))).toBe(true);
    expect(ok(databasePasswordSchema, "x".repeat(257))).toBe(false);
    expect(ok(databasePasswordSchema, "")).toBe(false);
    expect(ok(databasePasswordSchema, "a\nb")).toBe(false);
  });

  it("requires every field and no other in a database to create", () => {
    const database = { type: "postgres", name: "app", user: "app", password: "secret" };
    expect(databaseSchema.parse(database)).toEqual(database);
    expect(ok(databaseSchema, { ...database, extra: 1 })).toBe(false);
    expect(ok(databaseSchema, { type: "postgres", name: "app", user: "app" })).toBe(false);
  });

  it("refuses root (any case) as the user of mysql and mariadb, under user; other engines take it", () => {
    const database = { name: "app", password: "secret" };
    for (const [type, user] of [
      ["mysql", "root"],
      ["mariadb", "Root"],
    ]) {
      const issues = databaseSchema.safeParse({ ...database, type, user }).error?.issues ?? [];
      expect(issues.map((i) => i.path)).toEqual([["user"]]);
    }
    expect(ok(databaseSchema, { ...database, type: "postgres", user: "root" })).toBe(true);
    expect(ok(databaseSchema, { ...database, type: "mysql", user: "rooted" })).toBe(true);
  });
});
