/**
 * Preloaded (`node --import ./bench/peer-probe.mjs`) into each server process of `npm run bench:peer`: counts the
 * SQL statements the process sends (a wrap of `Client.prototype.query` of the `pg` its main script resolves, which
 * knex, graphile-worker and PostGraphile's adaptor all call) and answers `"stats"` IPC messages with
 * `{ statements, cpuMicros (user + system, process.cpuUsage), rssBytes }`. With BENCH_MEMORY_LOG set, each answer
 * also writes the process's `process.memoryUsage()`, its resident memory by kind of mapping and V8's heap spaces'
 * resident sizes to stderr (RSS against the V8 heap and glibc's heap: what lies where).
 * Plain JavaScript on purpose: a TypeScript probe would load Node's TypeScript stripper (about 19 MB of RSS) into
 * every server it measures, which `npm start` keeps out of Skiff (scripts/stripped-sources.mjs) and PostGraphile's
 * JavaScript never loads.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { resolve } from "node:path";
import { getHeapSpaceStatistics } from "node:v8";

// The `pg` the process's main script loads (the peer has its own, in bench/peer/node_modules): patch that one.
/** @type {typeof import("pg")} */
const pg = createRequire(resolve(process.argv[1] ?? "."))("pg");

let statements = 0;
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function (...args) {
  statements++;
  return query.apply(this, args);
};

/**
 * The process's resident memory by kind of mapping, in MB, from /proc/self/smaps (Linux; nothing elsewhere): glibc's
 * main arena (`heapMb`, `[heap]`), anonymous mappings (`anonMb`: V8's heap, other arenas, mapped buffers), the node
 * binary (`nodeMb`) and other files (`filesMb`).
 */
function residentMb() {
  let text;
  try {
    text = readFileSync("/proc/self/smaps", "utf8");
  } catch {
    return {};
  }
  const kb = { heapMb: 0, anonMb: 0, nodeMb: 0, filesMb: 0 };
  let kind = "anonMb";
  for (const line of text.split("\n")) {
    const mapping = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (mapping) {
      const name = mapping[1];
      kind = name === "" ? "anonMb" : name === "[heap]" ? "heapMb" : name === process.execPath ? "nodeMb" : "filesMb";
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) kb[kind] += Number(rss[1]);
  }
  return Object.fromEntries(Object.entries(kb).map(([k, v]) => [k, Math.round(v / 1024)]));
}

/** V8's heap spaces' resident size in MB (`physical_space_size`), by space name. */
function heapSpacesMb() {
  return Object.fromEntries(
    getHeapSpaceStatistics().map((s) => [s.space_name, Math.round(s.physical_space_size / 1048576)]),
  );
}

process.on("message", (message) => {
  if (message !== "stats") return;
  const cpu = process.cpuUsage();
  const memory = process.memoryUsage();
  if (process.env.BENCH_MEMORY_LOG)
    console.error("memory", process.pid, JSON.stringify({ ...memory, ...residentMb(), ...heapSpacesMb() }));
  // With --expose-gc (diagnosis only): the live heap after a full collection.
  const gc = globalThis.gc;
  gc?.();
  const liveHeapBytes = gc ? process.memoryUsage().heapUsed : null;
  process.send?.({
    statements,
    cpuMicros: cpu.user + cpu.system,
    rssBytes: memory.rss,
    heapUsedBytes: memory.heapUsed,
    liveHeapBytes,
  });
});
// The IPC channel must not keep a server alive after its shutdown, and a server must not outlive the benchmark.
process.channel?.unref();
process.on("disconnect", () => process.exit(0));
