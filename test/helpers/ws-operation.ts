/**
 * One GraphQL operation over a raw graphql-transport-ws socket, with every message the server sent for it: for tests
 * that must see the exact frames (an `error` message for the operation, or the socket's close code instead).
 */
import WebSocket from "ws";

/** What one operation got: the messages for its id (`next`, `error`, `complete`), and the close code if the socket closed. */
export interface WsOutcome {
  messages: Array<{ type: string; id?: string; payload?: unknown }>;
  /** The socket's close code when the server closed it before the operation ended; undefined when it stayed open. */
  closeCode?: number;
  /** Whether the socket answered a `ping` with a `pong` after the operation (the connection still serves). */
  stillServes: boolean;
}

/**
 * Opens `${baseUrl}/graphql` as a WebSocket, authenticates with `apiKey` in `connection_init`, sends one `subscribe`
 * with `query` (and `variables`) and resolves once the operation ended (`error` or `complete`) or the socket closed;
 * on a subscription still open after its first `next`, after that `next`. Then pings, and closes the socket.
 */
export function wsOperation(
  baseUrl: string,
  apiKey: string,
  query: string,
  variables: Record<string, unknown> = {},
): Promise<WsOutcome> {
  const ws = new WebSocket(`${baseUrl.replace("http", "ws")}/graphql`, "graphql-transport-ws");
  const messages: WsOutcome["messages"] = [];
  return new Promise<WsOutcome>((resolve, reject) => {
    let ended = false;
    const finish = () => {
      if (ended) return;
      ended = true;
      let timer: NodeJS.Timeout | undefined;
      const settle = (stillServes: boolean) => {
        clearTimeout(timer);
        ws.removeAllListeners();
        ws.close();
        resolve({ messages, stillServes });
      };
      timer = setTimeout(() => settle(false), 5000);
      ws.once("close", () => settle(false));
      ws.send(JSON.stringify({ type: "ping" }));
      ws.on("message", (data) => {
        if (JSON.parse(String(data)).type === "pong") settle(true);
      });
    };
    ws.once("error", reject);
    ws.once("open", () =>
      ws.send(JSON.stringify({ type: "connection_init", payload: { authorization: `Bearer ${apiKey}` } })),
    );
    ws.on("message", (data) => {
      if (ended) return;
      const message = JSON.parse(String(data)) as WsOutcome["messages"][number];
      if (message.type === "connection_ack") {
        ws.send(JSON.stringify({ id: "1", type: "subscribe", payload: { query, variables } }));
        return;
      }
      if (message.id !== "1") return;
      messages.push(message);
      if (message.type !== "next" || query.trimStart().startsWith("subscription")) finish();
    });
    ws.once("close", (code) => {
      if (ended) return;
      ended = true;
      resolve({ messages, closeCode: code, stillServes: false });
    });
  });
}
