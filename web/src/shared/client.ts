/**
 * The GraphQL client: urql over HTTP (same origin, session cookie) and graphql-ws for subscriptions.
 * Every HTTP request carries `apollo-require-preflight`, which Apollo's CSRF prevention asks of GET requests
 * (urql sends short queries as GET); POSTs are JSON, which browsers never send cross-site without preflight.
 * A graphql-ws connection authenticates once, at connect time, with the session cookie: after signing in or
 * out, or switching organization, the app builds a new client ({@link createSkiffClient}).
 */
import { Client, cacheExchange, fetchExchange, subscriptionExchange } from "@urql/core";
import { createClient as createWsClient } from "graphql-ws";

/** A urql client plus the function that closes its WebSocket. */
export interface SkiffClient {
  client: Client;
  dispose(): void;
}

/** Builds a client for this page's origin. */
export function createSkiffClient(): SkiffClient {
  const wsUrl = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/graphql`;
  const ws = createWsClient({ url: wsUrl, lazy: true, retryAttempts: 5 });
  const client = new Client({
    url: "/graphql",
    requestPolicy: "cache-and-network",
    fetchOptions: { headers: { "apollo-require-preflight": "true" }, credentials: "same-origin" },
    exchanges: [
      cacheExchange,
      fetchExchange,
      subscriptionExchange({
        forwardSubscription(request) {
          const input = { ...request, query: request.query ?? "" };
          return {
            subscribe(sink) {
              const unsubscribe = ws.subscribe(input, sink);
              return { unsubscribe };
            },
          };
        },
      }),
    ],
  });
  return { client, dispose: () => void ws.dispose() };
}
