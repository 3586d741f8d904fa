/** Module manifest: account API keys (schema/api-keys.graphql). */

import { defineModule } from "../module.ts";
import { createApiKeyLoaders } from "./api-key.loaders.ts";
import { apiKeyResolvers } from "./api-key.resolvers.ts";

declare module "../module.ts" {
  interface ModuleLoaders {
    apiKeys: ReturnType<typeof createApiKeyLoaders>;
  }
}

/** The apiKeys module. */
export const apiKeysModule = defineModule({
  name: "apiKeys",
  tables: ["api_keys"],
  resolvers: apiKeyResolvers,
  createLoaders: ({ knex, scope }) => createApiKeyLoaders(knex, scope),
});
