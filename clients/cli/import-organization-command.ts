/**
 * `skiff import-organization <bundle>`: imports an organization bundle (docs/organization-transfer.md "Import") into
 * an organization the API key's owner owns (or `--org`). It shows the plan first (`POST …/import-plan`), stops on
 * conflicts, asks to confirm (`--yes` skips; without a terminal `--yes` is required), then applies it
 * (`POST …/import`): one line per resource created, the warnings, a summary. Running it again creates nothing; a run
 * stopped halfway is finished by running it again. The secrets key: `--identity <file>` or SKIFF_IMPORT_PASSPHRASE.
 * `--deploy` queues a deployment of each application created. Exit codes: 0 imported (or nothing to do), 1
 * conflicts, refused or not confirmed, 2 usage.
 */
import * as p from "@clack/prompts";
import { assertTerminal, type Credentials } from "./api.ts";
import { bundleRequest, type Plan, planText, postBundle } from "./import-plan-command.ts";

/** Options of `skiff import-organization`. */
export interface ImportOrganizationOptions {
  org?: string;
  identity?: string;
  yes?: boolean;
  deploy?: boolean;
  json?: boolean;
}

/** What the server answers to an import. */
interface ImportResult {
  created: Array<{ kind: string; name: string }>;
  exists: number;
  deployments: string[];
  warnings: string[];
}

/** Runs `skiff import-organization`. @returns the exit code. */
export async function importOrganizationCommand(
  c: Credentials,
  file: string,
  o: ImportOrganizationOptions,
): Promise<number> {
  const request = await bundleRequest(c, file, o);
  const plan = await postBundle<Plan>(c, "import-plan", request);
  if (!o.json) console.log(planText(plan));
  if (plan.conflicts) {
    if (o.json) console.log(JSON.stringify({ stage: "plan", plan }));
    else console.error(`Not imported: the plan has ${plan.conflicts} conflict(s).`);
    return 1;
  }
  if (plan.creates > 0 && !o.yes) {
    assertTerminal("give --yes to import");
    const ok = await p.confirm({ message: `Create ${plan.creates} resource(s) now?` });
    if (p.isCancel(ok) || !ok) {
      console.error("Not imported.");
      return 1;
    }
  }
  const result = await postBundle<ImportResult>(c, "import", request, { deploy: o.deploy === true });
  if (o.json) {
    console.log(JSON.stringify(result));
    return 0;
  }
  const width = Math.max(4, ...result.created.map((i) => i.kind.length));
  for (const i of result.created) console.log(`created  ${i.kind.padEnd(width)}  ${i.name}`);
  for (const w of result.warnings) console.log(`warning: ${w}`);
  const deployed = result.deployments.length ? `; ${result.deployments.length} deployment(s) queued` : "";
  console.log(`${result.created.length} created, ${result.exists} existing${deployed}`);
  return 0;
}
