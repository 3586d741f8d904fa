/**
 * `skiff export`: writes an organization's bundle (docs/organization-transfer.md) from
 * `GET /api/organizations/{id}/export` to a file (or stdout with `-o -`), streamed as it arrives. Secrets are
 * encrypted to `--recipient` (an age X25519 recipient, `age1…`) or to the passphrase in the environment variable
 * SKIFF_EXPORT_PASSPHRASE (never a command-line argument: it would show in the process list); with neither they are
 * left out, and the command says so. Exit codes: 0 written, 1 refused by the server, 2 usage.
 */
import { open } from "node:fs/promises";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import { CliError, type Credentials, errorOf, graphql, reaching } from "./api.ts";
import { ActiveOrganizationQuery } from "./operations.ts";

/** Options of `skiff export`. */
export interface ExportOptions {
  org?: string;
  recipient?: string;
  output?: string;
  json?: boolean;
}

/** What `skiff export` reports once the file is written. */
interface ExportReport {
  organizationId: string;
  file: string;
  bytes: number;
  secrets: "encrypted" | "left out";
}

/**
 * `file` opened for writing (emptied if it exists), readable and writable by its owner only — 0600 also when it was
 * there before with another mode: the bundle may hold secrets, encrypted or not.
 */
async function privateFile(file: string) {
  const handle = await open(file, "w", 0o600);
  try {
    await handle.chmod(0o600);
  } catch (e) {
    await handle.close();
    throw e;
  }
  return handle.createWriteStream();
}

/**
 * Runs `skiff export`; messages go to stderr (stdout may be the bundle itself). @returns the exit code.
 * @throws CliError (1) when the server refuses (its message), (2) when there is no organization to export.
 */
export async function exportCommand(c: Credentials, o: ExportOptions): Promise<number> {
  const organizationId = o.org ?? (await graphql(c, ActiveOrganizationQuery, {})).viewer.activeOrganization?.id;
  if (!organizationId) throw new CliError("No organization: give --org <id>", 2);
  const passphrase = process.env.SKIFF_EXPORT_PASSPHRASE || undefined;
  if (passphrase && o.recipient) throw new CliError("Give --recipient or SKIFF_EXPORT_PASSPHRASE, not both", 2);
  const query = o.recipient ? `?recipient=${encodeURIComponent(o.recipient)}` : "";
  const res = await reaching(c.url)(`${c.url}/api/organizations/${encodeURIComponent(organizationId)}/export${query}`, {
    headers: { "x-api-key": c.apiKey, ...(passphrase ? { "x-skiff-export-passphrase": passphrase } : {}) },
  });
  if (res.status !== 200 || !res.body) throw new CliError(errorOf(await res.json().catch(() => null)), 1);
  const file = o.output ?? `${organizationId}.skiff-bundle.json`;
  let bytes = 0;
  try {
    // Opened before the body is read: a counting listener makes the body flow, and nothing may flow before the pipe.
    const out = file === "-" ? process.stdout : await privateFile(file);
    const body = Readable.fromWeb(res.body as WebReadableStream<Uint8Array>);
    body.on("data", (chunk: Buffer) => {
      bytes += chunk.length;
    });
    await pipeline(body, out);
  } catch (e) {
    // The output file cannot be written (no such directory, no permission): the caller's argument, as docs/cli.md's
    // exit 2 says for files.
    const code = (e as NodeJS.ErrnoException).code;
    if (file !== "-" && typeof code === "string" && /^E(NOENT|ACCES|PERM|ISDIR|NOTDIR|ROFS)$/.test(code)) {
      throw new CliError(`Cannot write ${file}: ${code}`, 2);
    }
    throw e;
  }
  const report: ExportReport = {
    organizationId,
    file,
    bytes,
    secrets: passphrase || o.recipient ? "encrypted" : "left out",
  };
  const text =
    report.secrets === "encrypted"
      ? `Exported ${organizationId} to ${file} (${bytes} bytes), secrets encrypted with age`
      : `Exported ${organizationId} to ${file} (${bytes} bytes); secrets were left out (give --recipient or SKIFF_EXPORT_PASSPHRASE to carry them)`;
  console.error(o.json ? JSON.stringify(report) : text);
  return 0;
}
