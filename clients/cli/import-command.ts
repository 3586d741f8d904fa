/**
 * `skiff import <file.json>`: preview the import request, ask to confirm, import, and show one line per step
 * (project, database, application, domain, deployment) turning done — driven by the `siteImportUpdated`
 * subscription (opened before the import, so no update is missed; the server publishes one update per committed
 * step, each carrying the record's per-step progress `steps`) and settled by the import's
 * result — or, when the server answers 202 (the run outlasted its wait limit), by the record once it leaves
 * `pending` — then the created ids and the deployment's status. Exit 0 success, 1 partial/failed/invalid, 2 usage.
 */
import * as p from "@clack/prompts";
import type { SiteImportRequest, SiteImportResult } from "../rest/index.ts";
import { assertTerminal, CliError, type Credentials, errorOf, graphql, restClient, subscribe } from "./api.ts";
import { readImportEntries } from "./import-sources.ts";
import { ImportRecordQuery, ImportUpdatesSubscription } from "./operations.ts";

/** The import steps in execution order: label, record field of the created id, `errorStep` value. */
export const STEPS = [
  { label: "project", field: "projectId", step: "project_creation" },
  { label: "database", field: "databaseId", step: "database_creation" },
  { label: "application", field: "applicationId", step: "application_creation" },
  { label: "domain", field: "domainId", step: "domain_creation" },
  { label: "deployment", field: "deploymentId", step: "deployment" },
] as const;

type Rec = Record<string, unknown>;
type StepState = "pending" | "done" | "failed" | "skipped";

/**
 * State of each step as a record shows it: the server's per-step progress (`SiteImport.steps`, one event per
 * committed step) when the record carries it, else inferred from the created ids and `errorStep` (REST records).
 */
export function stepStates(record: Rec): Record<string, StepState> {
  if (Array.isArray(record.steps) && record.steps.length > 0) {
    const progress = new Map((record.steps as Array<{ step: string; status: StepState }>).map((s) => [s.step, s]));
    const ended = record.status !== "pending"; // a step the ended run never reached shows as skipped
    return Object.fromEntries(
      STEPS.map((s) => {
        const state = progress.get(s.step)?.status ?? "pending";
        return [s.label, ended && state === "pending" ? "skipped" : state];
      }),
    );
  }
  const final = record.status !== "pending";
  const failedAt = STEPS.findIndex((s) => s.step === record.errorStep);
  return Object.fromEntries(
    STEPS.map((s, i) => {
      if (record[s.field]) return [s.label, "done"];
      if (i === failedAt) return [s.label, "failed"];
      return [s.label, final ? "skipped" : "pending"];
    }),
  );
}

/** How often a pending import is read again when no update arrives, in ms. */
const POLL_MS = 3000;

/**
 * The import record once its run has ended (status no longer `pending`): read at once, then again after each
 * update of the import (`onWake` receives the function the subscription calls) or every {@link POLL_MS}.
 * @throws CliError (1) when the record is not visible.
 */
async function runEnd(c: Credentials, id: string, onWake: (wake: () => void) => void): Promise<Rec> {
  for (;;) {
    const { siteImport } = await graphql(c, ImportRecordQuery, { id });
    if (!siteImport) throw new CliError(`Import ${id} is not visible`, 1);
    if (siteImport.status !== "pending") return siteImport as Rec;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, POLL_MS);
      onWake(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}

/** Options of the command. */
export interface ImportOptions {
  yes?: boolean;
  json?: boolean;
}

/** What the import shows of its progress: a spinner's start, message, stop and error. */
type Progress = Pick<ReturnType<typeof p.spinner>, "start" | "message" | "stop" | "error">;

/** {@link Progress} for output that is not a terminal: no redrawn line, the outcome as one line of its own. */
function plainProgress(): Progress {
  return {
    start: () => {},
    message: () => {},
    stop: (message?: string) => p.log.success(message ?? ""),
    error: (message?: string) => p.log.error(message ?? ""),
  };
}

/**
 * Runs the command; @returns the exit code. @throws CliError for usage and transport problems.
 * The request carries the idempotency key of its file and text (import-sources.ts), as in a bulk import: running
 * the command again after a lost answer or a Ctrl-C follows the import already made instead of making another.
 */
export async function importCommand(c: Credentials, file: string, options: ImportOptions): Promise<number> {
  // Whatever the file holds is sent: the server validates it (400 with the invalid fields).
  const [entry] = await readImportEntries([file]);
  if (!entry || entry.parseError) throw new CliError(`Cannot read ${file} as JSON: ${entry?.parseError}`, 2);
  const request = entry.request as SiteImportRequest;
  const keyed = { headers: { "Idempotency-Key": entry.idempotencyKey } };
  if (options.json && !options.yes) throw new CliError("--json needs --yes (no prompt in JSON mode)", 2);
  const ui = !options.json;

  const rest = restClient(c);
  const preview = await rest.api.previewSiteImport(request, keyed);
  if (preview.status !== 200) {
    if (!ui) console.log(JSON.stringify({ stage: "preview", status: preview.status, error: preview.error }));
    else p.log.error(`Preview refused (${preview.status}): ${errorOf(preview.error)}`);
    return 1;
  }
  const pv = preview.data;
  if (ui) {
    p.intro(`skiff import ${file}`);
    const r = pv.resources;
    p.note(
      [
        `project      ${r.project?.name}`,
        `database     ${r.database ? `${r.database.type} ${r.database.name}` : "none"}`,
        `application  ${r.application?.name} (${r.application?.sourceType})`,
        `domain       ${r.domain?.host ?? "none"}`,
      ].join("\n"),
      "Preview",
    );
    for (const w of pv.warnings) p.log.warn(w);
    for (const e of pv.errors) p.log.error(e);
  }
  if (!pv.valid) {
    if (!ui) console.log(JSON.stringify({ stage: "preview", preview: pv }));
    else p.outro("Not imported: the preview has errors.");
    return 1;
  }
  if (!options.yes) {
    assertTerminal("give --yes to import");
    const ok = await p.confirm({ message: "Import now?" });
    if (p.isCancel(ok) || !ok) {
      p.cancel("Not imported.");
      return 1;
    }
  }

  // Live progress: every update of a pending import of this name until ours is known, then ours only.
  let importId: string | undefined;
  const shown = new Map<string, StepState>();
  // A spinner redraws its line with terminal control codes: on a pipe or a file only the outcome is written.
  const spinner = ui ? (process.stdout.isTTY ? p.spinner() : plainProgress()) : undefined;
  const show = (record: Rec) => {
    for (const [label, state] of Object.entries(stepStates(record))) {
      if (state === "pending" || shown.get(label) === state) continue;
      shown.set(label, state);
      if (!ui) continue;
      const id = String(record[STEPS.find((s) => s.label === label)!.field] ?? "");
      if (state === "done") p.log.success(`${label.padEnd(12)} done  ${id}`);
      else if (state === "failed") p.log.error(`${label.padEnd(12)} failed: ${record.errorMessage}`);
      else p.log.info(`${label.padEnd(12)} skipped`);
    }
  };
  // Called on each update of our import (ends a wait for the run's end early).
  let wake = () => {};
  const sub = subscribe(c, ImportUpdatesSubscription, {}, (d) => {
    const u = d.siteImportUpdated;
    if (!u.siteImport || (importId ? u.importId !== importId : u.siteImport.name !== request.name)) return;
    importId ??= u.importId;
    spinner?.message(`Importing ${u.siteImport.name}: ${u.siteImport.status}`);
    show(u.siteImport as Rec);
    wake();
  });
  try {
    await sub.ready;
    spinner?.start(`Importing ${String(request.name)}`);
    const result = await rest.api.importSite(request, keyed);
    // 202: the run outlasted the server's wait limit and goes on (status `pending`): followed below.
    if (result.status !== 200 && result.status !== 202 && result.status !== 422) {
      spinner?.error("Import refused");
      if (ui) p.log.error(`${result.status}: ${errorOf(result.error)}`);
      else console.log(JSON.stringify({ stage: "import", status: result.status, error: result.error }));
      return 1;
    }
    // 422 (a step failed) carries the same body as an error.
    const imported = result.ok ? result.data : (result.error as SiteImportResult);
    importId = String(imported.importId);
    const record = await runEnd(c, importId, (w) => {
      wake = w;
    });
    // The steps not shown yet (their events may still be on the way) before the outcome.
    show(record);
    if (record.status === "success") spinner?.stop(`Import ${importId}: success`);
    else spinner?.error(`Import ${importId}: ${record.status}`);
    const deployment = record.deployment as { id: string; status: string | null } | null;
    if (ui) {
      p.note(
        [
          `import       ${importId}`,
          ...STEPS.map((s) => `${s.label.padEnd(13)}${record[s.field] ?? "-"}`),
          `status       ${deployment ? (deployment.status ?? "queued") : "-"}`,
        ].join("\n"),
        "Created",
      );
      p.outro(record.status === "success" ? "Imported." : `Import ${record.status} at ${record.errorStep}.`);
    } else {
      const final = {
        ...imported,
        status: record.status,
        errorStep: record.errorStep,
        errorMessage: record.errorMessage,
      };
      console.log(JSON.stringify({ ...final, steps: stepStates(record), deploymentStatus: deployment?.status }));
    }
    return record.status === "success" ? 0 : 1;
  } finally {
    await sub.close();
  }
}
