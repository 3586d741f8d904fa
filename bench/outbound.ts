/**
 * `npm run bench:outbound`: the outbound client's own cost per call (src/http/outbound-client.ts: URL and address
 * checks, name resolution, pinned pools, timeouts, capped body, metrics) beside undici's bare `Pool.request` to the
 * same receiver: CPU time of this process per call (µs) and calls per second, at 50 calls in flight over keep-alive
 * HTTPS to a loopback receiver in its own process, BENCH_OUTBOUND_CALLS calls per measurement (default 20,000, after
 * as many not counted), BENCH_OUTBOUND_ROUNDS rounds (default 3; the median is the figure). The URL names the
 * receiver `localhost` (allow-listed), as users' URLs name hosts; BENCH_OUTBOUND_HOST=127.0.0.1 measures calls that
 * resolve nothing. The receiver's certificate comes from a throw-away CA (bench/trusted-rerun.ts).
 */
import { type ChildProcess, fork } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer } from "node:https";
import { fileURLToPath } from "node:url";
import { Pool } from "undici";
import { rerunTrustingTestCa } from "./trusted-rerun.ts";

const self = fileURLToPath(import.meta.url);
const role = process.env.BENCH_OUTBOUND_ROLE;

if (role === "receiver") {
  // Answers 200 with an empty body once the request's body is read.
  const tls = { cert: readFileSync(process.env.BENCH_CERT!), key: readFileSync(process.env.BENCH_KEY!) };
  const server = createServer(tls, (req, res) => {
    req.resume();
    req.on("end", () => res.writeHead(200).end());
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, "127.0.0.1", () => process.send!((server.address() as { port: number }).port));
} else if (!role) {
  await rerunTrustingTestCa(self, "BENCH_OUTBOUND_ROLE");
} else {
  const { createOutboundClient } = await import("../src/http/outbound-client.ts");
  const host = process.env.BENCH_OUTBOUND_HOST ?? "localhost";
  const calls = Number(process.env.BENCH_OUTBOUND_CALLS ?? 20_000);
  const rounds = Number(process.env.BENCH_OUTBOUND_ROUNDS ?? 3);
  const inFlight = 50;
  const receiver: ChildProcess = fork(self, [], { env: { ...process.env, BENCH_OUTBOUND_ROLE: "receiver" } });
  const port = await new Promise<number>((resolve) => receiver.once("message", (p) => resolve(p as number)));
  // A webhook delivery's shape: a JSON body of about 400 bytes and its signature headers.
  const body = JSON.stringify({
    event: "course_completed",
    data: { user: { user_uuid: "user_1" }, x: "y".repeat(300) },
  });
  const headers = {
    "content-type": "application/json",
    "x-webhook-signature": `sha256=${"a".repeat(64)}`,
    "webhook-id": "delivery_1",
    "webhook-timestamp": "1800000000",
    "webhook-signature": `v1,${"b".repeat(44)}`,
  };
  const url = `https://${host}:${port}/hook`;
  const client = createOutboundClient({
    allow: `127.0.0.1,${host}`,
    clusterDomain: "svc.cluster.local",
    log: { warn() {}, debug() {} },
  });
  const pool = new Pool(`https://${host}:${port}`, { connections: 16, pipelining: 1 });
  const ways: Record<string, () => Promise<unknown>> = {
    "outbound client": () =>
      client.request({ method: "POST", url, headers, body, timeoutMs: 10_000, maxBodyBytes: 4096 }),
    "undici Pool.request": async () => {
      const res = await pool.request({ method: "POST", path: "/hook", headers, body });
      await res.body.dump();
    },
  };
  /** `calls` calls of `one`, `inFlight` at a time: this process's CPU µs per call and calls per second. */
  async function measure(one: () => Promise<unknown>) {
    let started = 0;
    const lane = async () => {
      while (started++ < calls) await one();
    };
    await Promise.all(Array.from({ length: inFlight }, lane));
    started = 0;
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    await Promise.all(Array.from({ length: inFlight }, lane));
    const cpu = process.cpuUsage(cpu0);
    return { cpuUs: (cpu.user + cpu.system) / calls, perSecond: (calls * 1000) / (performance.now() - t0) };
  }
  const figures = new Map<string, Array<{ cpuUs: number; perSecond: number }>>();
  try {
    for (let r = 0; r < rounds; r++) {
      for (const [name, one] of Object.entries(ways))
        figures.set(name, [...(figures.get(name) ?? []), await measure(one)]);
    }
  } finally {
    receiver.kill();
    await pool.close();
    await client.close();
  }
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const lines = [`Outbound calls to ${url} (HTTPS, keep-alive), ${inFlight} in flight, median of ${rounds} rounds:`];
  for (const [name, runs] of figures) {
    lines.push(
      `  ${name}: ${median(runs.map((f) => f.cpuUs)).toFixed(1)} µs of CPU per call, ${Math.round(median(runs.map((f) => f.perSecond)))} calls/s`,
    );
  }
  process.stdout.write(`${lines.join("\n")}\n`);
}
