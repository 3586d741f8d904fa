/**
 * The shape of a module's manifest (`src/modules/<domain>/index.ts`): everything a domain contributes to the
 * registries, declared once. `src/modules/index.ts` lists the manifests; the schema's resolvers, the per-request
 * loaders (`ctx.loaders.<name>`), the REST table and the job list are all built from that one array.
 */
import type { Knex } from "knex";
import type { Logger } from "pino";
import type { SecretBox } from "../db/secrets.ts";
import type { Resolvers } from "../generated/graphql.ts";
import type { JobDefinition } from "../jobs/job-definition.ts";
import type { ByIdReads, ComputedColumns, ReadTypes, TableDescriptor } from "../reads/index.ts";
import type { McpTool } from "../shared/mcp-tool.ts";
import type { AnyRestRoute } from "../shared/rest-route.ts";
import type { AccessScope } from "./access/index.ts";
import type { EventSubscriber } from "./events.ts";
import type { AppServices } from "./services.ts";

/**
 * The per-request loaders of every module, namespaced by module name (`ctx.loaders.projects.byId`). Each module
 * adds its entry from its own manifest by declaration merging:
 * `declare module "../module.ts" { interface ModuleLoaders { projects: ProjectLoaders } }`.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by each module's manifest (declaration merging).
export interface ModuleLoaders {}

/** What a module's `createLoaders` receives for one request. */
export interface LoaderDeps {
  knex: Knex;
  /** The caller's memberships and grants: loaders apply visibility with it. */
  scope: AccessScope;
  /**
   * The request's by-id reads (src/reads/by-id.ts): `byId.loader(descriptor, Model)` loads the rows of a table
   * descriptor the caller sees, with the descriptor's SQL visibility.
   */
  byId: ByIdReads;
  secrets: SecretBox;
  /** Every module's loaders of the same request (read them lazily, inside batch functions). */
  loaders: ModuleLoaders;
}

/** A module manifest; every part but the name is optional. */
export interface SkiffModule<Name extends string = string> {
  /** The module's name; also the namespace of its loaders (`ctx.loaders.<name>`). Unique. */
  name: Name;
  /**
   * The tables this module owns: only its files name them in SQL, knex or models; other
   * modules call the named reads and writes and use the SQL fragments it exports. test/architecture/tables.unit.test.ts
   * checks it.
   */
  tables?: readonly string[];
  /** Resolvers of the module's `schema/<domain>.graphql`. */
  resolvers?: Resolvers;
  /**
   * Root fields of the module answerable without credentials (every other root field answers UNAUTHENTICATED to an
   * anonymous caller); each must check whatever credential it takes itself.
   */
  publicRootFields?: readonly string[];
  /** Builds the module's DataLoaders for one request (visibility applied inside); typed by {@link ModuleLoaders}. */
  createLoaders?: (deps: LoaderDeps) => Name extends keyof ModuleLoaders ? ModuleLoaders[Name] : never;
  /** Rows of the REST table (documented REST paths executed as GraphQL operations). */
  restRoutes?: readonly AnyRestRoute[];
  /** Tools of the MCP server at `/mcp` (src/shared/mcp-tool.ts), each answering a row of the module's. */
  mcpTools?: readonly McpTool[];
  /**
   * SQL of the module's types' fields that are columns or relations of its tables (src/reads/compiler.ts): the
   * only implementation of those reads. A plain column of a type in `descriptors` is not declared here: it is
   * derived from the descriptor's columns (src/reads/columns.ts). Fields not in Skiff's database keep their
   * resolvers.
   */
  reads?: ReadTypes;
  /**
   * The columns of its table row that each of the module's computed fields (its resolvers on table types) reads,
   * by type and field: compiled reads write only these for the resolver (src/reads/compiler.ts,
   * `ComputedColumns`); a computed field without an entry receives the whole row.
   */
  computedColumns?: ComputedColumns;
  /**
   * The descriptors of the module's tables that are GraphQL types (src/reads/tables.ts): where their rows are and
   * which the caller sees; compiled reads read objects by id with them (all but those not `foundById`) and derive
   * their types' plain-column fields from their columns.
   */
  descriptors?: readonly TableDescriptor[];
  /** Consumes every domain event (src/modules/events.ts), in the emitter's transaction. */
  onEvent?: EventSubscriber;
  /** Background jobs the module defines (`<domain>.jobs.ts`, see src/jobs/job-definition.ts). */
  // biome-ignore lint/suspicious/noExplicitAny: each job has its own payload type; the runner validates it.
  jobs?: readonly JobDefinition<any>[];
  /**
   * Background workers of its own, started beside the job runner on instances that run background work
   * (`SKIFF_WORKER`) and stopped with it (the webhooks' dispatcher of their deliveries' queue).
   */
  workers?: ReadonlyArray<(services: AppServices, log: Logger, background: BackgroundDatabase) => ModuleWorker>;
}

/**
 * The database connections of background work (the job runner's session pool): a worker's polling statements run
 * there, not on the request pool (`services.knex`), so that an idle instance's polls take no request connection and
 * count among no request's statements.
 */
export interface BackgroundDatabase {
  /** Runs `sql` (`$1`… placeholders) with `values`, as a named prepared statement when `name` is given. */
  query<R>(statement: { name?: string; text: string; values: unknown[] }): Promise<{ rows: R[] }>;
}

/** A running background worker of a module (see {@link SkiffModule.workers}). */
export interface ModuleWorker {
  /** Units of work in flight (what `/readyz` and the shutdown wait for). */
  readonly running: number;
  /** Takes no new work; lets the work in flight finish until `deadlineMs` from now, then gives it back. */
  stop(deadlineMs: number): Promise<void>;
}

/** Declares a module manifest (keeps its literal name, so `createLoaders` is checked against {@link ModuleLoaders}). */
export function defineModule<const Name extends string>(module: SkiffModule<Name>): SkiffModule<Name> {
  return module;
}
