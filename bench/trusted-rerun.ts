/**
 * The start of a bench whose receivers serve HTTPS with a throw-away CA's certificate (test/helpers/test-ca.ts):
 * Node reads NODE_EXTRA_CA_CERTS only at start, so the script runs itself again with it set, and with
 * `BENCH_CERT` / `BENCH_KEY` (the receiver's certificate and key files) and `roleVariable` = `bench`.
 */
import { spawnSync } from "node:child_process";
import { createTestCa, removeTestCa } from "../test/helpers/test-ca.ts";

/**
 * Makes the CA, runs `script` again (Node flags `flags`, then this process's own) trusting it, sets this process's
 * exit code to that run's and removes the CA.
 */
export async function rerunTrustingTestCa(script: string, roleVariable: string, flags: string[] = []): Promise<void> {
  const ca = await createTestCa();
  try {
    const run = spawnSync(process.execPath, [...flags, ...process.execArgv, script], {
      stdio: "inherit",
      env: {
        ...process.env,
        [roleVariable]: "bench",
        NODE_EXTRA_CA_CERTS: ca.caFile,
        BENCH_CERT: ca.certFile,
        BENCH_KEY: ca.keyFile,
      },
    });
    process.exitCode = run.status ?? 1;
  } finally {
    await removeTestCa(ca);
  }
}
