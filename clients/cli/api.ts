/**
 * How the `skiff` CLI talks to a Skiff server: credentials (SKIFF_URL / SKIFF_API_KEY, else the file written by
 * `skiff login`), the typed REST client of /api/openapi.json (clients/rest) and GraphQL over HTTP with the account
 * API key, and graphql-ws subscriptions.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import type { TypedDocumentNode } from "@graphql-typed-document-node/core";
import { print } from "graphql";
import { createClient } from "graphql-ws";
import WebSocket from "ws";
import { createRestClient, type SkiffRestClient } from "../rest/index.ts";

/** Where to reach the server and as whom. */
export interface Credentials {
  url: string;
  apiKey: string;
}

/** A failure the CLI reports with its exit code (1 failed, 2 usage). */
export class CliError extends Error {
  readonly exitCode: 1 | 2;
  constructor(message: string, exitCode: 1 | 2) {
    super(message);
    this.exitCode = exitCode;
  }
}

/** A request that reached no server (refused, reset, unknown host): exit 1; `reason` is the network's word. */
export class UnreachableError extends CliError {
  readonly reason: string;
  constructor(url: string, reason: string) {
    super(`Cannot reach ${url}: ${reason}`, 1);
    this.reason = reason;
  }
}

/**
 * Refuses a prompt that has no terminal to answer it (stdin redirected, a pipe, CI): a prompt would wait on a closed
 * stdin and Node would end the process with exit 13.
 * @throws CliError (2) with `instead` (what to give on the command line).
 */
export function assertTerminal(instead: string): void {
  if (!process.stdin.isTTY) throw new CliError(`No terminal to ask on: ${instead}`, 2);
}

/** `$XDG_CONFIG_HOME/skiff/credentials.json` (default `~/.config`). */
export function credentialsFile(): string {
  return join(process.env.XDG_CONFIG_HOME || join(homedir(), ".config"), "skiff", "credentials.json");
}

/** Credentials from the environment, else from `skiff login`'s file. @throws CliError (2) when there are none. */
export async function loadCredentials(): Promise<Credentials> {
  let saved: Partial<Credentials> = {};
  try {
    saved = JSON.parse(await readFile(credentialsFile(), "utf8")) as Partial<Credentials>;
  } catch {
    // No file: the environment must say it all.
  }
  const url = process.env.SKIFF_URL || saved.url;
  const apiKey = process.env.SKIFF_API_KEY || saved.apiKey;
  if (!url || !apiKey) throw new CliError("No credentials: set SKIFF_URL and SKIFF_API_KEY, or run `skiff login`", 2);
  return { url: url.replace(/\/+$/, ""), apiKey };
}

/** Stores credentials for later commands (file mode 0600). */
export async function saveCredentials(credentials: Credentials): Promise<string> {
  const file = credentialsFile();
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  await writeFile(file, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  return file;
}

/**
 * `fetch`, marking each request as the CLI's (`x-skiff-client: cli`: the audit log names its surface `CLI`), with an
 * unreachable server reported as an {@link UnreachableError} (1).
 */
export function reaching(url: string): typeof fetch {
  return (input, init) => {
    const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
    headers.set("x-skiff-client", "cli");
    return fetch(input, { ...init, headers }).catch((e: Error) => {
      throw new UnreachableError(url, (e.cause as Error | undefined)?.message ?? e.message);
    });
  };
}

/**
 * The typed REST client (clients/rest) for `c`: each call resolves with `status` and the typed `data` or `error`.
 * Calls reject with CliError (1) when the server cannot be reached.
 */
export function restClient(c: Credentials): SkiffRestClient {
  return createRestClient({ url: c.url, apiKey: c.apiKey, fetch: reaching(c.url) });
}

/** Runs a typed GraphQL operation (clients/cli/operations.ts) over HTTP. @throws CliError (1) with the first error's message. */
export async function graphql<T, V extends Record<string, unknown>>(
  c: Credentials,
  document: TypedDocumentNode<T, V>,
  variables: V,
): Promise<T> {
  const res = await reaching(c.url)(`${c.url}/graphql`, {
    method: "POST",
    headers: { "x-api-key": c.apiKey, "content-type": "application/json" },
    body: JSON.stringify({ query: print(document), variables }),
  });
  const body = (await res.json()) as {
    data?: T;
    errors?: Array<{ message: string; extensions?: { fieldErrors?: Record<string, string[]> } }>;
  };
  const first = body.errors?.[0];
  if (first) {
    // Each field's problems on a line of its own (a `.env` paste names every refused line).
    const fields = Object.entries(first.extensions?.fieldErrors ?? {}).map(([k, v]) => `${k}: ${v.join(", ")}`);
    throw new CliError([first.message, ...fields].join("\n  "), 1);
  }
  return body.data as T;
}

/** A running subscription; `ready` resolves once the server acknowledged the connection. */
export interface Subscription {
  ready: Promise<void>;
  close(): Promise<void>;
}

/** Reconnections of a subscription after its socket dropped (waits of 1 s doubling up to 10 s: several minutes). */
const RECONNECTS = 30;

/** The `cursor` of a live event (`{ <field>: { cursor } }`), if the result carries one. */
function cursorIn(data: unknown): string | undefined {
  const root = Object.values((data ?? {}) as Record<string, unknown>)[0] as { cursor?: unknown } | undefined;
  return typeof root?.cursor === "string" ? root.cursor : undefined;
}

/**
 * Subscribes over graphql-ws (`/graphql`, API key in `connection_init`); `onData` gets each result's data. After a
 * dropped connection (a network cut, a server restart) it reconnects and resumes after the last event received: the
 * subscription is sent again with `after` set to that event's `cursor` (graphql-ws sends the same payload object
 * again), so no event is missed or repeated (docs/subscriptions.md "Resuming after a dropped connection").
 */
export function subscribe<T, V extends Record<string, unknown>>(
  c: Credentials,
  document: TypedDocumentNode<T, V>,
  variables: V,
  onData: (data: T) => void,
): Subscription {
  let acknowledged: () => void = () => {};
  const ready = new Promise<void>((resolve) => {
    acknowledged = resolve;
  });
  const client = createClient({
    url: `${c.url.replace(/^http/, "ws")}/graphql`,
    webSocketImpl: WebSocket,
    retryAttempts: RECONNECTS,
    retryWait: (retries) => new Promise((r) => setTimeout(r, Math.min(10_000, 1000 * 2 ** retries))),
    connectionParams: { authorization: `Bearer ${c.apiKey}` },
    on: { connected: () => acknowledged() },
  });
  const payload = { query: print(document), variables: { ...variables } as Record<string, unknown> };
  client.subscribe<T>(payload, {
    next: (msg) => {
      if (!msg.data) return;
      const cursor = cursorIn(msg.data);
      if (cursor) payload.variables.after = cursor;
      onData(msg.data as T);
    },
    error: () => acknowledged(),
    complete: () => {},
  });
  return { ready, close: () => client.dispose() as Promise<void> };
}

/** The `error` message of a REST error body. */
export function errorOf(body: unknown): string {
  const b = body as { error?: unknown; details?: { fieldErrors?: Record<string, string[]> } } | null;
  const error = String(b?.error ?? "Request failed");
  // Each field once: the message often names the first already ("Invalid input: name: Required").
  const fields = Object.entries(b?.details?.fieldErrors ?? {})
    .map(([k, v]) => `${k}: ${v.join(", ")}`)
    .filter((line) => !error.includes(line));
  return [error, ...fields].join("\n  ");
}
