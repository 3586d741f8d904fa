/**
 * A wrong configuration stops `node src/main.ts` (and `npm run migrate`) before anything starts: exit code 1 and,
 * on stderr, only loadConfig's message naming every wrong variable — no uncaught exception, no stack trace.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { spawnMain } from "../helpers/process.ts";

const root = fileURLToPath(new URL("../../", import.meta.url));
const nodeBinary = existsSync(`${root}node_modules/.bin/node`) ? `${root}node_modules/.bin/node` : process.execPath;

/** Waits for `child` to exit (killing it after `timeoutMs`) and returns its exit code, stdout and stderr. */
async function outcome(
  child: ChildProcess,
  timeoutMs = 30_000,
): Promise<{ code: number | null; out: string; err: string }> {
  let out = "";
  let err = "";
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
    out += chunk;
  });
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    err += chunk;
  });
  const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
  const code = await new Promise<number | null>((resolve) => child.once("exit", (c) => resolve(c)));
  clearTimeout(timer);
  return { code, out, err };
}

/** Asserts that stderr is the configuration message alone, naming each of `variables`. */
function expectConfigMessage(err: string, variables: readonly string[]): void {
  const lines = err.trimEnd().split("\n");
  expect(lines[0], err).toBe("Invalid configuration:");
  for (const line of lines.slice(1)) expect(line, err).toMatch(/^ {2}[A-Z][A-Z0-9_]*(\.\d+)?: \S/);
  expect(err).not.toMatch(/^\s+at /m);
  expect(err).not.toMatch(/file:\/\/|node:internal|Error:/);
  for (const name of variables) expect(err).toMatch(new RegExp(`^ {2}${name}: `, "m"));
}

describe("start with a wrong configuration", () => {
  it("src/main.ts with PORT=abc exits 1 printing the message, no stack trace", async () => {
    const { code, out, err } = await outcome(spawnMain({ PORT: "abc" }));
    expect(code, err).toBe(1);
    expectConfigMessage(err, ["PORT"]);
    expect(out).toBe("");
  });

  it("src/main.ts names every wrong variable at once", async () => {
    const { code, err } = await outcome(
      spawnMain({
        PORT: "abc",
        SMTP_URL: "http://x",
        DATABASE_URL: "mysql://root@127.0.0.1:1/skiff",
        SKIFF_TRUSTED_ORIGINS: "notaurl",
        SKIFF_BASE_URL: "ftp://x",
        GITHUB_CLIENT_ID: "id",
      }),
    );
    expect(code, err).toBe(1);
    expectConfigMessage(err, [
      "PORT",
      "SMTP_URL",
      "DATABASE_URL",
      "SKIFF_TRUSTED_ORIGINS",
      "SKIFF_BASE_URL",
      "GITHUB_CLIENT_SECRET",
    ]);
  });

  it("scripts/migrate.ts exits 1 printing the message, no stack trace", async () => {
    const child = spawn(nodeBinary, ["scripts/migrate.ts"], {
      cwd: root,
      env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", PORT: "abc", DATABASE_URL: "mysql://x/y" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const { code, out, err } = await outcome(child);
    expect(code, err).toBe(1);
    expectConfigMessage(err, ["PORT", "DATABASE_URL"]);
    expect(out).toBe("");
  });
});
