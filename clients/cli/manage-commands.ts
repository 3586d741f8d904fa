/**
 * `skiff env`, `skiff domains` and `skiff apps`: manage an application's variables and domains, and create or delete
 * applications, through the GraphQL management mutations (docs/graphql.md "Managing applications, databases, domains
 * and environments"). `<app>` is an id (`app_…`) or a name with `--project`, as for `skiff deploy`. Values are
 * masked in `env list` unless `--reveal`. Refused input exits 1 with the server's message and each field's problem.
 */
import { readFile } from "node:fs/promises";
import type { Command } from "commander";
import { CliError, type Credentials, graphql } from "./api.ts";
import { resolveApplication } from "./deploy-command.ts";
import {
  AddDomainMutation,
  ApplicationNamesQuery,
  CreateApplicationMutation,
  DeleteApplicationMutation,
  EnvironmentVariablesQuery,
  RemoveDomainMutation,
  SetEnvironmentVariablesMutation,
  UnsetEnvironmentVariableMutation,
} from "./operations.ts";

/** What the commands need of the program: credentials and the JSON-or-text printer. */
export interface ManageDeps {
  creds: () => Promise<Credentials>;
  out: (json: boolean | undefined, value: unknown, text: () => string) => void;
}

/** `KEY=VALUE` → [key, value] (split at the first `=`). @throws CliError (2) without `=`. */
function pair(arg: string): { key: string; value: string } {
  const at = arg.indexOf("=");
  if (at <= 0) throw new CliError(`Expected KEY=VALUE, got ${arg}`, 2);
  return { key: arg.slice(0, at), value: arg.slice(at + 1) };
}

/** Adds `env`, `domains` and `apps` to `cli`. */
export function addManageCommands(cli: Command, { creds, out }: ManageDeps): void {
  const app = async (c: Credentials, ref: string, project?: string) => (await resolveApplication(c, ref, project)).id;

  const env = cli.command("env").description("an application's environment variables");
  env
    .command("list <app>")
    .description("list variables (values masked unless --reveal)")
    .option("--project <project>", "project id or name, to find the application by name")
    .option("--reveal", "show values")
    .option("--json", "print JSON")
    .action(async (ref: string, o: { project?: string; reveal?: boolean; json?: boolean }) => {
      const c = await creds();
      const { application } = await graphql(c, EnvironmentVariablesQuery, { id: await app(c, ref, o.project) });
      const vars = (application?.environmentVariables ?? []).map((v) => ({
        key: v.key,
        value: o.reveal ? v.value : "********",
      }));
      out(o.json, { needsDeployment: application?.needsDeployment, variables: vars }, () =>
        [
          ...vars.map((v) => `${v.key}=${v.value}`),
          ...(application?.needsDeployment ? ["(changes not deployed yet: skiff deploy)"] : []),
        ].join("\n"),
      );
    });
  env
    .command("set <app> [pairs...]")
    .description("set KEY=VALUE pairs, or the variables of a .env file (--file)")
    .option("--file <path>", "a .env file (KEY=value lines, quotes, export, comments)")
    .option("--deploy", "deploy at once")
    .option("--project <project>", "project id or name, to find the application by name")
    .option("--json", "print JSON")
    .action(
      async (
        ref: string,
        pairs: string[],
        o: { file?: string; deploy?: boolean; project?: string; json?: boolean },
      ) => {
        if (!o.file === !pairs.length) throw new CliError("Give KEY=VALUE pairs or --file <.env>, not both", 2);
        const dotenv = o.file ? await readFile(o.file, "utf8").catch(() => null) : undefined;
        if (dotenv === null) throw new CliError(`Cannot read ${o.file}`, 2);
        const c = await creds();
        const { setEnvironmentVariables: r } = await graphql(c, SetEnvironmentVariablesMutation, {
          id: await app(c, ref, o.project),
          ...(dotenv === undefined ? { variables: pairs.map(pair) } : { dotenv }),
          deploy: Boolean(o.deploy),
        });
        out(o.json, r, () =>
          [
            r.setKeys.length ? `set ${r.setKeys.join(", ")}` : "no change",
            r.deployment ? `deployment ${r.deployment.id} ${r.deployment.status}` : "",
          ]
            .filter(Boolean)
            .join("; "),
        );
      },
    );
  env
    .command("unset <app> <keys...>")
    .description("remove variables (a missing one is no change)")
    .option("--deploy", "deploy at once")
    .option("--project <project>", "project id or name, to find the application by name")
    .option("--json", "print JSON")
    .action(async (ref: string, keys: string[], o: { deploy?: boolean; project?: string; json?: boolean }) => {
      const c = await creds();
      const id = await app(c, ref, o.project);
      const { application } = await graphql(c, ApplicationNamesQuery, { id });
      const had = new Set(application?.environmentVariables.map((v) => v.key));
      for (const [i, key] of keys.entries()) {
        await graphql(c, UnsetEnvironmentVariableMutation, {
          id,
          key,
          deploy: Boolean(o.deploy) && i === keys.length - 1,
        });
      }
      const removed = keys.filter((k) => had.has(k));
      const missing = keys.filter((k) => !had.has(k));
      out(o.json, { id, removed, missing }, () =>
        [
          removed.length ? `removed ${removed.join(", ")}` : "",
          missing.length ? `not set, no change: ${missing.join(", ")}` : "",
        ]
          .filter(Boolean)
          .join("; "),
      );
    });

  const domains = cli.command("domains").description("an application's custom domains");
  domains
    .command("add <app> <host>")
    .description("route a host to the application (HTTPS requested unless --no-https)")
    .option("--port <port>", "container port (default: the application's)")
    .option("--no-https", "do not request a certificate")
    .option("--project <project>", "project id or name, to find the application by name")
    .option("--json", "print JSON")
    .action(
      async (ref: string, host: string, o: { port?: string; https: boolean; project?: string; json?: boolean }) => {
        const port = o.port === undefined ? undefined : Number(o.port);
        if (port !== undefined && !Number.isInteger(port))
          throw new CliError(`--port must be an integer, got ${o.port}`, 2);
        const c = await creds();
        const { addDomain: d } = await graphql(c, AddDomainMutation, {
          input: { applicationId: await app(c, ref, o.project), host, port, https: o.https },
        });
        out(o.json, d, () => `${d.host} → port ${d.port ?? "of the application"}${d.https ? ", HTTPS" : ""} (${d.id})`);
      },
    );
  domains
    .command("remove <app> <host>")
    .description("remove a host from the application (a host it does not have is no change)")
    .option("--project <project>", "project id or name, to find the application by name")
    .option("--json", "print JSON")
    .action(async (ref: string, host: string, o: { project?: string; json?: boolean }) => {
      const c = await creds();
      const id = await app(c, ref, o.project);
      const { application } = await graphql(c, ApplicationNamesQuery, { id });
      const { removeDomain: r } = await graphql(c, RemoveDomainMutation, { id, host });
      // Hosts are stored in lower case without a final dot (the server's host rule).
      const wanted = host.toLowerCase().replace(/\.$/, "");
      const had = application?.domains.some((d) => d.host === wanted) ?? false;
      const now = `domains now: ${r.domains.map((d) => d.host).join(", ") || "none"}`;
      out(
        o.json,
        { ...r, removed: had },
        () => `${had ? `removed ${wanted}` : `${wanted} was not routed here, no change`}; ${now}`,
      );
    });

  const apps = cli.command("apps").description("applications");
  apps
    .command("create <name>")
    .description("create an application in an environment: --image, or --repo with --github/--gitlab, or --git-url")
    .requiredOption("--environment <env>", "environment id (env_…)")
    .option("--image <image>", "docker image, e.g. nginx:1.27")
    .option("--repo <owner/name>", "repository (with --github or --gitlab)")
    .option("--github <id>", "GitHub provider id (gitp_…)")
    .option("--gitlab <id>", "GitLab provider id (gitp_…)")
    .option("--git-url <url>", "HTTPS or SSH clone URL")
    .option("--branch <branch>", "branch to build (default main)")
    .option("--port <port>", "container port (default 80)")
    .option("--json", "print JSON")
    .action(
      async (
        name: string,
        o: {
          environment: string;
          image?: string;
          repo?: string;
          github?: string;
          gitlab?: string;
          gitUrl?: string;
          branch?: string;
          port?: string;
          json?: boolean;
        },
      ) => {
        const type = o.image ? "docker" : o.gitUrl ? "git" : o.gitlab ? "gitlab" : o.github ? "github" : null;
        if (!type) throw new CliError("Give --image, --git-url, or --repo with --github or --gitlab", 2);
        const source = {
          type,
          dockerImage: o.image,
          customGitUrl: o.gitUrl,
          repo: o.repo,
          githubId: o.github,
          gitlabId: o.gitlab,
          branch: o.branch,
        } as const;
        const port = o.port === undefined ? undefined : Number(o.port);
        const { createApplication: a } = await graphql(await creds(), CreateApplicationMutation, {
          input: { environmentId: o.environment, name, source, port },
        });
        out(
          o.json,
          a,
          () => `${a.name} (${a.id}, ${a.appName}) created in ${a.environment.name}; deploy it: skiff deploy ${a.id}`,
        );
      },
    );
  apps
    .command("delete <app>")
    .description("delete an application with its domains, variables and deployments")
    .option("--project <project>", "project id or name, to find the application by name")
    .option("--json", "print JSON")
    .action(async (ref: string, o: { project?: string; json?: boolean }) => {
      const c = await creds();
      const { deleteApplication: id } = await graphql(c, DeleteApplicationMutation, {
        id: await app(c, ref, o.project),
      });
      out(o.json, { id }, () => `${id} deleted`);
    });
}
