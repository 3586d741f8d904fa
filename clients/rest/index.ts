/**
 * The typed REST client of Skiff: the types and fetch client generated from the public OpenAPI document
 * (clients/rest/generated/, written by `npm run codegen`, checked by `npm run codegen:check`), and a factory that
 * binds them to a server and an account API key. Operations are grouped by the first path segment
 * (`client.api.importSite(…)`, `client.o.getOrganizationDocsTheme(…)`) and named by their operationId. Every call
 * resolves with the `Response`, its typed `data` (2xx) or typed `error` (documented error body); only a network
 * failure rejects.
 */
import { Api } from "./generated/skiff-api.ts";

export type * from "./generated/skiff-api.ts";

/** Where the server is and how to authenticate. */
export interface RestClientOptions {
  /** Base URL of the instance, e.g. `https://skiff.example.com` (a trailing slash is ignored). */
  url: string;
  /** Account API key, sent as `x-api-key` (omit for the public paths). */
  apiKey?: string;
  /** A `fetch` to use instead of the global one (tests, proxies). */
  fetch?: typeof fetch;
}

/** A typed client of /api/openapi.json bound to `options.url`. */
export type SkiffRestClient = Api<unknown>;

/** Creates a {@link SkiffRestClient}. */
export function createRestClient(options: RestClientOptions): SkiffRestClient {
  return new Api({
    baseUrl: options.url.replace(/\/+$/, ""),
    baseApiParams: { redirect: "follow", headers: options.apiKey ? { "x-api-key": options.apiKey } : {} },
    ...(options.fetch && { customFetch: options.fetch }),
  });
}
