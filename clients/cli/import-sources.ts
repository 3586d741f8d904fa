/**
 * What `skiff import` reads: JSON files (one import request each), NDJSON files (one request per line), every
 * `*.json` and `*.ndjson` of a directory (not recursive, in name order), or NDJSON on stdin (`-`). Each request gets
 * an idempotency key derived from where it came from and its exact text, so running the same command again sends
 * the same keys: finished and running imports are re-attached instead of duplicated (docs/site-imports.md,
 * "Idempotent requests"); an edited request is a new one.
 */
import { createHash } from "node:crypto";
import { readdir, readFile, stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import { CliError } from "./api.ts";

/** One import request of the input. */
export interface ImportEntry {
  /** Where it came from: the file, `file.ndjson:LINE` or `stdin:LINE`. */
  label: string;
  /** The parsed JSON, or undefined when {@link parseError} is set. */
  request: unknown;
  /** Why the text is not JSON. */
  parseError?: string;
  /** `skiff-` + SHA-256 (hex) of the source's identity and the text. */
  idempotencyKey: string;
}

/** The entry of `text` read from `identity` (absolute path, with `:LINE` for NDJSON), shown as `label`. */
function entry(label: string, identity: string, text: string): ImportEntry {
  const idempotencyKey = `skiff-${createHash("sha256").update(`${identity}\n${text}`).digest("hex")}`;
  try {
    return { label, request: JSON.parse(text), idempotencyKey };
  } catch (e) {
    return { label, request: undefined, parseError: `Not JSON: ${(e as Error).message}`, idempotencyKey };
  }
}

/** The requests of NDJSON `text` (blank lines skipped), labelled `label:LINE`. */
function ndjson(label: string, identity: string, text: string): ImportEntry[] {
  return text.split("\n").flatMap((line, i) => {
    const trimmed = line.trim();
    return trimmed ? [entry(`${label}:${i + 1}`, `${identity}:${i + 1}`, trimmed)] : [];
  });
}

/** The requests of one file (NDJSON when it ends in `.ndjson`). @throws CliError (2) when it cannot be read. */
async function fromFile(path: string): Promise<ImportEntry[]> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (e) {
    throw new CliError(`Cannot read ${path}: ${(e as Error).message}`, 2);
  }
  const identity = resolve(path);
  return path.endsWith(".ndjson") ? ndjson(path, identity, text) : [entry(path, identity, text.trim())];
}

/** Everything of stdin, as text. */
async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * Every request of `sources` (files, directories, `-`), in order.
 * @throws CliError (2) when a source cannot be read or nothing is found.
 */
export async function readImportEntries(sources: string[]): Promise<ImportEntry[]> {
  const entries: ImportEntry[] = [];
  for (const source of sources) {
    if (source === "-") {
      entries.push(...ndjson("stdin", "stdin", await readStdin()));
      continue;
    }
    const info = await stat(source).catch(() => null);
    if (!info) throw new CliError(`Cannot read ${source}: no such file or directory`, 2);
    if (!info.isDirectory()) {
      entries.push(...(await fromFile(source)));
      continue;
    }
    const names = (await readdir(source)).filter((n) => n.endsWith(".json") || n.endsWith(".ndjson")).sort();
    for (const name of names) entries.push(...(await fromFile(join(source, name))));
  }
  if (entries.length === 0) throw new CliError(`No import requests in ${sources.join(" ")}`, 2);
  return entries;
}
