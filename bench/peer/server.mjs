/**
 * The peer of `npm run bench:peer`: PostGraphile V5 (Amber preset, no auth, NODE_ENV=production) on
 * DATABASE_URL's `public` schema, listening on 127.0.0.1:PORT. Prints `ready` on stdout once it serves.
 * Plain JavaScript on purpose: grafast's type declarations augment the `graphql` module, which would change
 * Skiff's own type check if this file were part of it.
 */
import { createServer } from "node:http";
import { postgraphile } from "postgraphile";
import { makePgService } from "postgraphile/adaptors/pg";
import { grafserv } from "postgraphile/grafserv/node";
import { PostGraphileAmberPreset } from "postgraphile/presets/amber";

/** @type {GraphileConfig.Preset} */
const preset = {
  extends: [PostGraphileAmberPreset],
  pgServices: [makePgService({ connectionString: process.env.DATABASE_URL, schemas: ["public"] })],
  grafserv: { graphiql: false, watch: false },
  grafast: { explain: false },
};
const pgl = postgraphile(preset);
const serv = pgl.createServ(grafserv);
const server = createServer();
await serv.addTo(server);
await pgl.getSchema();
server.listen(Number(process.env.PORT), "127.0.0.1", () => console.log("ready"));
process.on("SIGTERM", () => {
  server.close();
  void Promise.resolve(pgl.release()).then(() => process.exit(0));
});
