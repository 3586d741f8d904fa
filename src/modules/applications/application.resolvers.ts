/**
 * Resolvers of schema/applications.graphql for what is not a column: an environment variable's value, stored
 * encrypted. Every other read of applications, domains and databases is compiled SQL (application.sql-reads.ts).
 */
import type { Resolvers } from "../../generated/graphql.ts";

/** EnvironmentVariable.value: decrypted from its row's `value_encrypted` (the compiled read's `__row`). */
export const applicationResolvers: Resolvers = {
  EnvironmentVariable: {
    value: (v, _x, ctx) => ctx.services.secrets.decrypt((v as unknown as { valueEncrypted: string }).valueEncrypted),
  },
};
