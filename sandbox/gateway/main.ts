/**
 * `npm run gateway:sandbox`: runs the sandbox payment gateway (sandbox-gateway.ts) until SIGINT/SIGTERM.
 * Environment: SKIFF_SANDBOX_GATEWAY_PORT (default 4010), SKIFF_GATEWAY_API_KEY (required bearer credential when
 * set), SANDBOX_GATEWAY_EVENTS_URL (where events go; default http://127.0.0.1:$PORT/api/payment-gateway/events
 * with PORT = Skiff's port, default 4000), SANDBOX_GATEWAY_HOST (default 127.0.0.1).
 */
import { startSandboxGateway } from "./sandbox-gateway.ts";

const port = Number(process.env.SKIFF_SANDBOX_GATEWAY_PORT ?? 4010);
const skiffPort = process.env.PORT ?? "4000";
const gateway = await startSandboxGateway({
  port,
  host: process.env.SANDBOX_GATEWAY_HOST ?? "127.0.0.1",
  apiKey: process.env.SKIFF_GATEWAY_API_KEY || undefined,
  eventsUrl: process.env.SANDBOX_GATEWAY_EVENTS_URL ?? `http://127.0.0.1:${skiffPort}/api/payment-gateway/events`,
  log: (line) => console.log(`[sandbox-gateway] ${line}`),
});
console.log(`[sandbox-gateway] listening on ${gateway.url}`);
// Started by `npm start` (src/server/sandbox-gateway-process.ts): exit with Skiff, whatever way it ends.
if (process.send) process.on("disconnect", () => void gateway.close().then(() => process.exit(0)));
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    void gateway.close().then(() => process.exit(0));
  });
}
