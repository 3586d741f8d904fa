/**
 * `skiff deploy <app>`: queue a deployment of an application (`deployApplication`; the application by id, or by
 * name with `--project <id or name>`) and follow it live through the `deploymentUpdated` subscription (opened
 * before the mutation, so nothing is missed): every status change and log line as it happens, then the final
 * status. Each update carries the deployment as it is now, so the output is driven by that record (log lines not
 * shown yet, status) rather than by the single change; a query every few seconds catches up if updates stop.
 *
 * Output: for people, a @clack/prompts transcript. `--json`: the final deployment as one JSON document.
 * `--json --follow`: NDJSON — `{ "type": "status", … }` and `{ "type": "log", … }` lines as they happen, then the
 * final deployment (the same document as `--json`). Exit 0 `done`, 1 `error`/`cancelled`/timeout, 2 usage.
 */
import * as p from "@clack/prompts";
import { CliError, type Credentials, graphql, subscribe } from "./api.ts";
import type { CliDeploymentFragment, CliProjectsQuery } from "./gql/graphql.ts";
import {
  ApplicationDeploymentsQuery,
  ApplicationQuery,
  DeployApplicationMutation,
  DeploymentUpdatesSubscription,
  ProjectApplicationsQuery,
  ProjectsQuery,
} from "./operations.ts";

/** Options of the command. */
export interface DeployOptions {
  project?: string;
  title?: string;
  json?: boolean;
  follow?: boolean;
  /** Seconds to wait for a final status (default 600). */
  timeout?: string;
}

type Deployment = CliDeploymentFragment;
type Environments = ReadonlyArray<{ name: string; applications: ReadonlyArray<{ id: string; name: string }> }>;

/** Statuses a deployment ends in. */
export const FINAL_STATUSES = ["done", "error", "cancelled"] as const;
const isFinal = (status: string | null | undefined) => (FINAL_STATUSES as readonly string[]).includes(status ?? "");
/** Order of statuses in the lifecycle: queued, running, then a final one. */
const lifecycleRank = (status: string | null | undefined) => (status === "queued" ? 0 : status === "running" ? 1 : 2);
/** How often the deployment is read again while no update arrives, in ms. */
const CATCH_UP_MS = 3000;

/** The application `name` among a project's environments. @throws CliError when none or several match. */
function pick(environments: Environments, name: string, project: string): { id: string; name: string } {
  const found = environments.flatMap((e) =>
    e.applications.filter((a) => a.name === name).map((a) => ({ ...a, env: e.name })),
  );
  if (found.length === 0) throw new CliError(`No application named ${name} in project ${project}`, 1);
  if (found.length > 1) {
    const ids = found.map((a) => `${a.env}: ${a.id}`).join(", ");
    throw new CliError(`Several applications are named ${name} in project ${project} (${ids}): give the id`, 2);
  }
  return found[0]!;
}

/**
 * The application's id and name: `app` is an id (`app_…`), or a name inside `project` (an id `prj_…` or a name).
 * @throws CliError (2) without a project for a name; (1) when not found or not visible.
 */
export async function resolveApplication(
  c: Credentials,
  app: string,
  project?: string,
): Promise<{ id: string; name: string }> {
  if (app.startsWith("app_")) {
    const { application } = await graphql(c, ApplicationQuery, { id: app });
    if (!application) throw new CliError(`No application ${app}`, 1);
    return application;
  }
  if (!project) throw new CliError("Give the application's id (app_…), or its name with --project <project>", 2);
  if (project.startsWith("prj_")) {
    const { project: found } = await graphql(c, ProjectApplicationsQuery, { id: project });
    if (!found) throw new CliError(`No project ${project}`, 1);
    return pick(found.environments, app, project);
  }
  let after: string | null = null;
  for (;;) {
    const { projects }: CliProjectsQuery = await graphql(c, ProjectsQuery, { after });
    const found = projects.edges.find((e) => e.node.name === project);
    if (found) return pick(found.node.environments, app, project);
    if (!projects.pageInfo.hasNextPage) throw new CliError(`No project named ${project}`, 1);
    after = projects.pageInfo.endCursor ?? null;
  }
}

/** `HH:MM:SS` of an ISO timestamp (UTC). */
const clock = (at: string) => new Date(at).toISOString().slice(11, 19);

/** Runs the command; @returns the exit code. @throws CliError for usage and transport problems. */
export async function deployCommand(c: Credentials, app: string, options: DeployOptions): Promise<number> {
  const timeoutSeconds = Number(options.timeout ?? 600);
  if (!Number.isFinite(timeoutSeconds) || timeoutSeconds <= 0) throw new CliError("--timeout must be seconds", 2);
  const ui = !options.json;
  const ndjson = Boolean(options.json && options.follow);
  const target = await resolveApplication(c, app, options.project);
  if (ui) p.intro(`skiff deploy ${target.name}`);

  let deploymentId: string | undefined;
  let shownStatus: string | null | undefined;
  let shownLines = 0;
  let settle: (d: Deployment) => void = () => {};
  const final = new Promise<Deployment>((resolve) => {
    settle = resolve;
  });
  type Update = { status: string | null; logLine: unknown; deployment: Deployment };
  const early: Update[] = [];

  /** Shows `d`'s status unless shown already or earlier in the lifecycle than the one shown. */
  const showStatus = (d: Deployment) => {
    if (d.status === shownStatus || (shownStatus && lifecycleRank(d.status) < lifecycleRank(shownStatus))) return;
    shownStatus = d.status;
    if (ndjson) console.log(JSON.stringify({ type: "status", deploymentId: d.id, status: d.status }));
    else if (!ui) return;
    else if (d.status === "done") p.log.success("done");
    else if (d.status === "error") p.log.error(`error: ${d.errorMessage ?? "failed"}`);
    else if (d.status === "cancelled") p.log.warn(`cancelled${d.errorMessage ? `: ${d.errorMessage}` : ""}`);
    else p.log.step(String(d.status));
  };
  const showLines = (d: Deployment) => {
    for (const line of d.logs.slice(shownLines)) {
      if (ndjson) console.log(JSON.stringify({ type: "log", deploymentId: d.id, ...line }));
      else if (ui) p.log.message(`${clock(line.at)}  ${line.level.padEnd(5)}  ${line.text}`, { spacing: 0 });
    }
    shownLines = Math.max(shownLines, d.logs.length);
  };
  /**
   * Shows what `d` (ours, as it is now) holds that was not shown yet; settles when it is final. A deployment with a
   * `startedAt` went through `running`: shown when its own update did not reach us (graphql-ws does not acknowledge
   * a subscription, so the mutation can run before the server listens).
   */
  const render = (d: Deployment) => {
    if (d.startedAt && shownStatus === "queued") showStatus({ ...d, status: "running" });
    if (isFinal(d.status)) {
      showLines(d);
      showStatus(d);
      settle(d);
    } else {
      showStatus(d);
      showLines(d);
    }
  };

  /** An update of ours: the status change it reports (a dry run passes `running` in a blink), then the record. */
  const onUpdate = (u: Update) => {
    if (u.deployment.id !== deploymentId) return;
    if (!u.logLine && u.status && !isFinal(u.status)) showStatus({ ...u.deployment, status: u.status });
    render(u.deployment);
  };
  const sub = subscribe(c, DeploymentUpdatesSubscription, { applicationId: target.id }, (data) => {
    const u = data.deploymentUpdated;
    if (!deploymentId) early.push(u);
    else onUpdate(u);
  });
  let timer: NodeJS.Timeout | undefined;
  let catchUp: NodeJS.Timeout | undefined;
  try {
    await sub.ready;
    const { deployApplication: queued } = await graphql(c, DeployApplicationMutation, {
      applicationId: target.id,
      title: options.title ?? null,
    });
    deploymentId = queued.id;
    if (ui) p.log.info(`${queued.id}  ${queued.title}`);
    // Every deployment starts `queued`; the mutation's answer is the record as it is after the commit, which the
    // worker may already have moved on (a dry run passes `queued` and `running` in a blink).
    // Updates that arrived before the answer report the changes in the order they happened: shown before it.
    showStatus({ ...queued, status: "queued" });
    for (const u of early) onUpdate(u);
    render(queued);

    catchUp = setInterval(() => {
      graphql(c, ApplicationDeploymentsQuery, { id: target.id })
        .then(({ application }) => {
          const d = application?.deployments.find((x) => x.id === deploymentId);
          if (d) render(d);
        })
        .catch(() => {}); // the next update or round tries again
    }, CATCH_UP_MS);
    const timedOut = new Promise<null>((resolve) => {
      timer = setTimeout(() => resolve(null), timeoutSeconds * 1000);
    });
    const d = await Promise.race([final, timedOut]);
    if (!d) {
      if (ui) p.outro(`Deployment ${deploymentId} still ${shownStatus} after ${timeoutSeconds} s.`);
      else console.log(JSON.stringify({ type: "timeout", deploymentId, status: shownStatus }));
      return 1;
    }
    if (ui) {
      const took =
        d.startedAt && d.finishedAt
          ? ` in ${((Date.parse(d.finishedAt) - Date.parse(d.startedAt)) / 1000).toFixed(1)} s`
          : "";
      p.outro(`Deployment ${d.id} ${d.status}${took}.`);
    } else {
      console.log(JSON.stringify(d));
    }
    return d.status === "done" ? 0 : 1;
  } finally {
    clearTimeout(timer);
    clearInterval(catchUp);
    await sub.close();
  }
}
