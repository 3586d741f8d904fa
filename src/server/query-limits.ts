/**
 * Limits on the shape of GraphQL operations (depth, aliases, tokens, directives; no field
 * suggestions in errors), from graphql-armor. The same rules run on HTTP (Apollo) and WebSocket
 * (graphql-ws), since graphql-ws does not run Apollo's plugins. Rejections answer
 * GRAPHQL_VALIDATION_FAILED with the limit named.
 */
import { ApolloArmor } from "@escape.tech/graphql-armor";
import { type DocumentNode, type GraphQLSchema, specifiedRules, validate } from "graphql";
import type { Config } from "../config.ts";

/** Apollo options and validation rules enforcing the configured limits. */
export function queryLimits(config: Config) {
  const armor = new ApolloArmor({
    maxDepth: { n: config.SKIFF_MAX_QUERY_DEPTH, exposeLimits: true },
    // Static cost grows 1.5× per level whatever the data, so the dashboard's ordinary project tree would
    // exceed any useful bound; list sizes are capped by pagination arguments instead (first ≤ 100, etc.).
    costLimit: { enabled: false },
    maxAliases: { n: 30, exposeLimits: true },
    maxDirectives: { n: 50, exposeLimits: true },
    maxTokens: { n: 5000, exposeLimits: true },
    blockFieldSuggestion: { enabled: true },
  });
  const protection = armor.protect();
  return {
    apollo: protection,
    /** graphql-ws `validate` option: the standard rules plus the limits. */
    validate: (schema: GraphQLSchema, document: DocumentNode) =>
      validate(schema, document, [...specifiedRules, ...protection.validationRules]),
  };
}
