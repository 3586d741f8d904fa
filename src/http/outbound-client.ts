/**
 * The one HTTP client for every call Skiff makes to a URL a user gave it (webhooks, payment relay, health probes,
 * license sync, git providers): resolve the host, check the name and every address against the address policy,
 * then dial only the checked addresses (pinned: no second resolution, so DNS rebinding between check and connect
 * cannot happen). Redirects are never followed; every call has a connect and a total timeout; response bodies are
 * read up to a cap. Architecture: "Every request to a URL a user gave us goes through the outbound
 * client".
 *
 * A name's addresses are resolved again once they are older than `dnsCacheMs` (`SKIFF_OUTBOUND_DNS_CACHE_SECONDS`,
 * default 1 s, so that the address a delivery is checked against is at most that old, as the spec's "resolved IP,
 * validated before every delivery" asks): under load, one resolution (the system resolver's `getaddrinfo`, in
 * libuv's thread pool) serves every call to that host meanwhile, and calls waiting for the same name share one. Every
 * call still checks every address it may dial, so a name that turns to a refused address is refused from its next
 * resolution on; what was dialled before was checked. A failed resolution is not kept. Save-time checks (`checkUrl`)
 * always resolve afresh.
 */
import { promises as dns, type LookupAddress, type LookupOptions } from "node:dns";
import type { Socket } from "node:net";
import { buildConnector, type Dispatcher, Pool } from "undici";
import { type AllowList, createAddressPolicy, normalizeHost, parseAddress, parseAllowList } from "./address-policy.ts";
import {
  OutboundBlockedError,
  OutboundConnectionError,
  OutboundError,
  OutboundInvalidUrlError,
  type OutboundOutcome,
  OutboundTimeoutError,
} from "./outbound-errors.ts";
import { recordOutbound, registerOutboundMetrics } from "./outbound-metrics.ts";

/** One resolved address (`family` 4 or 6), as `dns.promises.lookup(name, { all: true })` returns them. */
export interface ResolvedAddress {
  address: string;
  family: number;
}

/**
 * Resolves a host name to all its addresses. Names that are not allow-listed are passed absolute (with a trailing
 * dot) so that resolver search domains cannot turn `db.prod` into a cluster service name.
 * @throws an Error with a `code` (`ENOTFOUND`, …) when the name does not resolve.
 */
export type LookupFn = (hostname: string) => Promise<ResolvedAddress[]>;

/** Minimal logger (pino's `Logger` fits). */
export interface OutboundLogger {
  warn(obj: object, msg: string): void;
  debug(obj: object, msg: string): void;
}

/** Options of {@link createOutboundClient}. */
export interface OutboundClientOptions {
  /** `SKIFF_OUTBOUND_ALLOW` (comma-separated CIDRs and host names) or its parsed form; empty exempts nothing. */
  allow: string | AllowList;
  /** `SKIFF_CLUSTER_DOMAIN`: this suffix and its subdomains are refused. */
  clusterDomain: string;
  log: OutboundLogger;
  /** Resolver; default `dns.promises.lookup(name, { all: true })`. Tests point it at a local DNS server. */
  lookup?: LookupFn;
  /**
   * How long a name's resolved addresses serve later calls, ms (`SKIFF_OUTBOUND_DNS_CACHE_SECONDS` × 1000; default
   * {@link DEFAULT_DNS_CACHE_MS}); 0 resolves on every call.
   */
  dnsCacheMs?: number;
}

/** One outbound call. */
export interface OutboundRequest {
  /** Default `GET`. */
  method?: string;
  /** Absolute `http:` or `https:` URL without credentials. */
  url: string | URL;
  headers?: Record<string, string>;
  /** Sent byte for byte (e.g. a relayed payment event must keep its exact bytes). */
  body?: Buffer | Uint8Array | string;
  /** Total budget in ms: resolution, connect, request and whole response. Default 10 000. */
  timeoutMs?: number;
  /** Budget in ms for TCP connect plus TLS handshake. Default 5 000 (never more than `timeoutMs`). */
  connectTimeoutMs?: number;
  /** Response bytes kept; the rest is discarded and `truncated` set. Default 64 KiB. */
  maxBodyBytes?: number;
  /** Cancels the call (e.g. at shutdown); it then fails with {@link OutboundConnectionError} code `ABORT_ERR`. */
  signal?: AbortSignal;
}

/** The answer, whatever its status (3xx included: redirects are returned, never followed). */
export interface OutboundResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** At most `maxBodyBytes` bytes. */
  body: Buffer;
  /** True when the receiver sent more than `maxBodyBytes`. */
  truncated: boolean;
  /** From the start of the call to the last byte read, in ms. */
  durationMs: number;
  /** The address actually dialled. */
  address: string;
}

/** A URL that passed every check, with the addresses a call to it may dial. */
export interface CheckedUrl {
  url: URL;
  /** Normalised host (see `normalizeHost`). */
  host: string;
  addresses: ResolvedAddress[];
}

/** The client of one Skiff instance (`AppServices.outbound`). */
export interface OutboundClient {
  /**
   * Makes one call. Every call checks the host and every address again, resolved at most `dnsCacheMs` earlier (see
   * the file comment); a kept-alive connection is reused only by a call whose checked addresses are exactly those it
   * was dialled to (connections are pooled per origin and checked address set, see {@link POOL_KEEP_ALIVE_MS}), so
   * reuse never reaches an address this call did not check.
   * A non-2xx status is an answer, not an error. Error messages and logs name the URL's origin, never its path.
   * @throws OutboundInvalidUrlError, OutboundBlockedError (nothing dialled), OutboundTimeoutError,
   *   OutboundConnectionError; all extend OutboundError, whose `message` is fit to show and log. TypeError for a
   *   method that is not an upper-case token (a programming error).
   */
  request(req: OutboundRequest): Promise<OutboundResponse>;
  /**
   * Resolves (afresh, whatever was resolved before) and checks `url` as {@link request} would, without connecting:
   * save-time validation of webhook URLs (answer 400 on OutboundInvalidUrlError / OutboundBlockedError).
   * @param options.timeoutMs resolution budget, default 5 000 ms.
   * @throws OutboundInvalidUrlError, OutboundBlockedError, OutboundTimeoutError, OutboundConnectionError (the
   *   name does not resolve).
   */
  checkUrl(url: string | URL, options?: { timeoutMs?: number }): Promise<CheckedUrl>;
  /** Closes the kept-alive connections (shutdown); calls made afterwards open new ones. */
  close(): Promise<void>;
}

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;
const DEFAULT_MAX_BODY_BYTES = 64 * 1024;
const METHOD = /^[A-Z]+$/;
/** How long an idle kept-alive connection stays open, ms. */
export const POOL_KEEP_ALIVE_MS = 4_000;
/** Connections per pool (one pool per origin and checked address set). */
const POOL_CONNECTIONS = 16;
/** Pools kept; the least recently used one beyond this is closed. */
const MAX_POOLS = 256;
/** Default lifetime of a name's resolved addresses, ms. */
export const DEFAULT_DNS_CACHE_MS = 1_000;
/** Names whose addresses are kept; the oldest resolution beyond this is dropped. */
const MAX_NAMES = 1024;

/** A name's resolution: its addresses until `expires` (`performance.now()` ms), or the lookup running. */
type NameEntry = { addresses: ResolvedAddress[]; expires: number } | { running: Promise<ResolvedAddress[]> };

/** A pool of connections to one origin, all dialled to the same checked addresses. */
interface PinnedPool {
  pool: Pool;
  /** The address its latest connection reached. */
  dialled: { address?: string };
}

const defaultLookup: LookupFn = (hostname) => dns.lookup(hostname, { all: true });

/**
 * Builds the instance's outbound client (once, at start-up). Logs a warning when the allow-list is not empty.
 * @throws Error when `allow` is a string with an entry that is neither a CIDR, an address nor a host name.
 */
export function createOutboundClient(options: OutboundClientOptions): OutboundClient {
  registerOutboundMetrics();
  const allow = typeof options.allow === "string" ? parseAllowList(options.allow) : options.allow;
  const policy = createAddressPolicy({ allow, clusterDomain: options.clusterDomain });
  const lookup = options.lookup ?? defaultLookup;
  const dnsCacheMs = options.dnsCacheMs ?? DEFAULT_DNS_CACHE_MS;
  const { log } = options;
  if (allow.entries.length) {
    log.warn(
      { allow: allow.entries },
      "SKIFF_OUTBOUND_ALLOW is set: outbound calls to these addresses and names skip the SSRF checks",
    );
  }

  const pools = new Map<string, PinnedPool>();
  /** The pool key part of an address list (a kept resolution's list is the same array from call to call). */
  const addressKeys = new WeakMap<ResolvedAddress[], string>();
  const addressSetKey = (addresses: ResolvedAddress[]) => {
    let key = addressKeys.get(addresses);
    if (key === undefined) {
      key = addresses
        .map((a) => normalizeHost(a.address))
        .sort()
        .join(",");
      addressKeys.set(addresses, key);
    }
    return key;
  };

  /** The pool for `checked` (created on first use; least recently used pools beyond MAX_POOLS are closed). */
  function poolFor(checked: CheckedUrl, connectTimeoutMs: number, timeoutMs: number, target: string): PinnedPool {
    const key = `${checked.url.origin}|${addressSetKey(checked.addresses)}|${connectTimeoutMs}|${timeoutMs}`;
    let entry = pools.get(key);
    if (entry) {
      pools.delete(key);
      pools.set(key, entry);
      return entry;
    }
    const dialled: { address?: string } = {};
    entry = {
      dialled,
      pool: new Pool(checked.url.origin, {
        connect: pinnedConnector(checked.addresses, connectTimeoutMs, target, dialled),
        connections: POOL_CONNECTIONS,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        keepAliveTimeout: POOL_KEEP_ALIVE_MS,
        keepAliveMaxTimeout: POOL_KEEP_ALIVE_MS,
        pipelining: 1,
      }),
    };
    pools.set(key, entry);
    if (pools.size > MAX_POOLS) {
      const [oldest, old] = pools.entries().next().value as [string, PinnedPool];
      pools.delete(oldest);
      old.pool.close().catch(() => {});
    }
    return entry;
  }

  const names = new Map<string, NameEntry>();

  /**
   * The addresses of `name`: kept ones younger than `dnsCacheMs`, else those of the lookup running for it, else a new
   * lookup's (kept when it answers some; a failure is not kept).
   */
  function resolveName(name: string): ResolvedAddress[] | Promise<ResolvedAddress[]> {
    if (dnsCacheMs <= 0) return lookup(name);
    const entry = names.get(name);
    if (entry && "running" in entry) return entry.running;
    if (entry && entry.expires > performance.now()) return entry.addresses;
    const running = lookup(name).then(
      (addresses) => {
        names.delete(name);
        if (addresses.length) {
          names.set(name, { addresses, expires: performance.now() + dnsCacheMs });
          if (names.size > MAX_NAMES) names.delete(names.keys().next().value as string);
        }
        return addresses;
      },
      (err: unknown) => {
        names.delete(name);
        throw err;
      },
    );
    names.set(name, { running });
    return running;
  }

  /**
   * `raw` parsed, its host checked and resolved (`fresh`: by a lookup of its own, not a kept one), every address
   * checked.
   */
  async function resolveTarget(raw: string | URL, signal: AbortSignal, fresh = false): Promise<CheckedUrl> {
    const url = parseUrl(raw);
    const host = normalizeHost(url.hostname);
    const nameReason = policy.checkName(host);
    if (nameReason) throw new OutboundBlockedError(nameReason);
    const literal = parseAddress(host);
    if (literal) {
      const reason = policy.checkAddress(host);
      if (reason) throw new OutboundBlockedError(reason);
      return { url, host, addresses: [{ address: host, family: literal.kind() === "ipv4" ? 4 : 6 }] };
    }
    const allowedName = policy.isAllowedName(host);
    let addresses: ResolvedAddress[];
    try {
      const name = allowedName ? host : `${host}.`;
      const resolved = fresh ? lookup(name) : resolveName(name);
      addresses = Array.isArray(resolved) ? resolved : await abortable(resolved, signal);
    } catch (err) {
      if (signal.aborted) throw err;
      const code = (err as { code?: string }).code;
      throw new OutboundConnectionError(`cannot resolve ${host}${code ? ` (${code})` : ""}`, code, err);
    }
    if (!addresses.length) throw new OutboundConnectionError(`cannot resolve ${host} (no addresses)`, "ENOTFOUND");
    if (!allowedName) {
      for (const { address } of addresses) {
        const reason = policy.checkAddress(address);
        if (reason) throw new OutboundBlockedError(reason);
      }
    }
    return { url, host, addresses };
  }

  return {
    async close() {
      const all = [...pools.values()];
      pools.clear();
      await Promise.all(all.map((p) => p.pool.close().catch(() => {})));
    },

    async checkUrl(url, { timeoutMs = DEFAULT_CONNECT_TIMEOUT_MS } = {}) {
      const deadline = AbortSignal.timeout(timeoutMs);
      try {
        return await resolveTarget(url, deadline, true);
      } catch (err) {
        if (err instanceof OutboundError) throw err;
        if (deadline.aborted) throw new OutboundTimeoutError("total", timeoutMs, originOf(url));
        throw err;
      }
    },

    async request(req) {
      const started = performance.now();
      const timeoutMs = req.timeoutMs ?? DEFAULT_TIMEOUT_MS;
      const connectTimeoutMs = Math.min(req.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS, timeoutMs);
      const maxBodyBytes = req.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
      const method = (req.method ?? "GET").toUpperCase();
      if (!METHOD.test(method)) throw new TypeError(`invalid HTTP method ${JSON.stringify(method)}`);
      const call = callSignal(timeoutMs, req.signal);
      const { signal } = call;
      // Paths and queries can hold secrets (webhook tokens): messages and logs show the origin only. The URL is
      // parsed once here (its checks are resolveTarget's).
      let url: string | URL = req.url;
      try {
        url = url instanceof URL ? url : new URL(url);
      } catch {
        // resolveTarget refuses it
      }
      const target = typeof url === "string" ? "invalid URL" : url.origin;
      let outcome: OutboundOutcome = "connection_error";
      let address: string | undefined;
      try {
        const checked = await resolveTarget(url, signal);
        const { pool, dialled } = poolFor(checked, connectTimeoutMs, timeoutMs, target);
        const res = await pool.request({
          method: method as Dispatcher.HttpMethod,
          path: `${checked.url.pathname}${checked.url.search}`,
          headers: { "user-agent": "Skiff-Outbound/1", ...req.headers },
          body: req.body,
          signal,
        });
        address = dialled.address;
        const { body, truncated } = await readCapped(res.body, maxBodyBytes);
        outcome = res.statusCode >= 200 && res.statusCode < 300 ? "ok" : "http_error";
        return {
          status: res.statusCode,
          headers: res.headers,
          body,
          truncated,
          durationMs: performance.now() - started,
          address: address ?? checked.addresses[0].address,
        };
      } catch (err) {
        const mapped = toOutboundError(err, { call, timeoutMs, connectTimeoutMs, target, caller: req.signal });
        outcome = mapped.outcome;
        throw mapped;
      } finally {
        call.end();
        const durationMs = performance.now() - started;
        recordOutbound(outcome, durationMs);
        log.debug({ method, url: target, address, outcome, durationMs: Math.round(durationMs) }, "outbound request");
      }
    },
  };
}

function originOf(raw: string | URL): string {
  try {
    return new URL(raw).origin;
  } catch {
    return "invalid URL";
  }
}

function parseUrl(raw: string | URL): URL {
  let url: URL;
  try {
    url = raw instanceof URL ? raw : new URL(raw);
  } catch {
    throw new OutboundInvalidUrlError(`invalid URL ${JSON.stringify(String(raw).slice(0, 200))}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new OutboundInvalidUrlError(`unsupported URL scheme ${url.protocol} (only http: and https:)`);
  }
  if (url.username || url.password) throw new OutboundInvalidUrlError("credentials in the URL are not supported");
  if (!url.hostname) throw new OutboundInvalidUrlError("the URL has no host");
  return url;
}

/**
 * An undici connector that can only reach `addresses`: its `lookup` answers them and nothing else, and the
 * connected socket's remote address is checked against them once more before use. `timeoutMs` bounds TCP connect
 * plus TLS handshake with a plain timer (undici's own connect timer ticks in 0.5 s steps).
 */
function pinnedConnector(
  addresses: ResolvedAddress[],
  timeoutMs: number,
  target: string,
  dialled: { address?: string },
): buildConnector.connector {
  const allowed = new Set(addresses.map((a) => normalizeHost(a.address)));
  const lookup = (
    _hostname: string,
    options: LookupOptions,
    callback: (err: Error | null, address: string | LookupAddress[], family?: number) => void,
  ) => {
    const wanted = options.family === 4 || options.family === 6 ? options.family : 0;
    const usable = wanted ? addresses.filter((a) => a.family === wanted) : addresses;
    if (!usable.length) {
      callback(Object.assign(new Error(`no IPv${wanted} address among the checked ones`), { code: "ENOTFOUND" }), []);
    } else if (options.all) callback(null, usable);
    else callback(null, usable[0].address, usable[0].family);
  };
  const connect = buildConnector({ timeout: 0, lookup, autoSelectFamily: true, maxCachedSessions: 0 });
  return (opts, callback) => {
    let settled = false;
    const settle = (err: Error | null, socket: Socket | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (err || !socket) callback(err ?? new Error("connect failed"), null);
      else callback(null, socket);
    };
    const socket = connect(opts, (err, connected) => {
      if (err || !connected) return settle(err ?? new Error("connect failed"), null);
      const remote = connected.remoteAddress ?? "";
      if (!allowed.has(normalizeHost(remote))) {
        connected.destroy();
        return settle(new OutboundBlockedError(`blocked address ${remote} (not the checked address)`), null);
      }
      dialled.address = remote;
      settle(null, connected);
    }) as unknown as Socket | undefined;
    const timer = setTimeout(() => {
      socket?.destroy();
      settle(new OutboundTimeoutError("connect", timeoutMs, target), null);
    }, timeoutMs);
  };
}

async function readCapped(
  stream: AsyncIterable<Buffer>,
  maxBytes: number,
): Promise<{ body: Buffer; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  for await (const chunk of stream) {
    if (size + chunk.length > maxBytes) {
      chunks.push(chunk.subarray(0, maxBytes - size));
      size = maxBytes;
      truncated = true;
      break;
    }
    chunks.push(chunk);
    size += chunk.length;
  }
  return { body: Buffer.concat(chunks, size), truncated };
}

function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}

/** The cancellation of one call: its own deadline or its caller's signal, whichever comes first. */
interface CallSignal {
  signal: AbortSignal;
  /** Whether the deadline fired. */
  readonly timedOut: boolean;
  /** Stops the deadline and stops following the caller's signal (the call ended). */
  end(): void;
}

/**
 * A {@link CallSignal} of `timeoutMs`: one controller, one timer and one listener on `caller`, released by `end()`
 * (cheaper than a timeout signal combined with the caller's by `AbortSignal.any`, which every call would leave
 * registered on a long-lived caller signal until collected).
 */
function callSignal(timeoutMs: number, caller: AbortSignal | undefined): CallSignal {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new DOMException("The operation was aborted due to timeout", "TimeoutError"));
  }, timeoutMs);
  timer.unref();
  const follow = () => controller.abort(caller?.reason);
  if (caller?.aborted) follow();
  else caller?.addEventListener("abort", follow, { once: true });
  return {
    signal: controller.signal,
    get timedOut() {
      return timedOut;
    },
    end() {
      clearTimeout(timer);
      caller?.removeEventListener("abort", follow);
    },
  };
}

function toOutboundError(
  err: unknown,
  ctx: {
    call: CallSignal;
    timeoutMs: number;
    connectTimeoutMs: number;
    target: string;
    caller: AbortSignal | undefined;
  },
): OutboundError {
  if (err instanceof OutboundError) return err;
  const code = (err as { code?: string }).code;
  if (code === "UND_ERR_CONNECT_TIMEOUT") return new OutboundTimeoutError("connect", ctx.connectTimeoutMs, ctx.target);
  if (ctx.call.timedOut || code === "UND_ERR_HEADERS_TIMEOUT" || code === "UND_ERR_BODY_TIMEOUT") {
    return new OutboundTimeoutError("total", ctx.timeoutMs, ctx.target);
  }
  if (ctx.caller?.aborted) return new OutboundConnectionError(`request aborted (${ctx.target})`, "ABORT_ERR", err);
  const message = err instanceof Error ? err.message : String(err);
  return new OutboundConnectionError(`connection failed: ${message}${code ? ` (${code})` : ""}`, code, err);
}
