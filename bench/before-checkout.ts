/**
 * A checkout of an earlier Skiff (`BENCH_BEFORE=<git ref>` of `npm run bench:peer`) to serve as the "before" of a
 * before/after panel: `git worktree add --detach` of the ref into a temporary directory, with this checkout's
 * `node_modules` linked in (the ref must have the same package.json: the benchmark says so when it does not) and
 * this checkout's newer migrations copied in (the servers share one database). A
 * run killed before its clean-up leaves the worktree behind: `git worktree list` shows it, `git worktree remove
 * --force <dir>` removes it.
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

/** A temporary checkout of a ref and how to remove it. */
export interface BeforeCheckout {
  /** The checkout's directory (run `node src/main.ts` there). */
  dir: string;
  /** The ref's commit, abbreviated, for the printed figures. */
  commit: string;
  /** True when the ref's package.json differs from this checkout's (its dependencies may then be wrong). */
  packageJsonDiffers: boolean;
  remove(): void;
}

const ROOT = resolve(import.meta.dirname, "..");
const git = (...args: string[]) => execFileSync("git", args, { cwd: ROOT, encoding: "utf8" }).trim();

/**
 * Checks `ref` out into a temporary git worktree (detached) sharing this checkout's node_modules.
 * @throws Error when `ref` is not a commit of this repository or git fails.
 */
export function checkoutBefore(ref: string): BeforeCheckout {
  const commit = git("rev-parse", "--short", `${ref}^{commit}`);
  const dir = mkdtempSync(join(tmpdir(), "skiff-bench-before-"));
  git("worktree", "add", "--quiet", "--detach", dir, commit);
  symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
  // Both servers share the panel's database, migrated by this checkout: the ref must accept its migrations (Knex
  // refuses a database holding migrations it does not have), so it gets those it lacks (they only add).
  for (const file of readdirSync(join(ROOT, "migrations"))) {
    if (!existsSync(join(dir, "migrations", file)))
      copyFileSync(join(ROOT, "migrations", file), join(dir, "migrations", file));
  }
  const packageJsonDiffers =
    readFileSync(join(dir, "package.json"), "utf8") !== readFileSync(join(ROOT, "package.json"), "utf8");
  return {
    dir,
    commit,
    packageJsonDiffers,
    remove() {
      git("worktree", "remove", "--force", dir);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
