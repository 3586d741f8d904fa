/**
 * Preloaded into a benchmark's Skiff process (`--import ./bench/executor-reads.ts`), runs every GraphQL query through
 * graphql-js with no remembered callers (src/reads/planner.ts, mode "executor"): the comparison of compiled reads
 * with the executor alone, e.g. `BENCH_BEFORE=HEAD BENCH_AFTER_NODE_ARGS="--import ./bench/executor-reads.ts" npm
 * run bench:peer` ("before": compiled reads; "after": the same code, executor only). No configuration of the product
 * reaches this mode.
 */
import { setProcessReadMode } from "../src/reads/index.ts";

setProcessReadMode("executor");
