/**
 * Limits on the shape of GraphQL operations (depth, aliases, tokens, bracket nesting, directives; no field
 * suggestions in errors, introspection only when SKIFF_INTROSPECTION allows it), mostly from graphql-armor. The same
 * rules run on HTTP (Apollo) and WebSocket (graphql-ws), since graphql-ws does not run Apollo's plugins. Rejections
 * answer GRAPHQL_VALIDATION_FAILED with the limit named, except the limits checked before parsing (on HTTP by
 * {@link checkDocumentSize}, on WebSocket by {@link parseWithinLimits}): the document's tokens ({@link MAX_TOKENS})
 * and the nesting of its brackets ({@link MAX_NESTING}) are counted by graphql-js's own lexer first, so an oversized or over-nested document is a parse failure (GRAPHQL_PARSE_FAILED, HTTP 400) like any
 * syntax error, and graphql-js's recursive-descent parser never recurses deep enough to overflow the stack (it does
 * at about 2,000 nested `[` or `{`, well within the token limit). (graphql-armor's token plugin re-parses the
 * document in a plugin hook, which turns every syntax error into a 500: graphql-armor issues #571, #751.)
 */
import { ApolloArmor } from "@escape.tech/graphql-armor";
import type { FastifyInstance } from "fastify";
import {
  type ASTVisitor,
  type DocumentNode,
  GraphQLError,
  GraphQLIncludeDirective,
  type GraphQLSchema,
  GraphQLSkipDirective,
  getDirectiveValues,
  getNamedType,
  getNullableType,
  isIntrospectionType,
  isListType,
  Kind,
  Lexer,
  parse,
  type SelectionSetNode,
  Source,
  specifiedRules,
  syntaxError,
  TokenKind,
  type ValidationContext,
  validate,
  visit,
} from "graphql";
import type { Config } from "../config.ts";

/** Most lexical tokens accepted in one GraphQL document (HTTP and WebSocket). */
export const MAX_TOKENS = 5000;

/**
 * Deepest nesting of `{`, `[` and `(` accepted in one GraphQL document (HTTP and WebSocket), checked before parsing:
 * far above any selection depth SKIFF_MAX_QUERY_DEPTH allows in practice, far below the nesting at which graphql-js's
 * parser overflows the stack.
 */
export const MAX_NESTING = 256;

/** Token kinds that open and close a nesting level. */
const OPENING = new Set<string>([TokenKind.BRACE_L, TokenKind.BRACKET_L, TokenKind.PAREN_L]);
const CLOSING = new Set<string>([TokenKind.BRACE_R, TokenKind.BRACKET_R, TokenKind.PAREN_R]);

/** Character codes of `{`, `[` and `(`. */
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const OPEN_PAREN = 0x28;

/**
 * The syntax error (code GRAPHQL_PARSE_FAILED) of a document `text` over {@link MAX_TOKENS} tokens or nesting brackets
 * deeper than {@link MAX_NESTING} levels, found with graphql-js's lexer alone (no recursion, at most MAX_TOKENS tokens
 * read); null when the document is within both (a lexical error is left to the parser, which reports it). A document
 * with no more opening brackets than MAX_NESTING in all (most) is passed after one scan of its characters.
 */
export function documentSizeError(text: string): GraphQLError | null {
  let opening = 0;
  for (let i = 0; i < text.length && opening <= MAX_NESTING; i++) {
    const c = text.charCodeAt(i);
    if (c === OPEN_BRACE || c === OPEN_BRACKET || c === OPEN_PAREN) opening++;
  }
  if (opening <= MAX_NESTING || withinLimits.has(text)) return null;
  const source = new Source(text);
  const lexer = new Lexer(source);
  let tokens = 0;
  let depth = 0;
  try {
    for (let token = lexer.advance(); token.kind !== TokenKind.EOF; token = lexer.advance()) {
      if (++tokens > MAX_TOKENS) {
        return parseFailed(
          syntaxError(source, token.start, `Document contains more than ${MAX_TOKENS} tokens. Parsing aborted.`),
        );
      }
      if (OPENING.has(token.kind) && ++depth > MAX_NESTING) {
        return parseFailed(
          syntaxError(
            source,
            token.start,
            `Document nests brackets deeper than ${MAX_NESTING} levels. Parsing aborted.`,
          ),
        );
      }
      if (CLOSING.has(token.kind)) depth--;
    }
  } catch (error) {
    if (error instanceof GraphQLError) return null;
    throw error;
  }
  // A client repeats its documents: the ones lexed and found within the limits are not lexed again.
  if (rememberedChars + text.length > MAX_REMEMBERED_CHARS) {
    withinLimits.clear();
    rememberedChars = 0;
  }
  withinLimits.add(text);
  rememberedChars += text.length;
  return null;
}

/** Documents with many brackets found within the limits (see {@link documentSizeError}), 4 M characters at most. */
const withinLimits = new Set<string>();
const MAX_REMEMBERED_CHARS = 4_000_000;
let rememberedChars = 0;

/** `error` with the code of a document that does not parse. */
function parseFailed(error: GraphQLError): GraphQLError {
  return new GraphQLError(error.message, {
    source: error.source,
    positions: error.positions,
    extensions: { code: "GRAPHQL_PARSE_FAILED" },
  });
}

/**
 * Parses `text` within the limits checked before parsing ({@link documentSizeError}), as graphql-ws needs it.
 * @throws GraphQLError (code GRAPHQL_PARSE_FAILED) for a document over the limits or with a syntax error.
 */
export function parseWithinLimits(text: string): DocumentNode {
  const refused = documentSizeError(text);
  if (refused) throw refused;
  try {
    return parse(text, { maxTokens: MAX_TOKENS });
  } catch (error) {
    if (error instanceof GraphQLError) throw parseFailed(error);
    throw error;
  }
}

/**
 * Applies {@link documentSizeError} to the document of every `/graphql` request before Apollo sees it (Apollo parses
 * without a nesting limit, and an error thrown from one of its plugin hooks answers 500): over the limits, the answer
 * is 400 `{ errors: [{ message, locations, extensions: { code: "GRAPHQL_PARSE_FAILED" } }] }`, as for any syntax error.
 */
export function checkDocumentSize(app: FastifyInstance): void {
  app.addHook("preHandler", async (request, reply) => {
    if (request.routeOptions.url !== "/graphql") return;
    const from = request.method === "GET" ? request.query : request.body;
    const text = from && typeof from === "object" ? (from as { query?: unknown }).query : undefined;
    if (typeof text !== "string") return;
    const refused = documentSizeError(text);
    if (!refused) return;
    const { message, locations, extensions } = refused.toJSON();
    return reply.code(400).send({ errors: [{ message, locations, extensions }] });
  });
}

/** What graphql-armor's field-suggestion blocking puts in place of a `Did you mean …` suggestion. */
const SUGGESTION_MASK = "[Suggestion hidden]";

/**
 * `message` without its field, argument or enum value suggestions (`Did you mean "x"?`), as graphql-armor's
 * `blockFieldSuggestion` plugin hides them from every HTTP error; graphql-ws errors go through this.
 */
export function withoutSuggestions(message: string): string {
  return message.replace(/Did you mean ".+"/g, SUGGESTION_MASK);
}

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

/** Reports graphql-armor's refusal `error` to `context` as a validation error, without its "Syntax Error: " prefix. */
function reportWithoutSyntaxPrefix(context: ValidationContext | null, error: GraphQLError): void {
  context?.reportError(new GraphQLError(error.message.replace(/^Syntax Error: /, ""), { nodes: error.nodes }));
}

/**
 * Most fields of each name that one operation may select at its root, counted by response key (fields of one key
 * are merged and resolved once): the whole schema (`__schema`, `_service { sdl }`) once, and a few `__type`s.
 */
export const INTROSPECTION_LIMITS: Readonly<Record<string, number>> = { __schema: 1, _service: 1, __type: 10 };

/**
 * Validation rule refusing introspection (`__schema`, `__type`: fields of an introspection type) when
 * SKIFF_INTROSPECTION is false, as graphql-js's NoSchemaIntrospectionCustomRule does, naming the setting.
 */
function noIntrospectionRule(context: ValidationContext): ASTVisitor {
  return {
    Field(node) {
      const type = getNamedType(context.getType());
      if (type && isIntrospectionType(type)) {
        context.reportError(
          new GraphQLError(
            `GraphQL introspection is turned off on this server (SKIFF_INTROSPECTION=false): "${node.name.value}" is not answered`,
            { nodes: node },
          ),
        );
      }
    },
  };
}

/**
 * Validation rule bounding what introspection can make the server build (the cost limit and the execution time limit
 * do not apply to it): an operation selects at most {@link INTROSPECTION_LIMITS} `__schema`, `_service` and `__type`
 * fields at its root (through fragments too), and no list of an introspection type (`types`, `fields`, `args`, …)
 * under an alias, which would repeat the whole schema in one `__schema`. graphql-js's MaxIntrospectionDepthRule
 * (among the specified rules) bounds the nesting of those lists. Refusals are GRAPHQL_VALIDATION_FAILED naming the
 * limit.
 */
export function introspectionLimitsRule(context: ValidationContext): ASTVisitor {
  return {
    OperationDefinition(operation) {
      const keys = new Map<string, Set<string>>();
      const seenFragments = new Set<string>();
      const collect = (selectionSet: SelectionSetNode) => {
        for (const selection of selectionSet.selections) {
          if (selection.kind === Kind.FIELD) {
            const name = selection.name.value;
            if (!(name in INTROSPECTION_LIMITS)) continue;
            const names = keys.get(name) ?? new Set<string>();
            names.add(selection.alias?.value ?? name);
            keys.set(name, names);
          } else if (selection.kind === Kind.INLINE_FRAGMENT) {
            collect(selection.selectionSet);
          } else if (!seenFragments.has(selection.name.value)) {
            seenFragments.add(selection.name.value);
            const fragment = context.getFragment(selection.name.value);
            if (fragment) collect(fragment.selectionSet);
          }
        }
      };
      collect(operation.selectionSet);
      for (const [name, names] of keys) {
        const limit = INTROSPECTION_LIMITS[name] ?? 0;
        if (names.size <= limit) continue;
        context.reportError(
          new GraphQLError(
            `Limit of ${limit} ${name} field${limit === 1 ? "" : "s"} per operation exceeded, found ${names.size}.`,
            {
              nodes: operation,
            },
          ),
        );
      }
    },
    Field(node) {
      if (!node.alias || node.alias.value === node.name.value) return;
      const parent = context.getParentType();
      const type = context.getFieldDef()?.type;
      if (!parent || !isIntrospectionType(parent) || !type || !isListType(getNullableType(type))) return;
      context.reportError(
        new GraphQLError(`Introspection list ${parent.name}.${node.name.value} cannot be selected under an alias.`, {
          nodes: node,
        }),
      );
    },
  };
}

/** Apollo options (`plugins`, `validationRules`, `parseOptions`) and validation rules enforcing the limits. */
export function queryLimits(config: Config) {
  // graphql-armor words its refusals "Syntax Error: …" (they are validation errors) and throws them unless told to
  // report them: each is reported to the validation context without that prefix.
  const reported = { exposeLimits: true, propagateOnRejection: false, onReject: [reportWithoutSyntaxPrefix] };
  const armor = new ApolloArmor({
    // Depth is the nesting of fields: fragment spreads and inline fragments add nothing, and introspection fields
    // count like any other (graphql-js's standard introspection query nests 15 deep).
    maxDepth: { n: config.SKIFF_MAX_QUERY_DEPTH, flattenFragments: true, ignoreIntrospection: false, ...reported },
    // Static cost grows 1.5× per level whatever the data, so the dashboard's ordinary project tree would
    // exceed any useful bound; list sizes are capped by pagination arguments instead (first ≤ 100, etc.).
    costLimit: { enabled: false },
    maxAliases: { n: 30, ...reported },
    maxDirectives: { n: 50, ...reported },
    maxTokens: { enabled: false },
    blockFieldSuggestion: { enabled: true },
  });
  const armored = armor.protect();
  // With SKIFF_INTROSPECTION false, one rule of our own on HTTP and WebSocket alike (Apollo's own would name its
  // constructor option, not the setting: src/server/app.ts leaves Apollo's on).
  const introspection = config.SKIFF_INTROSPECTION ? [] : [noIntrospectionRule];
  const protection = {
    plugins: armored.plugins,
    validationRules: [
      subscriptionDirectivesRule,
      introspectionLimitsRule,
      ...introspection,
      ...armored.validationRules,
    ],
  };
  return {
    apollo: { ...protection, parseOptions: { maxTokens: MAX_TOKENS } },
    /**
     * graphql-ws `validate` option (and the REST rows' documents): the standard rules plus the limits, and no
     * introspection when SKIFF_INTROSPECTION is false. A GraphQLError a rule throws instead of reporting (see
     * {@link subscriptionDirectivesRule}) is returned as the validation error it is.
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
