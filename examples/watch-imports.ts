/**
 * Prints every status change of the imports of the API key's organization, live, over graphql-ws:
 *   SKIFF_API_KEY=... node_modules/.bin/node examples/watch-imports.ts [importId]
 * SKIFF_URL defaults to http://localhost:4000. Stop with Ctrl-C.
 */
import { createClient } from "graphql-ws";
import WebSocket from "ws";

const apiKey = process.env.SKIFF_API_KEY;
if (!apiKey) throw new Error("Set SKIFF_API_KEY to the API key printed by the first npm start");
const url = `${(process.env.SKIFF_URL ?? "http://localhost:4000").replace(/^http/, "ws")}/graphql`;
const client = createClient({ url, webSocketImpl: WebSocket, connectionParams: { authorization: `Bearer ${apiKey}` } });

for await (const event of client.iterate({
  query: `subscription($id: ID) { siteImportUpdated(id: $id) {
    importId status siteImport { name errorStep errorMessage attempts } } }`,
  variables: { id: process.argv[2] ?? null },
})) {
  console.log(JSON.stringify(event.data?.siteImportUpdated ?? event.errors));
}
