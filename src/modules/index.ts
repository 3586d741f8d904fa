/**
 * The modules of Skiff, in one array: every registry (resolvers, per-request loaders, REST rows, jobs) is built
 * from it, and the SDL of schema/*.graphql the compiled reads derive the descriptors' column fields with. A new domain
 * is its folder with an `index.ts` manifest, its `schema/<domain>.graphql`, its migration and one line here.
 */

import type { Logger } from "pino";
import type { Resolvers } from "../generated/graphql.ts";
import type { JobDefinition } from "../jobs/job-definition.ts";
import {
  ByIdReads,
  bindRelations,
  type ColumnField,
  type ComputedColumns,
  columnFields,
  type ReadRows,
  type ReadTypes,
  sqlRowsOf,
  withColumnFields,
} from "../reads/index.ts";
import type { McpTool } from "../shared/mcp-tool.ts";
import type { AnyRestRoute } from "../shared/rest-route.ts";
import { accessModule, useStandingSources } from "./access/index.ts";
import { agentModule } from "./agent/index.ts";
import { apiKeysModule } from "./api-keys/index.ts";
import { applicationEnvironmentIdSql, applicationProjectIdSql, applicationsModule } from "./applications/index.ts";
import { auditModule } from "./audit/index.ts";
import { sqlCallerOf } from "./context.ts";
import { databasesModule } from "./databases/index.ts";
import { deploymentsModule } from "./deployments/index.ts";
import { docsModule } from "./docs-theming/index.ts";
import { subscribeToEvents } from "./events.ts";
import { mailModule } from "./mail/index.ts";
import type { BackgroundDatabase, LoaderDeps, ModuleLoaders, ModuleWorker, SkiffModule } from "./module.ts";
import { withOpenApiDocuments } from "./openapi.routes.ts";
import { organizationsModule, planFeaturesSql } from "./organizations/index.ts";
import { paymentsModule } from "./payments/index.ts";
import { projectsModule } from "./projects/index.ts";
import { providersModule } from "./providers/index.ts";
import type { AppServices } from "./services.ts";
import { siteImportsModule } from "./site-imports/index.ts";
import { systemModule } from "./system/index.ts";
import { teamModule } from "./team/index.ts";
import { transferModule } from "./transfer/index.ts";
import { loadTypeDefs } from "./type-defs.ts";
import { webhooksModule } from "./webhooks/index.ts";

/** Every module, in registration order. */
export const modules: readonly SkiffModule[] = [
  systemModule,
  accessModule,
  organizationsModule,
  projectsModule,
  applicationsModule,
  databasesModule,
  deploymentsModule,
  agentModule,
  teamModule,
  apiKeysModule,
  siteImportsModule,
  providersModule,
  mailModule,
  webhooksModule,
  paymentsModule,
  docsModule,
  auditModule,
  transferModule,
];

// A caller's standing (access) reads the plan's features and a granted application's project from their owners.
useStandingSources({
  planFeatures: planFeaturesSql,
  applicationProjectId: applicationProjectIdSql,
  applicationEnvironmentId: applicationEnvironmentIdSql,
});

// Consumers of domain events, from their manifests (producers emit through src/modules/events.ts).
for (const m of modules) if (m.onEvent) subscribeToEvents(m.onEvent);

/** The per-request loaders of every module, namespaced by module name (`ctx.loaders.projects.byId`). */
export type Loaders = ModuleLoaders;

/** Resolver maps of every module, merged by the transport into one schema. */
export const moduleResolvers: Resolvers[] = modules.flatMap((m) => (m.resolvers ? [m.resolvers] : []));

/** Root fields the modules declare answerable without credentials. */
export const modulePublicRootFields: readonly string[] = modules.flatMap((m) => m.publicRootFields ?? []);

/** The GraphQL schema's SDL: schema/*.graphql merged (one file per domain). */
export const moduleTypeDefs = loadTypeDefs();

const descriptors = modules.flatMap((m) => m.descriptors ?? []);

const declaredReads: ReadTypes = {};
for (const m of modules) {
  for (const [type, fields] of Object.entries(m.reads ?? {})) {
    declaredReads[type] = { ...declaredReads[type], ...fields };
  }
}

/**
 * The fields of the descriptors' types that are plain columns of their tables (src/reads/columns.ts), each marked
 * whether declared by hand: those not declared are compiled from their column.
 */
export const moduleColumnFields: readonly ColumnField[] = columnFields(descriptors, moduleTypeDefs, declaredReads);

/**
 * Every module's compilable fields (src/reads/compiler.ts), merged per type, with the plain columns of the
 * descriptors' types not declared by hand (src/reads/columns.ts), relations bound to their source's descriptor
 * (src/reads/declarations.ts `bindRelations`).
 */
export const moduleReads: ReadTypes = bindRelations(
  withColumnFields(declaredReads, moduleColumnFields),
  Object.fromEntries(descriptors.map((d) => [d.typeName, d])),
);

/** Every module's computed fields' columns (src/reads/compiler.ts `ComputedColumns`), merged per type. */
export const moduleComputedColumns: ComputedColumns = {};
for (const m of modules) {
  for (const [type, fields] of Object.entries(m.computedColumns ?? {})) {
    moduleComputedColumns[type] = { ...moduleComputedColumns[type], ...fields };
  }
}

/** Every module's table descriptors as row sources (src/reads/tables.ts): how a row of each table type is found by id. */
export const moduleRows: ReadRows = sqlRowsOf(descriptors);

/** Every module's MCP tools (src/shared/mcp-tool.ts), in module order. */
export const moduleMcpTools: readonly McpTool[] = modules.flatMap((m) => m.mcpTools ?? []);

/** The REST table: every module's rows, in registration order. */
export const restRoutes: readonly AnyRestRoute[] = withOpenApiDocuments(modules.flatMap((m) => m.restRoutes ?? []));

/** Every module's background jobs, handed to the queue and the runner by the transport's start-up. */
export const moduleJobs: readonly JobDefinition[] = modules.flatMap((m) => (m.jobs ?? []) as readonly JobDefinition[]);

/** Starts every module's background workers (see `SkiffModule.workers`), beside the job runner. */
export function startModuleWorkers(services: AppServices, log: Logger, background: BackgroundDatabase): ModuleWorker[] {
  return modules.flatMap((m) => (m.workers ?? []).map((start) => start(services, log, background)));
}

/**
 * Builds the loaders of one request for every module (fresh per request: caches never cross callers); `now` is the
 * request's clock (`services.now`).
 */
export function createLoaders(deps: Omit<LoaderDeps, "loaders" | "byId"> & { now: () => Date }): Loaders {
  const loaders = {} as Record<string, unknown>;
  const { knex, scope, secrets, now } = deps;
  const byId = new ByIdReads(knex, () => sqlCallerOf(scope, now()));
  const full: LoaderDeps = { knex, scope, secrets, byId, loaders: loaders as unknown as Loaders };
  for (const m of modules) {
    if (m.createLoaders) loaders[m.name] = m.createLoaders(full);
  }
  return loaders as unknown as Loaders;
}
