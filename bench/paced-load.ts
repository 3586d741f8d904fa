/**
 * An open-loop load at a steady rate, for latency "at half of saturation": request i is due at start + i / rate
 * seconds, whatever happened to the others, over a pool of `connections` keep-alive sockets; its latency runs from
 * when it was due to the end of its answer, so time spent waiting for a free socket or behind a slow answer counts
 * (the coordinated-omission correction of wrk2). autocannon's `overallRate` is not that: each of its connections
 * sends its share of a second back to back as the second starts and then pauses, so the server meets a saturated
 * burst every second and its latency is the burst's.
 *
 * The client is HTTP/1.1 over plain sockets that all read into one buffer (`net.connect`'s `onread`) and count the
 * answer's bytes instead of keeping them: it allocates almost nothing per answer, so its own garbage
 * collections (with `node:http`, a mark-compact of 5–17 ms every half second at 136 answers of 100 KB a second, in
 * the process that times them) do not land in the latencies it reports as the server's.
 */
import { connect, type Socket } from "node:net";

/** One endpoint to load. */
export interface PacedTarget {
  url: string;
  method: "GET" | "POST";
  headers: Record<string, string>;
  body?: string;
}

/** What a paced run measured: latency percentiles (ms, from each request's due time), counts. */
export interface PacedResult {
  rate: number;
  sent: number;
  completed: number;
  non2xx: number;
  errors: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  latencyMaxMs: number;
}

/** The `q` quantile (0..1) of sorted `values` (nearest rank); 0 when empty. */
function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return 0;
  return values[Math.min(values.length - 1, Math.ceil(q * values.length) - 1)]!;
}

/** The request's bytes, sent as they are on every request (`Content-Length` set for a body). */
function requestBytes(target: PacedTarget): Buffer {
  const url = new URL(target.url);
  const body = target.body === undefined ? null : Buffer.from(target.body);
  const headers = { host: url.host, connection: "keep-alive", ...target.headers };
  const lines = [`${target.method} ${url.pathname}${url.search} HTTP/1.1`];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  if (body) lines.push(`content-length: ${body.length}`);
  const head = Buffer.from(`${lines.join("\r\n")}\r\n\r\n`, "latin1");
  return body ? Buffer.concat([head, body]) : head;
}

/** Where a socket is in reading one answer. */
type ReadState =
  | { phase: "head"; head: Buffer[] }
  | { phase: "length"; left: number }
  | { phase: "chunked"; line: string; left: number; trailer: boolean };

const CRLF2 = Buffer.from("\r\n\r\n");

/**
 * One keep-alive connection reading answers into `buffer` (shared by every connection: a read is handled before the
 * next one) and calling `done(status)` at the end of each answer, `failed()` when the connection breaks.
 */
class Connection {
  readonly socket: Socket;
  private state: ReadState = { phase: "head", head: [] };
  private status = 0;
  private readonly done: (status: number) => void;
  busy = false;

  constructor(url: URL, buffer: Buffer, done: (status: number) => void, failed: () => void) {
    this.done = done;
    this.socket = connect({
      host: url.hostname,
      port: Number(url.port || 80),
      noDelay: true,
      onread: { buffer, callback: (n: number, buf: Uint8Array) => this.read(buf as Buffer, n) },
    });
    this.socket.on("error", () => undefined);
    this.socket.on("close", () => {
      if (this.busy) failed();
      this.busy = false;
    });
  }

  /** Handles `n` bytes read into `buf`. */
  private read(buf: Buffer, n: number): boolean {
    let at = 0;
    while (at < n) at = this.step(buf, at, n);
    return true;
  }

  /** Consumes bytes of `buf` from `at` (below `end`) for the current state; @returns where it stopped. */
  private step(buf: Buffer, at: number, end: number): number {
    const state = this.state;
    if (state.phase === "head") {
      const chunk = buf.subarray(at, end);
      const head = state.head.length ? Buffer.concat([...state.head, chunk]) : chunk;
      const stop = head.indexOf(CRLF2);
      if (stop < 0) {
        state.head.push(Buffer.from(chunk));
        return end;
      }
      const text = head.toString("latin1", 0, stop).toLowerCase();
      this.status = Number(text.slice(9, 12));
      const length = /\r\ncontent-length: *(\d+)/.exec(text);
      const consumed = stop + 4 - (head.length - chunk.length);
      if (/\r\ntransfer-encoding: *chunked/.test(text)) {
        this.state = { phase: "chunked", line: "", left: 0, trailer: false };
      } else {
        this.state = { phase: "length", left: length ? Number(length[1]) : 0 };
        if (this.state.left === 0) this.finish();
      }
      return at + consumed;
    }
    if (state.phase === "length") {
      const take = Math.min(state.left, end - at);
      state.left -= take;
      if (state.left === 0) this.finish();
      return at + take;
    }
    // Chunked: a size line, its bytes and their CRLF, until the size-0 chunk and the empty line after it.
    if (state.left > 0) {
      const take = Math.min(state.left, end - at);
      state.left -= take;
      return at + take;
    }
    const newline = buf.indexOf(10, at);
    if (newline < 0 || newline >= end) {
      state.line += buf.toString("latin1", at, end);
      return end;
    }
    const line = (state.line + buf.toString("latin1", at, newline)).trim();
    state.line = "";
    if (state.trailer) {
      if (line === "") this.finish();
    } else if (line !== "") {
      const size = Number.parseInt(line, 16);
      if (size === 0) state.trailer = true;
      else state.left = size + 2; // the chunk's bytes and the CRLF after them
    }
    return newline + 1;
  }

  /** The end of an answer: ready for the next request. */
  private finish(): void {
    this.state = { phase: "head", head: [] };
    this.busy = false;
    this.done(this.status);
  }
}

/**
 * Sends `rate` requests per second to `target` for `durationSeconds` over at most `connections` sockets and waits
 * for every answer (at most 30 s past the end). @throws nothing: failures are counted in `errors`.
 */
export async function pacedLoad(
  target: PacedTarget,
  options: { rate: number; durationSeconds: number; connections: number },
): Promise<PacedResult> {
  const url = new URL(target.url);
  const bytes = requestBytes(target);
  const buffer = Buffer.alloc(256 * 1024);
  const total = Math.max(1, Math.round(options.rate * options.durationSeconds));
  const interval = 1000 / options.rate;
  const latencies: number[] = [];
  let non2xx = 0;
  let errors = 0;
  let settled = 0;
  let allSettled: () => void = () => {};
  const done = new Promise<void>((resolve) => (allSettled = resolve));
  /** Due times of requests waiting for a free connection, oldest first. */
  const waiting: number[] = [];
  const idle: Connection[] = [];
  const open: Connection[] = [];
  const dueOf = new Map<Connection, number>();

  const settle = () => {
    settled++;
    if (settled === total) allSettled();
  };
  const dispatch = (connection: Connection, due: number) => {
    connection.busy = true;
    dueOf.set(connection, due);
    connection.socket.write(bytes);
  };
  const release = (connection: Connection) => {
    const due = waiting.shift();
    if (due === undefined) idle.push(connection);
    else dispatch(connection, due);
  };
  const newConnection = (): Connection => {
    const connection: Connection = new Connection(
      url,
      buffer,
      (status) => {
        latencies.push(performance.now() - dueOf.get(connection)!);
        if (status < 200 || status >= 300) non2xx++;
        settle();
        release(connection);
      },
      () => {
        errors++;
        settle();
        open.splice(open.indexOf(connection), 1);
      },
    );
    open.push(connection);
    return connection;
  };
  const send = (due: number) => {
    let connection = idle.pop();
    // One the server closed while idle (its keep-alive timeout) is left out: a new one takes its place.
    while (connection?.socket.destroyed) connection = idle.pop();
    connection ??= open.length < options.connections ? newConnection() : undefined;
    if (connection) dispatch(connection, due);
    else waiting.push(due);
  };

  const start = performance.now() + 10;
  let next = 0;
  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now();
      while (next < total && start + next * interval <= now) {
        send(start + next * interval);
        next++;
      }
      if (next >= total) return resolve();
      setTimeout(tick, Math.max(0, start + next * interval - performance.now()));
    };
    setTimeout(tick, 10);
  });
  await Promise.race([done, new Promise((resolve) => setTimeout(resolve, 30_000))]);
  for (const connection of open) connection.socket.destroy();
  latencies.sort((a, b) => a - b);
  const round = (ms: number) => Math.round(ms * 10) / 10;
  return {
    rate: options.rate,
    sent: total,
    completed: latencies.length,
    non2xx,
    errors,
    latencyP50Ms: round(quantile(latencies, 0.5)),
    latencyP99Ms: round(quantile(latencies, 0.99)),
    latencyMaxMs: round(latencies.at(-1) ?? 0),
  };
}
