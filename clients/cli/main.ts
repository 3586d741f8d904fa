#!/usr/bin/env node
/**
 * `skiff`'s entry point (the package's `bin`; the commands are in program.ts). Node's compile cache is turned on
 * before the program loads: V8's compiled code of its modules is kept on disk between runs (Node's default place,
 * NODE_COMPILE_CACHE when set), so a command after the first compiles only what changed since. Where that place is
 * not writable, Node carries on without it.
 */
import { enableCompileCache } from "node:module";

enableCompileCache();
const { run } = await import("./program.ts");
process.exitCode = await run(process.argv.slice(2));
