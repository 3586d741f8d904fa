/**
 * The GraphQL client: urql over HTTP (same origin, session cookie) and graphql-ws for subscriptions.
 * Every HTTP request carries `apollo-require-preflight`, which Apollo's CSRF prevention asks of GET requests
 * (urql sends short queries as GET); POSTs are JSON, which browsers never send cross-site without preflight.
 * A graphql-ws connection authenticates once, at connect time, with the session cookie: after signing in or
 * out, or switching organization, the app builds a new client ({@link createSkiffClient}). A dropped socket is
 * reconnected and each live subscription resumes after the last event it received: it is sent again with `after` set
 * to that event's `cursor` (graphql-ws sends the same payload object again), so no event is missed or repeated; a
 * cursor past the server's retention (`CURSOR_EXPIRED`) subscribes again without it (live from then on).
 *
 * The active organization belongs to the session, not to a tab: every GraphQL answer names the organization it was
 * read in (`x-skiff-organization`, src/server/acting-organization.ts). A client keeps the first one a read (query)
 * answers; a read answered in another (the organization was switched in another tab) is never delivered, and the
 * client calls its `onOrganizationChanged` instead — the session then builds a new client, which reads every page's
 * data, header included, in the new organization (docs/dashboard.md).
 */
import { Client, cacheExchange, fetchExchange, subscriptionExchange } from "@urql/core";
import { createClient as createWsClient } from "graphql-ws";

/** The `cursor` of a live event (`{ <field>: { cursor } }`), if the result carries one. */
function cursorIn(data: unknown): string | undefined {
  const root = Object.values((data ?? {}) as Record<string, unknown>)[0] as { cursor?: unknown } | undefined;
  return typeof root?.cursor === "string" ? root.cursor : undefined;
}

/** Whether a result's errors say `CURSOR_EXPIRED`. */
function isCursorExpired(errors: ReadonlyArray<{ extensions?: { code?: unknown } }> | undefined): boolean {
  return errors?.some((e) => e.extensions?.code === "CURSOR_EXPIRED") ?? false;
}

/** A urql client plus the function that closes its WebSocket. */
export interface SkiffClient {
  client: Client;
  dispose(): void;
}

/** The response header naming the organization a GraphQL answer was read in (src/server/acting-organization.ts). */
const ORGANIZATION_HEADER = "x-skiff-organization";

/** Whether a request's body is a mutation (urql sends mutations as POSTs, the operation first in the document). */
function isMutation(init: RequestInit | undefined): boolean {
  if (typeof init?.body !== "string") return false;
  const query = (JSON.parse(init.body) as { query?: unknown }).query;
  return typeof query === "string" && /^\s*mutation\b/.test(query);
}

/**
 * `fetch` for one client: reads answered in the organization of the client's first read pass; a read answered in
 * another calls `onChanged` (once) and never settles, so no page shows it. Mutations' answers always pass (one may
 * switch the organization itself, e.g. accepting an invitation; its page then asks for a new client).
 */
function organizationCheckedFetch(onChanged: () => void): typeof fetch {
  let organization: string | undefined;
  let changed = false;
  return async (input, init) => {
    const response = await fetch(input, init);
    const read = response.headers.get(ORGANIZATION_HEADER);
    if (read === null || isMutation(init)) return response;
    organization ??= read;
    if (read === organization) return response;
    if (!changed) {
      changed = true;
      onChanged();
    }
    return new Promise<Response>(() => {});
  };
}

/**
 * Builds a client for this page's origin. `onOrganizationChanged` is called (once) when an answer was read in
 * another organization than the client's first answer.
 */
export function createSkiffClient(onOrganizationChanged: () => void = () => {}): SkiffClient {
  const wsUrl = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/graphql`;
  const ws = createWsClient({
    url: wsUrl,
    lazy: true,
    // Several minutes of outage: waits of 1 s doubling up to 10 s.
    retryAttempts: 30,
    retryWait: (retries) => new Promise((r) => setTimeout(r, Math.min(10_000, 1000 * 2 ** retries))),
  });
  const client = new Client({
    url: "/graphql",
    requestPolicy: "cache-and-network",
    fetchOptions: { headers: { "apollo-require-preflight": "true" }, credentials: "same-origin" },
    fetch: organizationCheckedFetch(onOrganizationChanged),
    exchanges: [
      cacheExchange,
      fetchExchange,
      subscriptionExchange({
        forwardSubscription(request) {
          const input = { ...request, query: request.query ?? "", variables: { ...request.variables } };
          return {
            subscribe(sink) {
              let unsubscribe = () => {};
              let expired = false;
              const start = () => {
                unsubscribe = ws.subscribe(input, {
                  next: (result) => {
                    // Too old to resume (answered as a result with errors, then `complete`): live from now on.
                    if (isCursorExpired(result.errors)) {
                      expired = true;
                      delete input.variables.after;
                      return;
                    }
                    const cursor = cursorIn(result.data);
                    if (cursor) input.variables.after = cursor;
                    sink.next(result as Parameters<typeof sink.next>[0]);
                  },
                  error: (error) => sink.error(error),
                  complete: () => {
                    if (!expired) return sink.complete();
                    expired = false;
                    start();
                  },
                });
              };
              start();
              return { unsubscribe: () => unsubscribe() };
            },
          };
        },
      }),
    ],
  });
  return { client, dispose: () => void ws.dispose() };
}
