/**
 * `npm run test:image`: builds the Dockerfile with buildah (vfs storage, chroot isolation: no daemon, no overlay
 * mounts, works as root in a VM or a container) and starts it with podman the way deploy/ runs it — uid 1000, a
 * read-only root filesystem, writable tmpfs /tmp and /data only, all capabilities dropped, no privilege
 * escalation — on the host's network with DATABASE_URL to a fresh database of the host's PostgreSQL. Passes when
 * `/readyz` answers 200 and scripts/smoke.ts (one request per surface, with the API key the first start printed)
 * passes against the container; checks that the process runs as 1000 and cannot write to /app.
 *
 * The base images (scripts/build-base-image.sh) are built first when absent. Prints the figures: base and image
 * build times (seconds), image size (MB, uncompressed), seconds from `podman run` to /readyz 200, the server's RSS
 * (MB) when ready and after the smoke.
 *
 * Needs root, buildah, podman, runc and debootstrap (Debian packages) and a PostgreSQL server. Settings (environment):
 * SKIFF_IMAGE_DATABASE_URL — a server's URL whose user may create databases (default
 * postgres://postgres@127.0.0.1:5432/postgres; host networking, so 127.0.0.1 is the host's); SKIFF_IMAGE_STORAGE —
 * the containers-storage directory (default ~/.cache/skiff-image). Not part of `npm test` (minutes, root); `.ci/run`
 * runs it with CI_IMAGE=1.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { freePort } from "../test/helpers/free-port.ts";

const root = new URL("..", import.meta.url).pathname;
const tag = "localhost/skiff:test";
const storage = process.env.SKIFF_IMAGE_STORAGE ?? join(homedir(), ".cache", "skiff-image");
const adminUrl = process.env.SKIFF_IMAGE_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

/** Fails the run with `message`: thrown, so that the container and the database are still removed. */
function fail(message: string): never {
  throw new Error(`test:image: ${message}`);
}

/** Seconds since `started` (ms since the epoch), one decimal. */
function since(started: number): string {
  return ((Date.now() - started) / 1000).toFixed(1);
}

// One storage for buildah and podman, vfs (plain directory copies: no overlay mounts needed), chroot isolation.
mkdirSync(storage, { recursive: true });
const storageConf = join(storage, "storage.conf");
writeFileSync(
  storageConf,
  `[storage]\ndriver = "vfs"\ngraphroot = "${storage}/storage"\nrunroot = "/run/skiff-image"\n`,
);
const env = { ...process.env, CONTAINERS_STORAGE_CONF: storageConf, BUILDAH_ISOLATION: "chroot" };

/** Runs `command` with the shared storage, output shown; fails the run when it exits non-zero. */
function run(command: string, args: string[]): void {
  const result = spawnSync(command, args, { cwd: root, env, stdio: "inherit" });
  if (result.status !== 0) fail(`${command} ${args.join(" ")} exited ${result.status ?? result.signal}`);
}

/** Runs `command` with the shared storage and returns its standard output, trimmed. */
function output(command: string, args: string[]): string {
  return execFileSync(command, args, { cwd: root, env, encoding: "utf8" }).trim();
}

/** True when `command` runs with the shared storage and exits 0 (its output discarded). */
function succeeds(command: string, args: string[]): boolean {
  return spawnSync(command, args, { cwd: root, env, stdio: "ignore" }).status === 0;
}

/** Resident set size of process `pid`, MB (from /proc; the container's processes are the host's). */
function rssMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, "utf8").match(/^VmRSS:\s+(\d+) kB/m);
  return line ? Math.round(Number(line[1]) / 1024) : Number.NaN;
}

if (process.getuid?.() !== 0) fail("needs root (debootstrap for the base, buildah's chroot isolation)");
for (const tool of ["buildah", "podman", "runc", "debootstrap"]) {
  if (!succeeds("sh", ["-c", `command -v ${tool}`])) fail(`${tool} is missing: apt-get install -y ${tool}`);
}

// The Dockerfile's default Node is the lock file's, the Node the tests run.
const lock = JSON.parse(readFileSync(join(root, "package-lock.json"), "utf8"));
const nodeVersion: string = lock.packages["node_modules/node"].version;
const dockerfileNode = readFileSync(join(root, "Dockerfile"), "utf8").match(/^ARG NODE_VERSION=(\S+)$/m)?.[1];
if (dockerfileNode !== nodeVersion) {
  fail(`the Dockerfile's NODE_VERSION (${dockerfileNode}) is not package-lock.json's node (${nodeVersion})`);
}

const base = `localhost/skiff-base:node${nodeVersion}-bookworm`;
if (
  !succeeds("buildah", ["inspect", "--type", "image", base]) ||
  !succeeds("buildah", ["inspect", "--type", "image", `${base}-npm`])
) {
  const started = Date.now();
  run(join(root, "scripts", "build-base-image.sh"), []);
  console.log(`test:image: base images built in ${since(started)} s`);
} else {
  console.log(`test:image: base images present (${base}, ${base}-npm)`);
}

// The certificate authorities this machine's npm trusts (its `cafile`, e.g. a proxy's), handed to the build's
// `npm ci` steps as the `npm_ca` secret; nothing when npm uses Node's own.
const cafile = output("npm", ["config", "get", "cafile"]);
const secret = cafile && cafile !== "null" && existsSync(cafile) ? ["--secret", `id=npm_ca,src=${cafile}`] : [];
let started = Date.now();
run("buildah", ["bud", "--layers", "--isolation", "chroot", ...secret, "--tag", tag, "--file", "Dockerfile", "."]);
console.log(`test:image: image built in ${since(started)} s`);
const size = Number(output("podman", ["image", "inspect", "--format", "{{.Size}}", tag]));
console.log(`test:image: image size ${Math.round(size / 1e6)} MB (uncompressed)`);

// A fresh database on the host's server, dropped at the end.
const database = `skiff_image_${process.pid}`;
const admin = new pg.Client({ connectionString: adminUrl });
await admin.connect();
await admin.query(`create database ${database}`);
const databaseUrl = new URL(adminUrl);
databaseUrl.pathname = `/${database}`;

const name = `skiff-image-test-${process.pid}`;
const [port, metricsPort] = [await freePort(), await freePort()];
try {
  // runc, not Debian 12's default crun, which refuses a hybrid cgroup hierarchy (v1 controllers beside v2, as in
  // some VMs). Open files: this process's soft limit; processes: 4096. Podman's defaults raise both, which a host
  // without CAP_SYS_RESOURCE refuses.
  const nofile = output("bash", ["-c", "ulimit -Sn"]);
  const nproc = 4096;
  started = Date.now();
  run("podman", [
    "--runtime",
    "runc",
    "run",
    "--ulimit",
    `nofile=${nofile}:${nofile}`,
    "--ulimit",
    `nproc=${nproc}:${nproc}`,
    "--detach",
    "--name",
    name,
    "--network",
    "host",
    "--user",
    "1000:1000",
    "--read-only",
    "--read-only-tmpfs=false",
    "--tmpfs",
    "/tmp:rw,size=64m,mode=1777",
    "--tmpfs",
    "/data:rw,size=64m,mode=0700,U",
    "--cap-drop",
    "ALL",
    "--security-opt",
    "no-new-privileges",
    "--env",
    `DATABASE_URL=${databaseUrl}`,
    "--env",
    "HOST=127.0.0.1",
    "--env",
    `PORT=${port}`,
    "--env",
    `SKIFF_METRICS_PORT=${metricsPort}`,
    "--env",
    `SKIFF_SECRET=${randomBytes(32).toString("hex")}`,
    "--env",
    `SKIFF_BASE_URL=http://127.0.0.1:${port}`,
    tag,
  ]);
  const url = `http://127.0.0.1:${port}`;
  let ready = false;
  while (!ready && Date.now() - started < 180_000) {
    ready = await fetch(`${url}/readyz`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (!ready) {
      if (output("podman", ["inspect", "--format", "{{.State.Running}}", name]) !== "true") break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
  if (!ready) {
    run("podman", ["logs", name]);
    fail("the container did not answer /readyz 200");
  }
  const pid = Number(output("podman", ["inspect", "--format", "{{.State.Pid}}", name]));
  console.log(`test:image: /readyz 200 ${since(started)} s after podman run; RSS ${rssMb(pid)} MB`);

  const uid = readFileSync(`/proc/${pid}/status`, "utf8").match(/^Uid:\s+(\d+)/m)?.[1];
  if (uid !== "1000") fail(`the server runs as uid ${uid}, not 1000`);
  if (succeeds("podman", ["exec", name, "touch", "/app/written"])) fail("the root filesystem is writable");

  const logs = output("podman", ["logs", name]);
  const [key, email, password] = [/^API key *: *(\S+)/m, /^Owner account *: *(\S+)/m, /^Password *: *(\S+)/m].map(
    (line) => logs.match(line)?.[1],
  );
  if (!key || !email || !password) fail("the first start printed no API key, owner account or password");
  const metrics = `http://127.0.0.1:${metricsPort}/metrics`;
  run(process.execPath, [join(root, "scripts", "smoke.ts"), url, key, email, password, metrics]);
  console.log(`test:image: smoke passed; RSS ${rssMb(pid)} MB`);
  console.log("test:image: passed");
} catch (error) {
  console.error((error as Error).message);
  process.exitCode = 1;
} finally {
  succeeds("podman", ["stop", "--time", "30", name]);
  succeeds("podman", ["rm", "--force", name]);
  await admin.query(`drop database if exists ${database} with (force)`);
  await admin.end();
}
