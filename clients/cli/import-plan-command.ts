/**
 * `skiff import-plan <bundle>`: shows what importing an organization bundle (docs/organization-transfer.md) into an
 * organization (the API key's, or `--org`) would do, from `POST /api/organizations/{id}/import-plan`, changing
 * nothing: one line per resource (`create`, `exists`, `conflict: <reason>`), the quotas the creations would exceed,
 * and the warnings (each secret that would be left empty, …). The secrets key: `--identity <file>` (an age identity
 * file, `AGE-SECRET-KEY-1…` lines as age-keygen writes them) or the passphrase in SKIFF_IMPORT_PASSPHRASE. Exit codes:
 * 0 no conflict, 1 conflicts or refused, 2 usage (unreadable file, both keys).
 */
import { readFile } from "node:fs/promises";
import { CliError, type Credentials, errorOf, graphql, reaching } from "./api.ts";
import { ActiveOrganizationQuery } from "./operations.ts";

/** Options of `skiff import-plan`. */
export interface ImportPlanOptions {
  org?: string;
  identity?: string;
  json?: boolean;
}

/** The plan as the server answers it. */
export interface Plan {
  creates: number;
  exists: number;
  conflicts: number;
  secrets: number;
  secretsReadable: number;
  warnings: string[];
  items: Array<{ kind: string; name: string; action: "CREATE" | "EXISTS" | "CONFLICT"; reason: string | null }>;
}

/** Reads a file or fails with a usage error naming it. */
async function readText(file: string, what: string): Promise<string> {
  try {
    return await readFile(file, "utf8");
  } catch (e) {
    throw new CliError(`Cannot read ${what} ${file}: ${(e as Error).message}`, 2);
  }
}

/** The plan in people's words. */
export function planText(plan: Plan): string {
  const width = Math.max(...plan.items.map((i) => i.kind.length), 4);
  const lines = plan.items.map((i) => {
    const action = i.action === "CONFLICT" ? `conflict: ${i.reason}` : i.action.toLowerCase();
    return `${i.kind.padEnd(width)}  ${i.name}  ${action}`;
  });
  return [
    ...lines,
    ...plan.warnings.map((w) => `warning: ${w}`),
    `${plan.creates} to create, ${plan.exists} existing, ${plan.conflicts} conflict(s); ${plan.secretsReadable} of ${plan.secrets} secret(s) readable`,
  ].join("\n");
}

/** The request of a plan or an import: the bundle, its key and the organization. */
export interface BundleRequest {
  organizationId: string;
  bundle: unknown;
  identity: string | undefined;
  passphrase: string | undefined;
}

/**
 * Reads the bundle `file`, the key (`--identity` file or SKIFF_IMPORT_PASSPHRASE) and the organization (`--org` or
 * the API key's). @throws CliError (exit 2) for an unreadable file, both keys, no organization.
 */
export async function bundleRequest(
  c: Credentials,
  file: string,
  o: { org?: string; identity?: string },
): Promise<BundleRequest> {
  let bundle: unknown;
  try {
    bundle = JSON.parse(await readText(file, "bundle"));
  } catch (e) {
    if (e instanceof CliError) throw e;
    throw new CliError(`${file} is not JSON: ${(e as Error).message}`, 2);
  }
  const passphrase = process.env.SKIFF_IMPORT_PASSPHRASE || undefined;
  if (passphrase && o.identity) throw new CliError("Give --identity or SKIFF_IMPORT_PASSPHRASE, not both", 2);
  const identity = o.identity
    ? (await readText(o.identity, "identity file"))
        .split("\n")
        .map((l) => l.trim())
        .find((l) => l.startsWith("AGE-SECRET-KEY-"))
    : undefined;
  if (o.identity && !identity) throw new CliError(`${o.identity} holds no AGE-SECRET-KEY-1… line`, 2);
  const organizationId = o.org ?? (await graphql(c, ActiveOrganizationQuery, {})).viewer.activeOrganization?.id;
  if (!organizationId) throw new CliError("No organization: give --org <id>", 2);
  return { organizationId, bundle, identity, passphrase };
}

/** `POST /api/organizations/{id}/<path>` with the bundle request (and `extra`). @throws CliError (exit 1) unless 200. */
export async function postBundle<T>(
  c: Credentials,
  path: "import-plan" | "import",
  r: BundleRequest,
  extra: Record<string, unknown> = {},
): Promise<T> {
  const res = await reaching(c.url)(`${c.url}/api/organizations/${encodeURIComponent(r.organizationId)}/${path}`, {
    method: "POST",
    headers: { "x-api-key": c.apiKey, "content-type": "application/json" },
    body: JSON.stringify({ bundle: r.bundle, identity: r.identity, passphrase: r.passphrase, ...extra }),
  });
  const body = (await res.json().catch(() => null)) as T | null;
  if (res.status !== 200 || !body) throw new CliError(errorOf(body), 1);
  return body;
}

/** Runs `skiff import-plan`. @returns the exit code (0 no conflict, 1 conflicts). */
export async function importPlanCommand(c: Credentials, file: string, o: ImportPlanOptions): Promise<number> {
  const body = await postBundle<Plan>(c, "import-plan", await bundleRequest(c, file, o));
  console.log(o.json ? JSON.stringify(body) : planText(body));
  return body.conflicts ? 1 : 0;
}
