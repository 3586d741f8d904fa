/**
 * The figures of `npm run bench:peer` and their markdown: per shape a table of medians (rows: requests/s, p99,
 * Node CPU, PostgreSQL backend CPU and their total per request at each connection count, then SQL statements
 * per request; columns: the servers, then after / PostGraphile and after / before), and a summary table (shape ×
 * connection count → after / PostGraphile requests/s and total CPU, and after / before requests/s).
 */
import type { Run } from "./peer-runs.ts";

/** The connection counts of the panel. */
export const CONNECTIONS = [1, 32] as const;

/** A figure of a run, `total` being Node + PostgreSQL CPU per request (null when PostgreSQL's is unknown). */
type Figure = "rps" | "p99" | "nodeCpuMs" | "pgCpuMs" | "total";

/** Median of `xs`; null when empty. */
export function median(xs: number[]): number | null {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** Runs and statement counts per shape and server, and their medians. */
export class PanelFigures {
  private readonly runs = new Map<string, Run[]>();
  private readonly statements = new Map<string, number>();

  /** Adds a timed run of shape `shape` on `server` at `connections`. */
  record(shape: number, server: string, connections: number, run: Run): void {
    const key = `${shape}|${server}|${connections}`;
    this.runs.set(key, [...(this.runs.get(key) ?? []), run]);
  }

  /** Sets SQL statements per request of shape `shape` on `server`. */
  setStatements(shape: number, server: string, perRequest: number): void {
    this.statements.set(`${shape}|${server}`, perRequest);
  }

  /** SQL statements per request of `shape` on `server` (null when not measured). */
  statementsOf(shape: number, server: string): number | null {
    return this.statements.get(`${shape}|${server}`) ?? null;
  }

  /** The runs of `shape` on `server` at `connections`. */
  runsOf(shape: number, server: string, connections: number): Run[] {
    return this.runs.get(`${shape}|${server}|${connections}`) ?? [];
  }

  /** Median of `figure` over the runs of `shape` on `server` at `connections` (null when unknown). */
  median(shape: number, server: string, connections: number, figure: Figure): number | null {
    const values = this.runsOf(shape, server, connections).map((r) =>
      figure === "total" ? (r.pgCpuMs === null ? null : r.nodeCpuMs + r.pgCpuMs) : r[figure],
    );
    return values.includes(null) ? null : median(values as number[]);
  }

  /** Everything recorded, for the closing JSON line. */
  toJSON(): object {
    return { statements: Object.fromEntries(this.statements), runs: Object.fromEntries(this.runs) };
  }
}

const fmt = (x: number | null, digits: number) => (x === null ? "n/a" : x.toFixed(digits));
const ratio = (a: number | null, b: number | null) =>
  a === null || b === null || b === 0 ? "n/a" : `${fmt(a / b, 2)}×`;

/** Servers of the panel: `after`, optionally `before`, and `PostGraphile` (the peer). */
export interface PanelColumns {
  servers: string[];
  before: boolean;
}

/** The markdown table of one shape. */
export function shapeTable(figures: PanelFigures, shape: number, columns: PanelColumns, rounds: number): string {
  const { servers, before } = columns;
  const head = [
    `median of ${rounds} rounds`,
    ...servers,
    "after / PostGraphile",
    ...(before ? ["after / before"] : []),
  ];
  const lines = [`| ${head.join(" | ")} |`, `|${head.map(() => "---").join("|")}|`];
  const row = (label: string, value: (server: string) => number | null, digits: number) => {
    const cells = servers.map((s) => fmt(value(s), digits));
    const ratios = [
      ratio(value("after"), value("PostGraphile")),
      ...(before ? [ratio(value("after"), value("before"))] : []),
    ];
    lines.push(`| ${[label, ...cells, ...ratios].join(" | ")} |`);
  };
  for (const c of CONNECTIONS) {
    const at = c === 1 ? "1 connection" : `${c} connections`;
    row(`requests/s at ${at}`, (s) => figures.median(shape, s, c, "rps"), 1);
    row(`p99 ms at ${c}`, (s) => figures.median(shape, s, c, "p99"), 1);
    row(`Node CPU ms/request at ${c}`, (s) => figures.median(shape, s, c, "nodeCpuMs"), 2);
    row(`PostgreSQL CPU ms/request at ${c}`, (s) => figures.median(shape, s, c, "pgCpuMs"), 2);
    row(`total CPU ms/request at ${c}`, (s) => figures.median(shape, s, c, "total"), 2);
  }
  row("SQL statements per request", (s) => figures.statementsOf(shape, s), 2);
  return lines.join("\n");
}

/** The summary table: per shape and connection count, after / PostGraphile (and after / before) ratios. */
export function summaryTable(
  figures: PanelFigures,
  shapes: Array<{ id: number; label: string; timed: boolean }>,
  columns: PanelColumns,
): string {
  const head = ["shape"];
  for (const c of CONNECTIONS) head.push(`c=${c} requests/s after / peer`, `c=${c} total CPU after / peer`);
  if (columns.before) for (const c of CONNECTIONS) head.push(`c=${c} requests/s after / before`);
  const lines = [`| ${head.join(" | ")} |`, `|${head.map(() => "---").join("|")}|`];
  for (const shape of shapes) {
    if (!shape.timed) {
      lines.push(
        `| ${shape.id}. ${shape.label} | ${head
          .slice(1)
          .map(() => "not timed")
          .join(" | ")} |`,
      );
      continue;
    }
    const m = (server: string, c: number, f: Figure) => figures.median(shape.id, server, c, f);
    const cells = [`${shape.id}. ${shape.label}`];
    for (const c of CONNECTIONS)
      cells.push(
        ratio(m("after", c, "rps"), m("PostGraphile", c, "rps")),
        ratio(m("after", c, "total"), m("PostGraphile", c, "total")),
      );
    if (columns.before) for (const c of CONNECTIONS) cells.push(ratio(m("after", c, "rps"), m("before", c, "rps")));
    lines.push(`| ${cells.join(" | ")} |`);
  }
  return lines.join("\n");
}
