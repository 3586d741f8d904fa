/** Module manifest: account API keys (schema/api-keys.graphql). */

import { defineModule } from "../module.ts";
import { provideCredentialSource } from "../organizations/index.ts";
import { apiKeyCredentialSelect, apiKeyReads } from "./api-key.reads.ts";
import { apiKeyResolvers } from "./api-key.resolvers.ts";
import { onApiKeyEvent } from "./api-key.service.ts";
import { apiKeyTable } from "./api-key.tables.ts";

provideCredentialSource("apiKey", apiKeyCredentialSelect);

/** The apiKeys module. */
export const apiKeysModule = defineModule({
  name: "apiKeys",
  tables: ["api_keys"],
  reads: apiKeyReads,
  descriptors: [apiKeyTable],
  resolvers: apiKeyResolvers,
  // A person removed from an organization loses their keys there (team emits `user_removed_from_org`).
  onEvent: onApiKeyEvent,
});

// The public surface: what other modules and the transport may import.
export { replaceApiKeySecret } from "./api-key.service.ts";
