/**
 * Compiled reads, the one implementation of every read of Skiff's tables through GraphQL, and their public surface
 * (code outside src/reads/ imports only this file: test/architecture/reads-surface.unit.test.ts): the compiler writing
 * a selection as one SQL statement that builds the answer's JSON text (compiler.ts) with the statement writer it
 * shares with the by-id reads (condition-writer.ts), the helpers modules declare their fields with (declarations.ts),
 * the fields derived from the descriptors' columns (columns.ts), what reads need of a request (context.ts), the
 * planner choosing how a query runs (planner.ts), the table descriptors modules describe their tables with
 * (tables.ts), the services' by-id reads over the same visibility (by-id.ts), the resolvers running the declarations
 * inside graphql-js (resolvers.ts), the computed fields spliced into a one-statement answer (resolved-sites.ts) and
 * the statement runner (statements.ts), and what a subscription result depended on of its caller, so that
 * subscribers who agree on it share it (caller-dependencies.ts).
 */
export * from "./by-id.ts";
export { isAuthenticated, SHARING_PROBE, type SharingProbe } from "./caller-dependencies.ts";
export * from "./columns.ts";
export * from "./compiler.ts";
export { SqlConditionWriter } from "./condition-writer.ts";
export type * from "./context.ts";
export * from "./declarations.ts";
export {
  answerQuery,
  type CallerConfirmation,
  processReadMode,
  type ReadMode,
  type ReadPlan,
  setProcessReadMode,
} from "./planner.ts";
export {
  compiledReadReferences,
  isKeyReader,
  readCallerOf,
  settledFingerprint,
  withCompiledReads,
} from "./resolvers.ts";
export type { ReadStatementOptions } from "./statements.ts";
export * from "./tables.ts";
