/**
 * `skiff import <file.json>`: preview the import request, ask to confirm, import, and show one line per step
 * (project, database, application, domain, deployment) turning done — driven by the `siteImportUpdated`
 * subscription (opened before the import, so no update is missed) and settled by the import's result —
 * then the created ids and the deployment's status. Exit 0 success, 1 partial/failed/invalid, 2 usage.
 */
import { readFile } from "node:fs/promises";
import * as p from "@clack/prompts";
import { CliError, type Credentials, errorOf, graphql, rest, subscribe } from "./api.ts";
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

/** State of each step as a record shows it. */
export function stepStates(record: Rec): Record<string, StepState> {
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

/** Options of the command. */
export interface ImportOptions {
  yes?: boolean;
  json?: boolean;
}

/** Runs the command; @returns the exit code. @throws CliError for usage and transport problems. */
export async function importCommand(c: Credentials, file: string, options: ImportOptions): Promise<number> {
  let request: Rec;
  try {
    request = JSON.parse(await readFile(file, "utf8")) as Rec;
  } catch (e) {
    throw new CliError(`Cannot read ${file} as JSON: ${(e as Error).message}`, 2);
  }
  if (options.json && !options.yes) throw new CliError("--json needs --yes (no prompt in JSON mode)", 2);
  const ui = !options.json;

  const preview = await rest<Rec>(c, "POST", "/api/site-import/preview", request);
  if (preview.status !== 200) {
    if (!ui) console.log(JSON.stringify({ stage: "preview", status: preview.status, error: preview.body }));
    else p.log.error(`Preview refused (${preview.status}): ${errorOf(preview.body)}`);
    return 1;
  }
  const pv = preview.body as { valid: boolean; warnings: string[]; errors: string[]; resources: Rec };
  if (ui) {
    p.intro(`skiff import ${file}`);
    const r = pv.resources as Record<string, Rec | null>;
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
    const ok = await p.confirm({ message: "Import now?" });
    if (p.isCancel(ok) || !ok) {
      p.cancel("Not imported.");
      return 1;
    }
  }

  // Live progress: every update of a pending import of this name until ours is known, then ours only.
  let importId: string | undefined;
  const shown = new Map<string, StepState>();
  const spinner = ui ? p.spinner() : undefined;
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
  const sub = subscribe(c, ImportUpdatesSubscription, {}, (d) => {
    const u = d.siteImportUpdated;
    if (!u.siteImport || (importId ? u.importId !== importId : u.siteImport.name !== request.name)) return;
    importId ??= u.importId;
    spinner?.message(`Importing ${u.siteImport.name}: ${u.siteImport.status}`);
    show(u.siteImport as Rec);
  });
  try {
    await sub.ready;
    spinner?.start(`Importing ${String(request.name)}`);
    const result = await rest<Rec>(c, "POST", "/api/site-import", request);
    if (result.status !== 200 && result.status !== 422) {
      spinner?.error("Import refused");
      if (ui) p.log.error(`${result.status}: ${errorOf(result.body)}`);
      else console.log(JSON.stringify({ stage: "import", status: result.status, error: result.body }));
      return 1;
    }
    importId = String(result.body.importId);
    const { siteImport } = await graphql(c, ImportRecordQuery, { id: importId });
    if (!siteImport) throw new CliError(`Import ${importId} is not visible`, 1);
    const record = siteImport as Rec;
    if (record.status === "success") spinner?.stop(`Import ${importId}: success`);
    else spinner?.error(`Import ${importId}: ${record.status}`);
    show(record);
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
      console.log(JSON.stringify({ ...result.body, steps: stepStates(record), deploymentStatus: deployment?.status }));
    }
    return record.status === "success" ? 0 : 1;
  } finally {
    await sub.close();
  }
}
