/**
 * Runs the `skiff` CLI (clients/cli/main.ts) as a child process against a test server: in a pseudo-terminal
 * (`script` from util-linux, 120×40) or with plain pipes, output stripped of ANSI escapes and redraws.
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";

const exec = promisify(execFile);

/** The CLI's entry point. */
export const CLI_MAIN = join(process.cwd(), "clients", "cli", "main.ts");

/** No ANSI escapes, no carriage-return redraws. */
const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;?]*[A-Za-z]`, "g");
export const plain = (s: string) => s.replace(ANSI, "").replace(/\r/g, "\n");

/** The environment of a CLI run: server URL, API key, a config directory of its own, no colours. */
export function cliEnv(url: string, apiKey: string, configDir: string): NodeJS.ProcessEnv {
  return { ...process.env, SKIFF_URL: url, SKIFF_API_KEY: apiKey, XDG_CONFIG_HOME: configDir, FORCE_COLOR: "0" };
}

/**
 * Runs `skiff args…` with `env` (see {@link cliEnv}), in a pseudo-terminal unless `tty` is false; resolves with exit
 * code and output (never rejects on exit ≠ 0).
 */
export async function runCli(
  args: string[],
  env: NodeJS.ProcessEnv,
  tty = true,
  timeoutMs = 60_000,
): Promise<{ code: number; output: string; stdout: string; stderr: string }> {
  const quoted = [process.execPath, CLI_MAIN, ...args].map((a) => `'${a.replaceAll("'", "'\\''")}'`).join(" ");
  const [cmd, cmdArgs] = tty
    ? ["script", ["-qefc", `stty cols 120 rows 40; exec ${quoted}`, "/dev/null"]]
    : [process.execPath, [CLI_MAIN, ...args]];
  try {
    const { stdout, stderr } = await exec(cmd as string, cmdArgs as string[], {
      env,
      timeout: timeoutMs,
      maxBuffer: 64 * 1024 * 1024,
    });
    return { code: 0, output: plain(stdout + stderr), stdout, stderr };
  } catch (e) {
    const err = e as { code?: number; stdout?: string; stderr?: string };
    return {
      code: typeof err.code === "number" ? err.code : -1,
      output: plain(`${err.stdout}${err.stderr}`),
      stdout: err.stdout ?? "",
      stderr: err.stderr ?? "",
    };
  }
}
