/**
 * The list of import records (newest first, 20 a page) kept current by the `siteImportUpdated` subscription
 * over graphql-ws: an event updates its row in place; an event for a record not on the page (a new import,
 * a deletion) re-reads the page. No polling. Per record, the actions its status allows (spec "Available
 * actions"): pending — none; success — delete; partial — retry, rollback, delete; failed — retry, delete.
 */

import { useCallback, useEffect, useRef, useState } from "react";
import { useQuery, useSubscription } from "urql";
import type { SiteImportUpdatedSubscription, SiteImportUpdateStatus } from "../../gql/graphql.ts";
import { describeError } from "../../shared/errors.ts";
import { Message } from "../../shared/form.tsx";
import { TableScroll } from "../../shared/table-scroll.tsx";
import { Resources, RowActions, StatusBadge, when } from "./import-row.tsx";
import { SITE_IMPORT_UPDATED, SITE_IMPORTS, type SiteImportRow } from "./operations.ts";

const PAGE_SIZE = 20;

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
        <TableScroll label="Import records">
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
        </TableScroll>
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
