/**
 * `skiff import <files | directory | ->…`: many site imports in one command (docs/cli.md, "Bulk import"). Every
 * request is previewed first (a table: what each creates, conflicts, warnings), then the valid ones are imported
 * with bounded concurrency (`--concurrency`, default 4), each with its idempotency key (import-sources.ts), while a
 * progress display shows one line per running site with its current step (from the `siteImportUpdated`
 * subscription) and a total line. At the end a summary table, or with `--json` one line per site. Ctrl-C stops
 * starting new imports, waits for the running ones and prints how to resume (the same command: keys re-attach).
 * Exit 0 only when every site succeeded; 1 otherwise; 130 when interrupted; 2 usage.
 */
import * as p from "@clack/prompts";
import type { SiteImportResult } from "../rest/index.ts";
import {
  assertTerminal,
  CliError,
  type Credentials,
  errorOf,
  graphql,
  restClient,
  subscribe,
  UnreachableError,
} from "./api.ts";
import type { ImportEntry } from "./import-sources.ts";
import { ImportRecordQuery, ImportUpdatesSubscription } from "./operations.ts";

/** Where a site stands. `invalid`/`conflict`: refused by the preview, not imported; `not_started`: interrupted first. */
type SiteStatus =
  | "ready"
  | "running"
  | "success"
  | "partial"
  | "failed"
  | "pending"
  | "invalid"
  | "conflict"
  | "not_started";

/** One site of the batch. */
interface Site {
  entry: ImportEntry;
  name: string;
  status: SiteStatus;
  /** What the preview says it creates, e.g. `project, postgres db, domain shop.example.com`. */
  creates: string;
  /** Blocking problems (preview errors, refused requests, the run's error). */
  problems: string[];
  warnings: string[];
  /** Known once imported, or from the preview when the key already names an import. */
  importId?: string;
  errorStep?: string | null;
  /** The running import's current step (progress display). */
  step?: string;
  /** Import duration, ms (bench). */
  ms?: number;
}

/** Options of the command. */
export interface BulkImportOptions {
  yes?: boolean;
  json?: boolean;
  concurrency?: string;
}

/** How often a pending import's record is read again, ms. */
const POLL_MS = 1000;

/** Runs `task` on every item with at most `limit` at once; stops taking new items once `stopped()` is true. */
async function eachBounded<T>(items: T[], limit: number, stopped: () => boolean, task: (item: T) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (!stopped() && next < items.length) await task(items[next++] as T);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** The preview of one site, into `site`. */
async function previewSite(c: Credentials, site: Site): Promise<void> {
  const { entry } = site;
  if (entry.parseError) {
    site.status = "invalid";
    site.problems.push(entry.parseError);
    return;
  }
  const res = await restClient(c).api.previewSiteImport(entry.request as never, {
    headers: { "Idempotency-Key": entry.idempotencyKey },
  });
  if (res.status !== 200) {
    // The request itself refused (malformed, too large, unprocessable) is invalid; the rest (409, quota) conflicts.
    site.status = res.status === 400 || res.status === 413 || res.status === 422 ? "invalid" : "conflict";
    site.problems.push(`${res.status}: ${errorOf(res.error)}`);
    return;
  }
  const pv = res.data;
  const r = pv.resources;
  site.creates = ["project", r.database ? `${r.database.type} db` : "", r.domain ? `domain ${r.domain.host}` : ""]
    .filter(Boolean)
    .join(", ");
  site.warnings = pv.warnings;
  if (pv.existingImport) site.importId = String(pv.existingImport.id);
  if (!pv.valid) {
    site.status = "conflict";
    site.problems.push(...pv.errors);
  }
}

/** Imports one site and waits for its run's end (the server's answer, then the record while pending). */
async function importOne(c: Credentials, site: Site): Promise<void> {
  const started = performance.now();
  site.status = "running";
  site.step = "queued";
  const res = await restClient(c).api.importSite(site.entry.request as never, {
    headers: { "Idempotency-Key": site.entry.idempotencyKey },
  });
  if (res.status !== 200 && res.status !== 202 && !(res.status === 422 && (res.error as SiteImportResult)?.importId)) {
    site.status = "failed";
    site.problems.push(`${res.status}: ${errorOf(res.error)}`);
    return;
  }
  const result = (res.ok ? res.data : res.error) as SiteImportResult & { errorMessage?: string };
  site.importId = String(result.importId);
  let status = String(result.status);
  let errorMessage = result.errorMessage ?? null;
  site.errorStep = result.errorStep ?? null;
  while (status === "pending") {
    await new Promise((r) => setTimeout(r, POLL_MS));
    const { siteImport } = await graphql(c, ImportRecordQuery, { id: site.importId });
    if (!siteImport) break;
    status = siteImport.status;
    errorMessage = siteImport.errorMessage ?? null;
    site.errorStep = siteImport.errorStep ?? null;
  }
  site.status = status as SiteStatus;
  if (errorMessage) site.problems.push(errorMessage);
  site.ms = performance.now() - started;
}

/** Pads or cuts `text` to `width` characters. */
const cell = (text: string, width: number) =>
  text.length > width ? `${text.slice(0, width - 1)}…` : text.padEnd(width);

/** A source label in `width` characters: its end (the file name) is what tells sources apart. */
const sourceCell = (label: string, width: number) =>
  label.length > width ? `…${label.slice(label.length - width + 1)}` : label.padEnd(width);

/** The preview table: one row per site. */
function previewTable(sites: Site[]): string {
  const rows = sites.map((s) => {
    const check =
      s.status === "ready"
        ? s.importId
          ? `imported before: ${s.importId}`
          : s.warnings.length
            ? `ok, ${s.warnings.length} warning(s)`
            : "ok"
        : `${s.status}: ${s.problems[0] ?? ""}`;
    return `${sourceCell(s.entry.label, 28)} ${cell(s.name, 22)} ${cell(s.creates, 34)} ${check}`;
  });
  return [`${cell("SOURCE", 28)} ${cell("NAME", 22)} ${cell("CREATES", 34)} CHECK`, ...rows].join("\n");
}

/** The summary table: one row per site. */
function summaryTable(sites: Site[]): string {
  const rows = sites.map(
    (s) =>
      `${sourceCell(s.entry.label, 28)} ${cell(s.name, 22)} ${cell(s.status, 11)} ${cell(s.importId ?? "-", 31)} ${
        s.status === "success" ? "" : [s.errorStep, s.problems[0]].filter(Boolean).join(": ")
      }`,
  );
  return [`${cell("SOURCE", 28)} ${cell("NAME", 22)} ${cell("STATUS", 11)} ${cell("IMPORT", 31)} ERROR`, ...rows].join(
    "\n",
  );
}

/** Counts of the batch for the total line. */
function totals(sites: Site[]): string {
  const count = (st: SiteStatus) => sites.filter((s) => s.status === st).length;
  const finished = sites.filter((s) => !["ready", "running"].includes(s.status)).length;
  return `Total ${finished}/${sites.length}: ${count("success")} succeeded, ${count("partial") + count("failed")} failed, ${count("running")} running, ${count("invalid") + count("conflict")} refused by the preview`;
}

/**
 * A live block at the bottom of a terminal: the running sites (one line each, with their step) and the total line,
 * redrawn at most every 100 ms; a finished site is printed once above it. Without a terminal: the finished lines only.
 */
function progressDisplay(sites: Site[], tty: boolean) {
  let drawn = 0;
  let timer: NodeJS.Timeout | undefined;
  const clear = () => {
    if (drawn) process.stdout.write(`\x1b[${drawn}A\x1b[0J`);
    drawn = 0;
  };
  const draw = () => {
    timer = undefined;
    if (!tty) return;
    clear();
    const lines = sites
      .filter((s) => s.status === "running")
      .map((s) => `  ${cell(s.name, 24)} ${s.step ?? "queued"}`)
      .concat(totals(sites));
    process.stdout.write(`${lines.join("\n")}\n`);
    drawn = lines.length;
  };
  return {
    update() {
      timer ??= setTimeout(draw, 100);
    },
    finished(site: Site) {
      if (tty) clear();
      const mark = site.status === "success" ? "✔" : "✖";
      console.log(`${mark} ${cell(site.name, 24)} ${site.status}${site.importId ? `  ${site.importId}` : ""}`);
      this.update();
    },
    end() {
      if (timer) clearTimeout(timer);
      draw();
    },
  };
}

/** Runs the command on the entries read from `sources`; @returns the exit code. @throws CliError (usage). */
export async function bulkImportCommand(
  c: Credentials,
  sources: string[],
  entries: ImportEntry[],
  options: BulkImportOptions,
): Promise<number> {
  const concurrency = Number(options.concurrency ?? 4);
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 64) {
    throw new CliError("--concurrency must be an integer from 1 to 64", 2);
  }
  if (options.json && !options.yes) throw new CliError("--json needs --yes (no prompt in JSON mode)", 2);
  const ui = !options.json;
  const sites: Site[] = entries.map((entry) => ({
    entry,
    name: String((entry.request as { name?: unknown } | undefined)?.name ?? "?"),
    status: "ready",
    creates: "",
    problems: [],
    warnings: [],
  }));

  // From the first request: a Ctrl-C during the preview imports nothing and still reports every site.
  let interrupted = false;
  /** The server stopped answering: no new import starts; the report says how to resume. */
  let lost: string | null = null;
  const onSigint = () => {
    if (interrupted) process.exit(130); // a second Ctrl-C: leave at once (running imports go on on the server)
    interrupted = true;
    console.error(
      `\nStopping: no new imports start; waiting for the ${sites.filter((s) => s.status === "running").length} running ones (Ctrl-C again to leave now).`,
    );
  };
  process.on("SIGINT", onSigint);
  const stopped = () => interrupted || lost !== null;
  /** Runs `task` on `site`; a request that reaches no server stops the batch instead of ending the command. */
  const guarded = (task: (site: Site) => Promise<void>) => async (site: Site) => {
    try {
      await task(site);
    } catch (error) {
      if (!(error instanceof UnreachableError)) throw error;
      const why = error.reason;
      lost ??= why;
      site.status = site.importId ? "pending" : "not_started";
      site.problems.push(`The server could not be reached (${why})`);
    }
  };
  try {
    await eachBounded(
      sites,
      concurrency,
      stopped,
      guarded((s) => previewSite(c, s)),
    );
    if (!stopped()) {
      if (ui) {
        console.log(previewTable(sites));
        for (const s of sites) for (const w of s.warnings) console.log(`  ! ${s.name}: ${w}`);
      }
      const ready = sites.filter((s) => s.status === "ready");
      if (ui && ready.length > 0 && !options.yes) {
        assertTerminal("give --yes to import");
        const ok = await p.confirm({ message: `Import ${ready.length} of ${sites.length} sites now?` });
        if (p.isCancel(ok) || !ok) {
          p.cancel("Not imported.");
          return 1;
        }
      }
      await runImports(c, sites, ready, concurrency, ui, stopped, guarded);
    }
  } finally {
    process.off("SIGINT", onSigint);
  }
  for (const s of sites) if (s.status === "ready") s.status = "not_started";
  report(sites, ui);
  if (interrupted || lost !== null) {
    const left = sites.filter((s) => s.status === "not_started").length;
    console.error(
      `${interrupted ? "Interrupted" : `The server could not be reached (${lost})`}: ${left} site(s) not started. Resume with the same command — skiff import ${sources.join(" ")} — sites already imported or running are re-attached by their idempotency keys, not imported again.`,
    );
    return interrupted ? 130 : 1;
  }
  return sites.every((s) => s.status === "success") ? 0 : 1;
}

/** The import phase: the `ready` sites, `concurrency` at a time, until `stopped`, with live progress. */
async function runImports(
  c: Credentials,
  sites: Site[],
  ready: Site[],
  concurrency: number,
  ui: boolean,
  stopped: () => boolean,
  guarded: (task: (site: Site) => Promise<void>) => (site: Site) => Promise<void>,
): Promise<void> {
  const display = progressDisplay(sites, ui && process.stdout.isTTY === true);
  const byName = new Map(ready.map((s) => [s.name, s]));
  const sub = subscribe(c, ImportUpdatesSubscription, {}, (d) => {
    const record = d.siteImportUpdated.siteImport;
    if (!record) return;
    const site = byName.get(record.name);
    if (site?.status !== "running") return;
    site.step = record.steps.find((s) => s.status === "pending")?.step ?? record.status;
    if (ui) display.update();
  });
  try {
    await sub.ready;
    await eachBounded(
      ready,
      concurrency,
      stopped,
      guarded(async (site) => {
        await importOne(c, site);
        if (ui) display.finished(site);
      }),
    );
  } finally {
    await sub.close().catch(() => undefined);
    if (ui) display.end();
  }
}

/** The report of every site: the summary table, or one JSON line per site (`--json`). */
function report(sites: Site[], ui: boolean): void {
  if (ui) {
    console.log(`\n${summaryTable(sites)}`);
  } else {
    for (const s of sites) {
      console.log(
        JSON.stringify({
          source: s.entry.label,
          name: s.name,
          importId: s.importId ?? null,
          status: s.status,
          ...(s.errorStep && { errorStep: s.errorStep }),
          ...(s.problems.length > 0 && { errors: s.problems }),
          ...(s.ms !== undefined && { durationMs: Math.round(s.ms) }),
        }),
      );
    }
  }
}
