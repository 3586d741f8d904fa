/**
 * Compiled reads, the one implementation of every read of Skiff's tables through GraphQL: the compiler writing a
 * selection as one SQL statement that builds the answer's JSON text (compiler.ts), the helpers modules declare their
 * fields with (declarations.ts), the resolvers running those declarations inside graphql-js (resolvers.ts), the
 * computed fields spliced into a one-statement answer (resolved-sites.ts) and the statement runner (statements.ts).
 */
export * from "./compiler.ts";
export type * from "./context.ts";
export * from "./declarations.ts";
