/**
 * Which failures are a database outage, answered 503 with Retry-After (src/shared/database-unavailable.ts): the
 * codes of a connection the server cut, refused, or whose login it refuses — wrapped as Knex, GraphQL and
 * AggregateError wrap them — and not the errors of a statement (a constraint, bad input).
 */
import { describe, expect, it } from "vitest";
import { isDatabaseUnavailable } from "../../src/shared/database-unavailable.ts";

/** A pg error with SQLSTATE `code`. */
const pg = (code: string, message = "x") => Object.assign(new Error(message), { code, severity: "FATAL" });

describe("isDatabaseUnavailable", () => {
  it("is true for a cut, refused or refused-login connection, however wrapped", () => {
    for (const error of [
      pg("57P01", "terminating connection due to administrator command"),
      pg("08006"),
      pg("53300", "too many connections"),
      pg("28P01", 'password authentication failed for user "postgres"'),
      pg("28000", 'role "x" is not permitted to log in'),
      Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" }),
      new Error("Knex: Timeout acquiring a connection. The pool is probably full."),
      { originalError: pg("28P01") },
      new AggregateError([new Error("other"), pg("57P03")]),
    ]) {
      expect(isDatabaseUnavailable(error), String((error as Error).message ?? JSON.stringify(error))).toBe(true);
    }
  });

  it("is false for a statement's own errors", () => {
    for (const error of [pg("23505", "duplicate key"), pg("22P02", "invalid input syntax"), new Error("boom"), null]) {
      expect(isDatabaseUnavailable(error)).toBe(false);
    }
  });
});
