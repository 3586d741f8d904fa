/**
 * Limits on the shape of GraphQL operations (depth, aliases, tokens, directives; no field
 * suggestions in errors), from graphql-armor. The same rules run on HTTP (Apollo) and WebSocket
 * (graphql-ws), since graphql-ws does not run Apollo's plugins. Rejections answer
 * GRAPHQL_VALIDATION_FAILED with the limit named, except the token limit: graphql-js's own parser enforces it
 * (`maxTokens`), so an oversized document is a parse failure (GRAPHQL_PARSE_FAILED, HTTP 400) like any
 * syntax error. (graphql-armor's token plugin re-parses the document in a plugin hook, which turns every
 * syntax error into a 500: graphql-armor issues #571, #751.)
 */
import { ApolloArmor } from "@escape.tech/graphql-armor";
import { type DocumentNode, type GraphQLSchema, specifiedRules, validate } from "graphql";
import type { Config } from "../config.ts";

/** Most lexical tokens accepted in one GraphQL document (HTTP and WebSocket). */
export const MAX_TOKENS = 5000;

/** Apollo options (`plugins`, `validationRules`, `parseOptions`) and validation rules enforcing the limits. */
export function queryLimits(config: Config) {
  const armor = new ApolloArmor({
    maxDepth: { n: config.SKIFF_MAX_QUERY_DEPTH, exposeLimits: true },
    // Static cost grows 1.5× per level whatever the data, so the dashboard's ordinary project tree would
    // exceed any useful bound; list sizes are capped by pagination arguments instead (first ≤ 100, etc.).
    costLimit: { enabled: false },
    maxAliases: { n: 30, exposeLimits: true },
    maxDirectives: { n: 50, exposeLimits: true },
    maxTokens: { enabled: false },
    blockFieldSuggestion: { enabled: true },
  });
  const protection = armor.protect();
  return {
    apollo: { ...protection, parseOptions: { maxTokens: MAX_TOKENS } },
    /** graphql-ws `validate` option: the standard rules plus the limits. */
    validate: (schema: GraphQLSchema, document: DocumentNode) =>
      validate(schema, document, [...specifiedRules, ...protection.validationRules]),
  };
}
