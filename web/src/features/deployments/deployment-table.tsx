/** The deployments of an application as a table, newest first: title, status, trigger, times and actions. */
import { Message } from "../../shared/form.tsx";
import { TableScroll } from "../../shared/table-scroll.tsx";
import { useAction } from "../../shared/use-action.ts";
import { DeploymentStatusBadge, deploymentActions } from "./deploy-status.tsx";
import { CANCEL_DEPLOYMENT, type DeploymentRow, REDEPLOY_DEPLOYMENT } from "./operations.ts";

/** A time in the reader's locale, or a dash. */
function when(iso: string | null | undefined): string {
  return iso ? new Date(iso).toLocaleString() : "—";
}

/** The seconds between two instants, in words ("12 s"), or "" when either is missing. */
function duration(from: string | null | undefined, to: string | null | undefined): string {
  if (!from || !to) return "";
  const s = Math.max(0, Math.round((Date.parse(to) - Date.parse(from)) / 1000));
  return s < 120 ? `${s} s` : `${Math.round(s / 60)} min`;
}

/** Trigger names in words. */
const TRIGGERS: Record<string, string> = {
  manual: "Manual",
  api: "Deploy URL",
  push: "Git push",
  import: "Site import",
  redeploy: "Redeploy",
};

/** The actions of one deployment row (Cancel while queued, Redeploy once ended; none for those who may not deploy). */
function RowActions({
  row,
  allowed,
  onQueued,
  onChanged,
}: {
  row: DeploymentRow;
  allowed: boolean;
  onQueued: (d: DeploymentRow) => void;
  onChanged: (d: DeploymentRow) => void;
}) {
  const cancel = useAction(CANCEL_DEPLOYMENT);
  const redeploy = useAction(REDEPLOY_DEPLOYMENT);
  if (!allowed) return null;
  const actions = deploymentActions(row.status);
  return (
    <div className="row-actions">
      {actions.cancel && (
        <button
          type="button"
          className="danger"
          disabled={cancel.state.fetching}
          aria-label={`Cancel ${row.title}`}
          onClick={async () => {
            const r = await cancel.exec({ id: row.id });
            if (r.data) onChanged(r.data.cancelDeployment);
          }}
        >
          Cancel
        </button>
      )}
      {actions.redeploy && (
        <button
          type="button"
          disabled={redeploy.state.fetching}
          aria-label={`Redeploy ${row.title}`}
          onClick={async () => {
            const r = await redeploy.exec({ id: row.id });
            if (r.data) onQueued(r.data.redeployDeployment);
          }}
        >
          Redeploy
        </button>
      )}
      {!actions.cancel && !actions.redeploy && <span className="muted">Running: no actions</span>}
      <Message kind="error">{cancel.error ?? redeploy.error}</Message>
    </div>
  );
}

/**
 * The table of `rows`; `seen` lists the statuses each row was seen in on the page (its `data-seen`), `selectedId` is
 * the row whose log is shown (`onSelect` picks another). `mayDeploy` shows the row actions; `onQueued` receives a
 * redeployment, `onChanged` a cancelled deployment.
 */
export function DeploymentTable({
  rows,
  seen,
  selectedId,
  onSelect,
  mayDeploy,
  onQueued,
  onChanged,
}: {
  rows: DeploymentRow[];
  seen: Record<string, string[]>;
  selectedId: string | null;
  onSelect: (id: string) => void;
  mayDeploy: boolean;
  onQueued: (d: DeploymentRow) => void;
  onChanged: (d: DeploymentRow) => void;
}) {
  return (
    <TableScroll label="Deployments list">
      <table className="deployments">
        <caption className="sr-only">Deployments, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Deployment</th>
            <th scope="col">Status</th>
            <th scope="col">Trigger</th>
            <th scope="col">Times</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr
              key={row.id}
              data-deployment-id={row.id}
              data-seen={(seen[row.id] ?? []).join(" ")}
              aria-current={selectedId === row.id ? "true" : undefined}
            >
              <th scope="row">
                {row.title}
                {row.commitSha && (
                  <small className="muted">
                    {" "}
                    commit <code>{row.commitSha.slice(0, 12)}</code>
                  </small>
                )}
                {row.errorMessage && <div className="muted">{row.errorMessage}</div>}
              </th>
              <td>
                <DeploymentStatusBadge status={row.status} />
              </td>
              <td>{TRIGGERS[row.trigger] ?? row.trigger}</td>
              <td>
                <small>
                  created <time dateTime={row.createdAt}>{when(row.createdAt)}</time>
                  {row.startedAt && (
                    <>
                      <br />
                      started <time dateTime={row.startedAt}>{when(row.startedAt)}</time>
                    </>
                  )}
                  {row.finishedAt && (
                    <>
                      <br />
                      finished <time dateTime={row.finishedAt}>{when(row.finishedAt)}</time>
                      {row.startedAt && ` (${duration(row.startedAt, row.finishedAt)})`}
                    </>
                  )}
                </small>
              </td>
              <td>
                <div className="row-actions">
                  <button
                    type="button"
                    aria-pressed={selectedId === row.id}
                    aria-label={`Log of ${row.title}`}
                    onClick={() => onSelect(row.id)}
                  >
                    Log
                  </button>
                  <RowActions row={row} allowed={mayDeploy} onQueued={onQueued} onChanged={onChanged} />
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
