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
import {
  type ASTVisitor,
  type DocumentNode,
  GraphQLError,
  GraphQLIncludeDirective,
  type GraphQLSchema,
  GraphQLSkipDirective,
  getDirectiveValues,
  specifiedRules,
  type ValidationContext,
  validate,
  visit,
} from "graphql";
import type { Config } from "../config.ts";

/** Most lexical tokens accepted in one GraphQL document (HTTP and WebSocket). */
export const MAX_TOKENS = 5000;

/**
 * Validation rule run at the document, before graphql-js's own rules. graphql-js's
 * single-field-subscription rule evaluates the `@skip`/`@include` arguments of a subscription's selections and *throws*
 * instead of reporting when one is not a valid Boolean (e.g. a list nested 150 deep) or a non-null variable without a
 * default; Apollo answered that 500 (logged at error level) and graphql-ws closed the socket with 4500. This rule makes
 * the same evaluation first, reports each such directive as a validation error (400 GRAPHQL_VALIDATION_FAILED) and
 * takes it out of the rejected document, so no rule throws on it. (The document is discarded: it failed validation.)
 */
export function subscriptionDirectivesRule(context: ValidationContext): ASTVisitor {
  return {
    Document(document) {
      if (!document.definitions.some((d) => d.kind === "OperationDefinition" && d.operation === "subscription")) return;
      // Every selection a subscription may reach: its own and those of the named fragments.
      const roots = document.definitions.filter(
        (d) => d.kind === "FragmentDefinition" || (d.kind === "OperationDefinition" && d.operation === "subscription"),
      );
      for (const root of roots) {
        visit(root, {
          enter(node) {
            if (node.kind === "OperationDefinition" || !("directives" in node) || !node.directives?.length) return;
            const kept = node.directives.filter((directive) => {
              const definition = [GraphQLSkipDirective, GraphQLIncludeDirective].find(
                (d) => d.name === directive.name.value,
              );
              if (!definition) return true;
              try {
                getDirectiveValues(definition, { directives: [directive] }, Object.create(null));
                return true;
              } catch (error) {
                if (!(error instanceof GraphQLError)) throw error;
                context.reportError(new GraphQLError(error.message, { nodes: directive }));
                return false;
              }
            });
            if (kept.length !== node.directives.length) (node as { directives: unknown }).directives = kept;
          },
        });
      }
    },
  };
}

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
  const armored = armor.protect();
  const protection = { ...armored, validationRules: [subscriptionDirectivesRule, ...armored.validationRules] };
  return {
    apollo: { ...protection, parseOptions: { maxTokens: MAX_TOKENS } },
    /**
     * graphql-ws `validate` option: the standard rules plus the limits. A GraphQLError a rule throws instead of
     * reporting (see {@link subscriptionDirectivesRule}) is returned as the validation error it is.
     */
    validate: (schema: GraphQLSchema, document: DocumentNode): readonly GraphQLError[] => {
      try {
        return validate(schema, document, [...specifiedRules, ...protection.validationRules]);
      } catch (error) {
        if (error instanceof GraphQLError) return [error];
        throw error;
      }
    },
  };
}
