/**
 * The test certificate authority: a CA and one server certificate it signs, for loopback HTTPS receivers that
 * Skiff's outbound client reaches with TLS verification on. The CA is trusted only through NODE_EXTRA_CA_CERTS,
 * which the vitest global setup sets before the test workers are forked (Node reads it at process start).
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generate } from "selfsigned";

/** Files of a generated test CA (PEM). */
export interface TestCaFiles {
  dir: string;
  /** The CA certificate: the value of NODE_EXTRA_CA_CERTS. */
  caFile: string;
  /** Server certificate for `localhost`, `*.localhost`, `skiff.test`, `*.skiff.test`, 127.0.0.1, 127.0.0.2, ::1. */
  certFile: string;
  keyFile: string;
}

/** Names and addresses the server certificate is valid for. */
export const TEST_CERT_NAMES = ["localhost", "*.localhost", "skiff.test", "*.skiff.test"];
export const TEST_CERT_IPS = ["127.0.0.1", "127.0.0.2", "::1"];

/** Generates a CA and a server certificate (EC P-256, valid 2 days) into a new temporary directory. */
export async function createTestCa(): Promise<TestCaFiles> {
  const notBeforeDate = new Date(Date.now() - 60_000);
  const notAfterDate = new Date(Date.now() + 2 * 24 * 3600_000);
  const common = { keyType: "ec", algorithm: "sha256", notBeforeDate, notAfterDate } as const;
  const ca = await generate([{ name: "commonName", value: "Skiff test CA" }], {
    ...common,
    extensions: [
      { name: "basicConstraints", cA: true, critical: true },
      { name: "keyUsage", keyCertSign: true, cRLSign: true, critical: true },
    ],
  });
  const leaf = await generate([{ name: "commonName", value: "skiff.test" }], {
    ...common,
    ca: { key: ca.private, cert: ca.cert },
    extensions: [
      { name: "basicConstraints", cA: false },
      { name: "keyUsage", digitalSignature: true, keyEncipherment: true },
      { name: "extKeyUsage", serverAuth: true },
      {
        name: "subjectAltName",
        altNames: [
          ...TEST_CERT_NAMES.map((value) => ({ type: 2 as const, value })),
          ...TEST_CERT_IPS.map((ip) => ({ type: 7 as const, ip })),
        ],
      },
    ],
  });
  const dir = await mkdtemp(join(tmpdir(), "skiff-test-ca-"));
  const files = {
    dir,
    caFile: join(dir, "ca.pem"),
    certFile: join(dir, "server.pem"),
    keyFile: join(dir, "server-key.pem"),
  };
  await writeFile(files.caFile, ca.cert);
  await writeFile(files.certFile, leaf.cert);
  await writeFile(files.keyFile, leaf.private, { mode: 0o600 });
  return files;
}

/** Removes the directory of a test CA. */
export async function removeTestCa(files: TestCaFiles): Promise<void> {
  await rm(files.dir, { recursive: true, force: true });
}
