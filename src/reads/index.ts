/**
 * Compiled reads, the one implementation of every read of Skiff's tables through GraphQL: the compiler writing a
 * selection as one SQL statement that builds the answer's JSON text (compiler.ts), the table descriptors modules
 * describe their tables with (tables.ts), the helpers modules declare their fields with (declarations.ts), the
 * services' by-id reads over the same visibility (by-id.ts), the resolvers running those declarations inside
 * graphql-js (resolvers.ts), the computed fields spliced into a one-statement answer (resolved-sites.ts) and the
 * statement runner (statements.ts).
 */
export * from "./by-id.ts";
export * from "./compiler.ts";
export * from "./declarations.ts";
export * from "./tables.ts";
