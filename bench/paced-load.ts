/**
 * An open-loop load at a steady rate, for latency "at half of saturation": request i is due at start + i / rate
 * seconds, whatever happened to the others, over a pool of `connections` keep-alive sockets; its latency runs from
 * when it was due to the end of its answer, so time spent waiting for a free socket or behind a slow answer counts
 * (the coordinated-omission correction of wrk2). autocannon's `overallRate` is not that: each of its connections
 * sends its share of a second back to back as the second starts and then pauses, so the server meets a saturated
 * burst every second and its latency is the burst's.
 */
import { Agent, request } from "node:http";

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

/**
 * Sends `rate` requests per second to `target` for `durationSeconds` over at most `connections` sockets and waits
 * for every answer (at most 30 s past the end). @throws nothing: failures are counted in `errors`.
 */
export async function pacedLoad(
  target: PacedTarget,
  options: { rate: number; durationSeconds: number; connections: number },
): Promise<PacedResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: options.connections });
  const total = Math.max(1, Math.round(options.rate * options.durationSeconds));
  const interval = 1000 / options.rate;
  const latencies: number[] = [];
  let non2xx = 0;
  let errors = 0;
  let settled = 0;
  let allSettled: () => void = () => {};
  const done = new Promise<void>((resolve) => (allSettled = resolve));
  const settle = () => {
    settled++;
    if (settled === total) allSettled();
  };
  const send = (due: number) => {
    const req = request(target.url, { method: target.method, headers: target.headers, agent }, (res) => {
      res.resume();
      res.on("end", () => {
        latencies.push(performance.now() - due);
        if (!res.statusCode || res.statusCode < 200 || res.statusCode >= 300) non2xx++;
        settle();
      });
      res.on("error", () => {
        errors++;
        settle();
      });
    });
    req.on("error", () => {
      errors++;
      settle();
    });
    req.end(target.body);
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
  agent.destroy();
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
