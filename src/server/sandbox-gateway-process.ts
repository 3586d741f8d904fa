/**
 * Starts the sandbox payment gateway (sandbox/gateway/, `npm run gateway:sandbox`) beside `npm start` so a newcomer
 * can click through a payment (spec "Payment gateway service"): only when SKIFF_GATEWAY_URL is unset and the database
 * is embedded (no DATABASE_URL). It runs as a child process (Skiff never imports the sandbox's code) on
 * SKIFF_SANDBOX_GATEWAY_PORT (0: not started), tied to this process by an IPC channel: it exits when Skiff exits, even on a crash.
 * Failing to start it (e.g. the port is taken) never stops Skiff: payment gateway calls then fail on their own. The
 * child loads `npm start`'s load hook when the checkout has it, so it does not load Node's TypeScript stripper either
 * (about 19 MB of its RSS; docs/operations.md, Memory).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Logger } from "pino";
import type { Config } from "../config.ts";

const SANDBOX_MAIN = fileURLToPath(new URL("../../sandbox/gateway/main.ts", import.meta.url));
/** `npm start`'s load hook (scripts/stripped-sources.mjs): the sandbox's sources are stripped by `prestart` too. */
const STRIPPED_SOURCES_HOOK = new URL("../../scripts/stripped-sources.mjs", import.meta.url);

/** A started sandbox: its URL (to use as SKIFF_GATEWAY_URL) and how to stop it. */
export interface SandboxGatewayProcess {
  url: string;
  stop(): void;
}

/**
 * Spawns the sandbox when the conditions above hold. @returns null when they do not (or the sandbox's files are
 * missing); never throws.
 */
export function startSandboxGatewayProcess(config: Config, log: Logger): SandboxGatewayProcess | null {
  const port = config.SKIFF_SANDBOX_GATEWAY_PORT;
  // Port 0: no sandbox beside Skiff (the operator turned it off).
  if (config.SKIFF_GATEWAY_URL || config.DATABASE_URL || port === 0 || !existsSync(SANDBOX_MAIN)) return null;
  let child: ChildProcess;
  try {
    const hook = existsSync(STRIPPED_SOURCES_HOOK) ? ["--import", STRIPPED_SOURCES_HOOK.href] : [];
    child = spawn(process.execPath, [...hook, SANDBOX_MAIN], {
      stdio: ["ignore", "inherit", "inherit", "ipc"],
      env: {
        ...process.env,
        SKIFF_SANDBOX_GATEWAY_PORT: String(port),
        SANDBOX_GATEWAY_EVENTS_URL: `http://127.0.0.1:${config.PORT || 4000}/api/payment-gateway/events`,
      },
    });
  } catch (err) {
    log.warn({ err }, "the sandbox payment gateway could not be started");
    return null;
  }
  child.on("error", (err) => log.warn({ err }, "the sandbox payment gateway could not be started"));
  child.on("exit", (code, signal) => {
    if (code) log.warn({ code, signal }, "the sandbox payment gateway stopped");
  });
  const stop = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
  };
  process.once("exit", stop);
  const url = `http://127.0.0.1:${port}`;
  log.info({ url }, "sandbox payment gateway started beside Skiff (SKIFF_GATEWAY_URL unset, embedded database)");
  return { url, stop };
}
