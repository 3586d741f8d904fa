/**
 * graphql-ws subscriptions on /graphql (same path as HTTP). Graphql-ws does not run Apollo's plugins,
 * so authentication happens at `connection_init` (`onConnect`): credentials come from the init payload
 * (`{ authorization: "Bearer <key>" }` or `{ "x-api-key": "<key>" }`) or the upgrade request's cookie.
 * A connection without valid credentials is closed with code 4403 (graphql-ws "Forbidden").
 */
import type { FastifyInstance } from "fastify";
import type { DocumentNode, GraphQLError, GraphQLSchema } from "graphql";
import { useServer } from "graphql-ws/use/ws";
import { WebSocketServer } from "ws";
import type { Principal } from "../modules/access/access-scope.ts";
import type { AppServices } from "../modules/services.ts";
import { authenticate } from "./authenticate.ts";
import { buildContext } from "./context.ts";

/**
 * Attaches the WebSocket endpoint to the Fastify server; `validate` applies the same operation limits as HTTP.
 */
export function attachSubscriptions(
  app: FastifyInstance,
  schema: GraphQLSchema,
  services: AppServices,
  validate: (schema: GraphQLSchema, document: DocumentNode) => readonly GraphQLError[],
): void {
  const wss = new WebSocketServer({ noServer: true });
  const principals = new WeakMap<object, Principal>();
  app.server.on("upgrade", (request, socket, head) => {
    const path = new URL(request.url ?? "/", "http://localhost").pathname;
    if (path !== "/graphql") {
      socket.destroy();
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => wss.emit("connection", ws, request));
  });
  const disposable = useServer(
    {
      schema,
      validate,
      onConnect: async (ctx) => {
        const payload = (ctx.connectionParams ?? {}) as Record<string, unknown>;
        const headers: Record<string, string | undefined> = {
          cookie: ctx.extra.request.headers.cookie,
          authorization: typeof payload.authorization === "string" ? payload.authorization : undefined,
          "x-api-key": typeof payload["x-api-key"] === "string" ? payload["x-api-key"] : undefined,
        };
        const principal = await authenticate(services, headers, "graphql");
        if (!principal) return false;
        principals.set(ctx.extra, principal);
        return true;
      },
      context: (ctx) => buildContext(services, principals.get(ctx.extra) ?? null),
    },
    wss,
  );
  app.addHook("onClose", async () => {
    await disposable.dispose();
    wss.close();
  });
}
