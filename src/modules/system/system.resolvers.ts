/** Resolvers of the root types declared in schema/base.graphql. */
import type { Resolvers } from "../../generated/graphql.ts";

/** `Mutation.ping`. */
export const systemResolvers: Resolvers = {
  Mutation: {
    ping: () => true,
  },
};
