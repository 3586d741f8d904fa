/**
 * `skiff`: the command-line tool for Skiff users, a client of the documented REST paths and GraphQL.
 * Run from a checkout with `npx skiff <command>` (Node 24 of the devDependencies runs the TypeScript directly).
 * The operator commands (`npm run skiff -- reset-2fa|outbox|jobs`, src/cli.ts) are a different tool.
 *
 *   login [--url <url>] [--api-key <key>]   store credentials (else SKIFF_URL / SKIFF_API_KEY)
 *   import <file.json> [--yes]              preview, confirm, import with live progress per step
 *   import <files|dir|->… [--concurrency n] bulk: preview all, import with bounded concurrency, summary, resumable
 *   imports [--status <status>]             list import records
 *   retry <id> | rollback <id>              re-run a failed import | delete it with what it created
 *   webhooks test <id> --org <org_id>       send a `ping` to a webhook endpoint
 *   deploy <app> [--project <p>]            deploy an application and follow its log and status live
 *   env list|set|unset <app> …              an application's variables (set: KEY=VALUE… or --file .env)
 *   domains add|remove <app> <host>         an application's custom domains
 *   apps create <name> --environment <env> | apps delete <app>
 *   export [--org <id>] [--recipient <age1…>] [-o <file>]   write the organization bundle (owners)
 *   import-plan <bundle> [--org <id>] [--identity <file>]   what importing a bundle would do (owners)
 *   import-organization <bundle> [--org <id>] [--identity <file>] [--yes] [--deploy]   apply a bundle (owners)
 *
 * `--json` on every command prints one JSON document instead (`deploy --json --follow`: NDJSON events, then the
 * final deployment). Exit codes: 0 success, 1 failed or partial (a deployment `error` or `cancelled`),
 * 2 usage (unknown command or option, missing credentials, unreadable file).
 */
import { stat } from "node:fs/promises";
import * as p from "@clack/prompts";
import { Command, CommanderError } from "commander";
import {
  assertTerminal,
  CliError,
  type Credentials,
  errorOf,
  graphql,
  loadCredentials,
  restClient,
  saveCredentials,
} from "./api.ts";
import { bulkImportCommand } from "./bulk-import.ts";
import { deployCommand } from "./deploy-command.ts";
import { exportCommand } from "./export-command.ts";
import { importCommand } from "./import-command.ts";
import { importOrganizationCommand } from "./import-organization-command.ts";
import { importPlanCommand } from "./import-plan-command.ts";
import { readImportEntries } from "./import-sources.ts";
import { addManageCommands } from "./manage-commands.ts";
import { RetryImportMutation, RollbackImportMutation } from "./operations.ts";

/** Prints `value` as JSON, or `text()` for people. */
function out(json: boolean | undefined, value: unknown, text: () => string): void {
  console.log(json ? JSON.stringify(value) : text());
}

/** The program; `run` maps its outcome to an exit code. */
function program(setExit: (code: number) => void): Command {
  const cli = new Command("skiff")
    .description(
      "Skiff from the command line: site imports, deployments, applications, variables, domains and webhooks",
    )
    .exitOverride()
    .configureOutput({ outputError: (s, write) => write(s) });
  const creds = () => loadCredentials();

  cli
    .command("login")
    .description("store the server URL and an account API key for later commands")
    .option("--url <url>", "server URL, e.g. https://skiff.example.com")
    .option("--api-key <key>", "account API key")
    .option("--json", "print JSON")
    .action(async (o: { url?: string; apiKey?: string; json?: boolean }) => {
      if (!o.url || !o.apiKey) assertTerminal("give --url and --api-key");
      const url = o.url ?? String(await p.text({ message: "Skiff URL", placeholder: "https://skiff.example.com" }));
      const apiKey = o.apiKey ?? String(await p.password({ message: "API key" }));
      const c: Credentials = { url: url.replace(/\/+$/, ""), apiKey };
      const check = await restClient(c).api.listSiteImports({ limit: 1 });
      if (check.status !== 200) throw new CliError(`The server refused the key (${check.status})`, 1);
      const file = await saveCredentials(c);
      out(o.json, { saved: file, url: c.url }, () => `Saved to ${file}`);
    });

  cli
    .command("import <sources...>")
    .description(
      "import sites: one JSON file (preview, confirm, follow each step), or several files, a directory of .json/.ndjson files or NDJSON on stdin (-): preview all, then import with bounded concurrency; re-running resumes",
    )
    .option("-y, --yes", "do not ask for confirmation")
    .option("--json", "print JSON (needs --yes); bulk: one line per site")
    .option("--concurrency <n>", "bulk: imports at once (1 to 64)", "4")
    .action(async (sources: string[], o: { yes?: boolean; json?: boolean; concurrency?: string }) => {
      const c = await creds();
      const single = sources.length === 1 && sources[0] !== "-" && !sources[0]!.endsWith(".ndjson");
      if (
        single &&
        !(await stat(sources[0]!).then(
          (i) => i.isDirectory(),
          () => false,
        ))
      ) {
        return setExit(await importCommand(c, sources[0]!, o));
      }
      setExit(await bulkImportCommand(c, sources, await readImportEntries(sources), o));
    });

  cli
    .command("imports")
    .description("list import records, newest first")
    .option("--status <status>", "only pending, success, partial or failed")
    .option("--json", "print JSON")
    .action(async (o: { status?: string; json?: boolean }) => {
      if (o.status && !["pending", "success", "partial", "failed"].includes(o.status)) {
        throw new CliError(`Unknown status ${o.status}`, 2);
      }
      const res = await restClient(await creds()).api.listSiteImports({ limit: 100 });
      if (res.status !== 200) throw new CliError(errorOf(res.error), 1);
      const rows = res.data.filter((r) => !o.status || r.status === o.status);
      out(o.json, rows, () =>
        rows.length
          ? rows.map((r) => `${r.id}  ${String(r.status).padEnd(8)} ${r.name}  ${r.createdAt}`).join("\n")
          : "No imports.",
      );
    });

  cli
    .command("retry <id>")
    .description("re-run a partial or failed import")
    .option("--json", "print JSON")
    .action(async (id: string, o: { json?: boolean }) => {
      const d = await graphql(await creds(), RetryImportMutation, { id });
      const r = d.retrySiteImport;
      out(o.json, r, () => `${r.importId}: ${r.status}${r.errorStep ? ` at ${r.errorStep}: ${r.errorMessage}` : ""}`);
      setExit(r.status === "success" ? 0 : 1);
    });

  cli
    .command("rollback <id>")
    .description("delete an import record and the resources it created")
    .option("--json", "print JSON")
    .action(async (id: string, o: { json?: boolean }) => {
      const d = await graphql(await creds(), RollbackImportMutation, { id });
      const r = d.deleteSiteImport;
      out(o.json, r, () => `${r.id} deleted${r.deletedProjectId ? `, project ${r.deletedProjectId} removed` : ""}`);
    });

  cli
    .command("deploy <app>")
    .description("deploy an application (id, or name with --project) and follow its log and status live")
    .option("--project <project>", "project id (prj_…) or name, to find the application by name")
    .option("--title <title>", "deployment title (default: Manual deployment)")
    .option("--timeout <seconds>", "give up waiting for a final status after this long (exit 1)", "600")
    .option("--json", "print the final deployment as JSON")
    .option("--follow", "with --json: NDJSON status and log events as they happen, then the final deployment")
    .action(
      async (
        app: string,
        o: { project?: string; title?: string; timeout?: string; json?: boolean; follow?: boolean },
      ) => setExit(await deployCommand(await creds(), app, o)),
    );

  addManageCommands(cli, { creds, out });

  cli
    .command("export")
    .description(
      "write the organization bundle (owners): settings of every resource, secrets encrypted with age to --recipient or to the passphrase in SKIFF_EXPORT_PASSPHRASE, else left out",
    )
    .option("--org <id>", "organization id (default: the one the API key acts in)")
    .option("--recipient <age1…>", "age X25519 recipient the secrets are encrypted to")
    .option("-o, --output <file>", "where to write the bundle (- for stdout; default <org id>.skiff-bundle.json)")
    .option("--json", "report as JSON (on stderr)")
    .action(async (o: { org?: string; recipient?: string; output?: string; json?: boolean }) =>
      setExit(await exportCommand(await creds(), o)),
    );

  cli
    .command("import-plan <bundle>")
    .description(
      "show what importing an organization bundle would do (owners; changes nothing): create, exists or conflict per resource, quotas, warnings; exit 1 on conflicts",
    )
    .option("--org <id>", "organization to import into (default: the one the API key acts in)")
    .option("--identity <file>", "age identity file that opens the bundle's secrets (else SKIFF_IMPORT_PASSPHRASE)")
    .option("--json", "print the plan as JSON")
    .action(async (file: string, o: { org?: string; identity?: string; json?: boolean }) =>
      setExit(await importPlanCommand(await creds(), file, o)),
    );

  cli
    .command("import-organization <bundle>")
    .description(
      "import an organization bundle (owners): show the plan, stop on conflicts, confirm, create what is missing; re-running creates nothing and finishes a stopped run",
    )
    .option("--org <id>", "organization to import into (default: the one the API key acts in)")
    .option("--identity <file>", "age identity file that opens the bundle's secrets (else SKIFF_IMPORT_PASSPHRASE)")
    .option("-y, --yes", "do not ask for confirmation")
    .option("--deploy", "queue a deployment of each application created")
    .option("--json", "print the result as JSON (needs --yes)")
    .action(
      async (file: string, o: { org?: string; identity?: string; yes?: boolean; deploy?: boolean; json?: boolean }) =>
        setExit(await importOrganizationCommand(await creds(), file, o)),
    );

  const webhooks = cli.command("webhooks").description("webhook endpoints");
  webhooks
    .command("test <id>")
    .description("send a `ping` event to an endpoint and show the first attempt")
    .requiredOption("--org <org_id>", "organization of the endpoint (as in /api/v1/orgs/<org_id>)")
    .option("--json", "print JSON")
    .action(async (id: string, o: { org: string; json?: boolean }) => {
      const res = await restClient(await creds()).api.testWebhook(o.org, id);
      if (res.status !== 200 && res.status !== 202) throw new CliError(errorOf(res.error), 1);
      const b = res.data;
      out(o.json, b, () =>
        b.pending
          ? `ping ${b.delivery_id}: queued`
          : `ping ${b.delivery_id}: ${b.success ? "delivered" : "failed"} (${b.response_status ?? b.error_message})`,
      );
      setExit(b.pending || b.success ? 0 : 1);
    });
  return cli;
}

/** Parses `argv` and runs the command. @returns the exit code. */
export async function run(argv: string[]): Promise<number> {
  let code = 0;
  try {
    await program((c) => {
      code = c;
    }).parseAsync(argv, { from: "user" });
    return code;
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode === 0 ? 0 : 2;
    if (e instanceof CliError) {
      console.error(`skiff: ${e.message}`);
      return e.exitCode;
    }
    console.error(`skiff: ${(e as Error).message}`);
    return 1;
  }
}
