/**
 * The list of import records (newest first, 20 a page) kept current by the `siteImportUpdated` subscription
 * over graphql-ws: an event updates its row in place; an event for a record not on the page (a new import,
 * a deletion) re-reads the page. No polling. Per record, the actions its status allows (spec "Available
 * actions"): pending — none; success — delete; partial — retry, rollback, delete; failed — retry, delete.
 */
import { useCallback, useEffect, useRef, useState } from "react";
import { useMutation, useQuery, useSubscription } from "urql";
import { describeError } from "../errors.ts";
import type { SiteImportUpdatedSubscription, SiteImportUpdateStatus } from "../gql/graphql.ts";
import {
  DELETE_SITE_IMPORT,
  type ImportStatus,
  RETRY_SITE_IMPORT,
  SITE_IMPORT_UPDATED,
  SITE_IMPORTS,
  type SiteImportRow,
} from "../operations.ts";
import { Link } from "../router.tsx";
import { Message } from "./form.tsx";

const PAGE_SIZE = 20;

const STATUS_TEXT: Record<ImportStatus, { icon: string; label: string }> = {
  pending: { icon: "⏳", label: "Pending" },
  success: { icon: "✓", label: "Success" },
  partial: { icon: "⚠", label: "Partial" },
  failed: { icon: "✗", label: "Failed" },
};

/** A status badge: icon and word, colour only as an extra. */
export function StatusBadge({ status }: { status: ImportStatus }) {
  const s = STATUS_TEXT[status];
  return (
    <span className={`badge ${status}`} data-testid="status">
      <span aria-hidden="true">{s.icon}</span> {s.label}
    </span>
  );
}

function when(iso: string | null): string {
  return iso ? new Date(iso).toLocaleString() : "";
}

/** The created resources of a record. */
function Resources({ row }: { row: SiteImportRow }) {
  const items: React.ReactNode[] = [];
  if (row.project)
    items.push(
      <span key="p">
        Project <code title={row.project.id}>{row.project.name}</code>
      </span>,
    );
  if (row.database)
    items.push(
      <span key="d">
        Database <code title={row.database.id}>{row.database.name}</code> ({row.databaseType}, {row.databaseServiceHost}
        )
      </span>,
    );
  if (row.application)
    items.push(
      <span key="a">
        Application{" "}
        <Link href={`/apps/${row.application.id}`} title={row.application.id}>
          <code>{row.application.appName}</code>
        </Link>
      </span>,
    );
  if (row.domain)
    items.push(
      <span key="h">
        Domain{" "}
        <a href={`https://${row.domain.host}`} target="_blank" rel="noreferrer">
          {row.domain.host}
        </a>
      </span>,
    );
  if (items.length === 0) return <span className="muted">None</span>;
  return <div className="resources">{items}</div>;
}

/** The actions one record allows, with an inline confirmation for deletions. */
function RowActions({ row, onChanged }: { row: SiteImportRow; onChanged: () => void }) {
  const [confirm, setConfirm] = useState<"delete" | "rollback" | null>(null);
  const [alsoResources, setAlsoResources] = useState(false);
  const [retryState, retry] = useMutation(RETRY_SITE_IMPORT);
  const [deleteState, remove] = useMutation(DELETE_SITE_IMPORT);
  const [error, setError] = useState<string | null>(null);
  if (row.status === "pending") return <span className="muted">Running… (no actions while pending)</span>;
  const hasResources = row.projectId !== null;
  const canRetry = row.status === "partial" || row.status === "failed";
  const canRollback = row.status === "partial";
  async function doDelete(rollbackResources: boolean) {
    setError(null);
    const r = await remove({ id: row.id, rollbackResources });
    if (r.error) setError(describeError(r.error));
    else {
      setConfirm(null);
      onChanged();
    }
  }
  return (
    <div className="row-actions">
      {canRetry && (
        <button
          type="button"
          disabled={retryState.fetching}
          onClick={async () => {
            setError(null);
            const r = await retry({ id: row.id });
            if (r.error) setError(describeError(r.error));
          }}
          aria-label={`Retry ${row.name}`}
        >
          Retry
        </button>
      )}
      {canRollback && (
        <button type="button" onClick={() => setConfirm("rollback")} aria-label={`Roll back ${row.name}`}>
          Roll back
        </button>
      )}
      <button
        type="button"
        onClick={() => {
          setAlsoResources(false);
          setConfirm("delete");
        }}
        aria-label={`Delete ${row.name}`}
      >
        Delete
      </button>
      {confirm && (
        <fieldset className="confirm" aria-label={`Confirm ${confirm} of ${row.name}`}>
          {confirm === "rollback" ? (
            <p>
              Delete the project “{row.project?.name ?? row.name}” with everything this import created, and this record?
            </p>
          ) : (
            <>
              <p>Delete this import record?</p>
              {hasResources && (
                <label className="check">
                  <input type="checkbox" checked={alsoResources} onChange={(e) => setAlsoResources(e.target.checked)} />{" "}
                  Also delete the created resources
                </label>
              )}
            </>
          )}
          <button
            type="button"
            className="danger"
            disabled={deleteState.fetching}
            onClick={() => doDelete(confirm === "rollback" || alsoResources)}
          >
            {confirm === "rollback" ? "Confirm rollback" : "Confirm delete"}
          </button>
          <button type="button" onClick={() => setConfirm(null)}>
            Cancel
          </button>
        </fieldset>
      )}
      <Message kind="error">{error}</Message>
    </div>
  );
}

/** The live list; `canManage` (owner or admin) shows the actions; `latest` is a record just returned by a mutation. */
export function ImportList({ canManage, latest }: { canManage: boolean; latest: SiteImportRow | null }) {
  const [offset, setOffset] = useState(0);
  const [result, reexecute] = useQuery({
    query: SITE_IMPORTS,
    variables: { first: PAGE_SIZE, offset },
  });
  const [live, setLive] = useState<Record<string, SiteImportRow>>({});
  const [seen, setSeen] = useState<Record<string, SiteImportUpdateStatus[]>>({});
  /** Ids reported `deleted`: their rows leave the list at once (the page is re-read to fill it up). */
  const [gone, setGone] = useState<ReadonlySet<string>>(new Set());
  const reload = useCallback(() => reexecute({ requestPolicy: "network-only" }), [reexecute]);
  const rows = (result.data?.siteImports.edges.map((e) => e.node) ?? []).filter((r) => !gone.has(r.id));

  // The handler only accumulates events (it may run twice under StrictMode); the effect applies new ones once.
  const [sub] = useSubscription<SiteImportUpdatedSubscription, SiteImportUpdatedSubscription[]>(
    { query: SITE_IMPORT_UPDATED },
    (prev, event) => [...(prev ?? []), event],
  );
  const applied = useRef(0);
  const rowIds = useRef(new Set<string>());
  rowIds.current = new Set(rows.map((r) => r.id));
  useEffect(() => {
    const events = sub.data ?? [];
    const fresh = events.slice(applied.current);
    applied.current = events.length;
    if (fresh.length === 0) return;
    let stale = false;
    for (const { siteImportUpdated: e } of fresh) {
      setSeen((s) => ({ ...s, [e.importId]: [...(s[e.importId] ?? []), e.status] }));
      if (e.status === "deleted") setGone((g) => new Set(g).add(e.importId));
      const record = e.siteImport;
      if (record) setLive((l) => ({ ...l, [e.importId]: record }));
      // A record not on this page (a new import) or deleted: re-read the page.
      if (!record || !rowIds.current.has(e.importId)) stale = true;
    }
    if (stale) reload();
  }, [sub.data, reload]);
  useEffect(() => {
    if (!latest) return;
    setLive((l) => ({ ...l, [latest.id]: latest }));
    if (!rowIds.current.has(latest.id)) reload();
  }, [latest, reload]);

  const fresher = (row: SiteImportRow) => {
    const l = live[row.id];
    return l && l.updatedAt >= row.updatedAt ? l : row;
  };
  const total = result.data?.siteImports.totalCount ?? 0;
  return (
    <section className="card" aria-labelledby="imports-title">
      <h2 id="imports-title">Imports</h2>
      <p className="muted" aria-live="polite">
        {sub.error ? `Live updates unavailable: ${describeError(sub.error)}` : "Live: updates appear as they happen."}
      </p>
      <Message kind="error">{describeError(result.error)}</Message>
      {rows.length === 0 && !result.fetching ? (
        <p>No imports yet.</p>
      ) : (
        <table className="imports">
          <caption className="sr-only">Import records, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Status</th>
              <th scope="col">Created resources</th>
              <th scope="col">Error</th>
              <th scope="col">Time</th>
              {canManage && <th scope="col">Actions</th>}
            </tr>
          </thead>
          <tbody>
            {rows.map((r0) => {
              const row = fresher(r0);
              return (
                <tr
                  key={row.id}
                  data-import-id={row.id}
                  data-name={row.name}
                  data-seen={(seen[row.id] ?? []).join(" ")}
                >
                  <th scope="row">{row.name}</th>
                  <td>
                    <StatusBadge status={row.status} />
                    {row.attempts > 1 && <small className="muted"> attempt {row.attempts}</small>}
                  </td>
                  <td>
                    <Resources row={row} />
                  </td>
                  <td>
                    {row.errorStep ? (
                      <>
                        <code>{row.errorStep}</code>: {row.errorMessage}
                      </>
                    ) : (
                      <span className="muted">—</span>
                    )}
                  </td>
                  <td>
                    <time dateTime={row.createdAt}>{when(row.createdAt)}</time>
                    {row.finishedAt && (
                      <small className="muted">
                        {" "}
                        finished <time dateTime={row.finishedAt}>{when(row.finishedAt)}</time>
                      </small>
                    )}
                  </td>
                  {canManage && (
                    <td>
                      <RowActions row={row} onChanged={reload} />
                    </td>
                  )}
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      <nav className="pager" aria-label="Pages of imports">
        <button type="button" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - PAGE_SIZE))}>
          Newer
        </button>
        <span>
          {total === 0 ? 0 : offset + 1}–{Math.min(offset + PAGE_SIZE, total)} of {total}
        </span>
        <button type="button" disabled={offset + PAGE_SIZE >= total} onClick={() => setOffset(offset + PAGE_SIZE)}>
          Older
        </button>
      </nav>
    </section>
  );
}
