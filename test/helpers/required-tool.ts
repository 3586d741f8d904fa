/**
 * External programs some tests drive (Chromium, PgBouncer, kubectl): found the way `.ci/run` finds them, and
 * missing ones handled one way everywhere. Under CI (`CI=true`, as `.ci/run` runs) a missing program fails the test
 * file at import with what to install; elsewhere its tests are skipped (Vitest counts and lists them) with the
 * reason printed once.
 */
import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";

/** True for a file this process may execute. */
function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The program to run: `$envVar` when set (it must then be executable: a wrong path is a mistake, not a missing
 * program), else the first of `names` on PATH (`command -v`, as `.ci/run` checks), else the first executable of
 * `fallbacks` (full paths in directories not on every PATH, e.g. `/usr/sbin/pgbouncer`). Null when there is none.
 * @throws when `$envVar` is set to a path that is not executable.
 */
export function findProgram(
  envVar: string,
  names: readonly string[],
  fallbacks: readonly string[] = [],
): string | null {
  const configured = process.env[envVar];
  if (configured) {
    if (!executable(configured)) throw new Error(`${envVar}=${configured} is not an executable file`);
    return configured;
  }
  const dirs = (process.env.PATH ?? "").split(delimiter).filter(Boolean);
  for (const name of names) {
    for (const dir of dirs) if (executable(join(dir, name))) return join(dir, name);
  }
  return fallbacks.find(executable) ?? null;
}

/**
 * Why `tests` (words naming them) are skipped — `missing` (what is missing and how to install it), printed once — or
 * null when `found` is set.
 * @throws under CI (`CI=true`) when `found` is null: CI must run every test, so a missing program fails loudly.
 */
export function skipReason(found: string | null, tests: string, missing: string): string | null {
  if (found) return null;
  if (process.env.CI === "true") throw new Error(`${tests} cannot run under CI: ${missing}`);
  const reason = `${tests} skipped: ${missing}`;
  console.warn(reason);
  return reason;
}
