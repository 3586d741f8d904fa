/**
 * What compiled reads need of a request: who is calling (for visibility), the database and the clock, and the
 * request itself as the key of its memo (errors of nested declarations, re-read loaders: resolvers.ts). The
 * modules' `Context` (src/modules/context.ts) satisfies {@link ReadContext} as it is; the transport hands the
 * planner nothing else but the caller's confirmation (planner.ts).
 */
import type { Knex } from "knex";
import type { Logger } from "pino";

/**
 * The caller's standing in one organization, which the modules' declarations read for visibility (role, grants,
 * plan features). Compiled reads only carry it from the request's scope to the declarations; the access module,
 * which owns standings, gives it its fields by declaration merging (`OrgAccess`, src/auth/access/standing.ts).
 */
export interface ReadStanding {
  /** The organization (`organizations.id`). */
  organizationId: string;
}

/** A SQL condition and its bindings (`?` placeholders: for `knex.raw`, `whereRaw` or {@link ReadCompiler.condition}). */
export interface SqlCondition {
  sql: string;
  bindings: Knex.Value[];
}

/** The authenticated caller as compiled reads see it (the `Caller` of src/auth/caller.ts satisfies it). */
export interface ReadPrincipal {
  userId: string;
  /** The organization the request acts on (null: none). */
  organizationId: string | null;
  via: "session" | "apiKey" | "agentToken";
  /** `sessions.id` when `via` is "session". */
  sessionId?: string;
  /** `api_keys.id` when `via` is "apiKey". */
  apiKeyId?: string;
  /** True: the caller acts on `organizationId` alone (a statement kept for it is kept apart: planner.ts). */
  activeOrganizationOnly?: boolean;
}

/**
 * One request as compiled reads see it; the object itself keys the request's memo, so it must be the same object
 * for every field of one operation (Apollo's copy of the context is).
 */
export interface ReadContext {
  /** The pool, or the transaction the request is in. */
  knex: Knex;
  /** null: anonymous (sees only public rows). */
  caller: ReadPrincipal | null;
  /** The caller's standing in every organization it may act on, loaded once per request. */
  scope: {
    memberships(): Promise<ReadonlyMap<string, ReadStanding>>;
    /** The memberships when already loaded, else undefined (a fan-out's synchronous path). */
    settledMemberships?(): ReadonlyMap<string, ReadStanding> | undefined;
  };
  /** The instance's clock (`now()`, which tests may move), for states derived from times. */
  services: { now(): Date };
  log: Pick<Logger, "warn">;
}
