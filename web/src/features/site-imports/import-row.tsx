/** The parts of one import record in the list: its status, the resources it created and the actions it allows. */

import { useState } from "react";
import { useMutation } from "urql";
import { describeError } from "../../shared/errors.ts";
import { ConfirmBox, Message } from "../../shared/form.tsx";
import { Link } from "../../shared/router.tsx";
import { DELETE_SITE_IMPORT, type ImportStatus, RETRY_SITE_IMPORT, type SiteImportRow } from "./operations.ts";

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

/** A time in the reader's locale, or a dash. */
export function when(iso: string | null): string {
  return iso ? new Date(iso).toLocaleString() : "";
}

/** The created resources of a record. */
export function Resources({ row }: { row: SiteImportRow }) {
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
export function RowActions({ row, onChanged }: { row: SiteImportRow; onChanged: () => void }) {
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
        // The shared confirmation: focus moves into it, Escape cancels, and focus returns to the opener or, the
        // record gone, lands on what held it.
        <ConfirmBox
          label={`Confirm ${confirm} of ${row.name}`}
          confirmText={confirm === "rollback" ? "Confirm rollback" : "Confirm delete"}
          busy={deleteState.fetching}
          onConfirm={() => doDelete(confirm === "rollback" || alsoResources)}
          onCancel={() => setConfirm(null)}
        >
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
        </ConfirmBox>
      )}
      <Message kind="error">{error}</Message>
    </div>
  );
}
