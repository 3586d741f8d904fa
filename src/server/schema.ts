/**
 * Builds the executable schema from schema/*.graphql: merged SDL, graphql-scalars, module resolvers,
 * as a Federation 2 subgraph (`buildSubgraphSchema`). Every root field except `_service` requires
 * credentials; that check and the execution deadline are applied here once, not in each resolver.
 */
import { buildSubgraphSchema } from "@apollo/subgraph";
import { mergeResolvers } from "@graphql-tools/merge";
import { MapperKind, mapSchema } from "@graphql-tools/utils";
import { defaultFieldResolver, type GraphQLSchema } from "graphql";
import { DateTimeResolver, EmailAddressResolver, JSONObjectResolver, URLResolver } from "graphql-scalars";
import { auditedMutation } from "../modules/audit/index.ts";
import type { Context } from "../modules/context.ts";
import { modulePublicRootFields, moduleReads, moduleResolvers, moduleRows, moduleTypeDefs } from "../modules/index.ts";
import {
  compiledReadReferences,
  isAuthenticated,
  isKeyReader,
  type ReadStatementOptions,
  withCompiledReads,
} from "../reads/index.ts";
import { UnauthenticatedError } from "../shared/errors.ts";
import { withDeadline } from "./query-cost.ts";

/**
 * Root fields answerable without credentials: federation gateways fetch the SDL anonymously (`_service`), plus
 * those the modules declare public in their manifests (e.g. the invitation page, docs sites).
 */
const PUBLIC_ROOT_FIELDS = new Set(["_service", ...modulePublicRootFields]);

/**
 * Builds the executable subgraph schema: the modules' resolvers, with compiled reads (src/reads/resolvers.ts)
 * as the implementation of every declared field; `reads`: how their statements run (time limit, prepared)
 * (SKIFF_EXECUTION_TIMEOUT_MS).
 */
export function buildSchema(reads: ReadStatementOptions = { timeoutMs: 10_000, prepare: false }): GraphQLSchema {
  const resolvers = mergeResolvers([
    {
      DateTime: DateTimeResolver,
      EmailAddress: EmailAddressResolver,
      JSONObject: JSONObjectResolver,
      URL: URLResolver,
    },
    ...moduleResolvers,
    compiledReadReferences(moduleReads, moduleRows, reads),
  ]);
  const subgraph = buildSubgraphSchema({ typeDefs: moduleTypeDefs, resolvers } as Parameters<
    typeof buildSubgraphSchema
  >[0]);
  const schema = withCompiledReads(subgraph, moduleReads, moduleRows, reads);
  return mapSchema(schema, {
    // Fields with their own resolver stop at the request's execution deadline (src/server/query-cost.ts); a field
    // read from its parent's compiled JSON does no work to stop.
    [MapperKind.OBJECT_FIELD]: (field) =>
      field.resolve && !isKeyReader(field.resolve) ? { ...field, resolve: withDeadline(field.resolve) } : field,
    [MapperKind.ROOT_FIELD]: (rootField, fieldName, typeName) => {
      // Every mutation leaves one audit entry, in its change's transaction (src/modules/audit/audit-mutations.ts).
      const field =
        typeName === "Mutation"
          ? {
              ...rootField,
              resolve: auditedMutation(
                fieldName,
                Object.entries(rootField.args ?? {}).map(([name, arg]) => ({ name, type: arg.type })),
                rootField.resolve ?? defaultFieldResolver,
              ),
            }
          : rootField;
      if (PUBLIC_ROOT_FIELDS.has(fieldName))
        return field.resolve ? { ...field, resolve: withDeadline(field.resolve) } : field;
      const resolve = withDeadline(field.resolve ?? defaultFieldResolver);
      const subscribe = field.subscribe;
      return {
        ...field,
        resolve: (src, args, ctx: Context, info) => {
          // Read as a dependency: a subscription event's result is shared only among authenticated subscribers.
          if (!isAuthenticated(ctx)) throw new UnauthenticatedError();
          return resolve(src, args, ctx, info);
        },
        ...(subscribe && {
          subscribe: (
            src: unknown,
            args: Record<string, unknown>,
            ctx: Context,
            info: Parameters<typeof resolve>[3],
          ) => {
            if (!ctx.caller) throw new UnauthenticatedError();
            return subscribe(src, args, ctx, info);
          },
        }),
      };
    },
  });
}
