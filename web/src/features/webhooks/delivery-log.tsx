/** The delivery log of one webhook endpoint, re-read while open, with Redeliver. */
import { useEffect, useState } from "react";
import { useQuery } from "urql";
import { describeError } from "../../shared/errors.ts";
import { Message } from "../../shared/form.tsx";
import { TableScroll } from "../../shared/table-scroll.tsx";
import { useAction } from "../../shared/use-action.ts";
import {
  REDELIVER_WEBHOOK,
  WEBHOOK_DELIVERIES,
  type WebhookDeliveryRow,
  type WebhookEndpointRow,
} from "./operations.ts";

/** How often (ms) an open delivery log re-reads itself, so retries and redeliveries show up. */
const LOG_REFRESH_MS = 2_000;

/** A success/failure word with an icon (colour only as an extra). */
function Outcome({ success }: { success: boolean }) {
  return (
    <span className={`badge ${success ? "success" : "failed"}`} data-testid="outcome">
      <span aria-hidden="true">{success ? "✓" : "✗"}</span> {success ? "Success" : "Failed"}
    </span>
  );
}

function time(iso: string): string {
  return new Date(iso).toLocaleString();
}

/** The delivery log of one endpoint, newest first, re-read every {@link LOG_REFRESH_MS}, with Redeliver. */
export function DeliveryLog({ organizationId, hook }: { organizationId: string; hook: WebhookEndpointRow }) {
  const [result, reexecute] = useQuery({
    query: WEBHOOK_DELIVERIES,
    variables: { organizationId, webhookUuid: hook.webhookUuid, limit: 50 },
    requestPolicy: "network-only",
  });
  const refresh = () => reexecute({ requestPolicy: "network-only" });
  const redeliver = useAction(REDELIVER_WEBHOOK, refresh);
  const [notice, setNotice] = useState<string | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the interval re-reads the same query
  useEffect(() => {
    const timer = setInterval(refresh, LOG_REFRESH_MS);
    return () => clearInterval(timer);
  }, [hook.webhookUuid]);
  const rows: WebhookDeliveryRow[] = result.data?.webhookDeliveries ?? [];
  return (
    <section className="card" aria-labelledby="log-title" data-testid="delivery-log">
      <h3 id="log-title">
        Deliveries of <code>{hook.url}</code>
      </h3>
      <div className="row">
        <button type="button" onClick={refresh}>
          Refresh
        </button>
        <span className="muted">Newest first; refreshes every {LOG_REFRESH_MS / 1000} s.</span>
      </div>
      <Message kind="error">{describeError(result.error) ?? redeliver.error}</Message>
      <Message kind="success">{notice}</Message>
      {rows.length === 0 ? (
        <p className="muted">{result.fetching ? "Loading…" : "No deliveries yet."}</p>
      ) : (
        <TableScroll label="Delivery attempts">
          <table>
            <caption className="sr-only">Delivery attempts, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Event</th>
                <th scope="col">Attempt</th>
                <th scope="col">Result</th>
                <th scope="col">Status</th>
                <th scope="col">Error</th>
                <th scope="col">Duration</th>
                <th scope="col">Time</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((d) => (
                <tr key={`${d.deliveryId}-${d.attempt}-${d.createdAt}`} data-delivery-id={d.deliveryId}>
                  <th scope="row">
                    <code>{d.event}</code> <span className="muted">{d.deliveryId}</span>
                  </th>
                  <td>{d.attempt} of 3</td>
                  <td>
                    <Outcome success={d.success} />
                  </td>
                  <td>{d.responseStatus ?? "—"}</td>
                  <td>{d.errorMessage ?? ""}</td>
                  <td>{d.durationMs} ms</td>
                  <td>{time(d.createdAt)}</td>
                  <td>
                    <button
                      type="button"
                      aria-label={`Redeliver ${d.event} ${d.deliveryId}`}
                      onClick={async () => {
                        setNotice(null);
                        const r = await redeliver.exec({
                          organizationId,
                          webhookUuid: hook.webhookUuid,
                          deliveryId: d.deliveryId,
                        });
                        if (!r.error) setNotice(`Redelivery of ${d.deliveryId} queued.`);
                      }}
                    >
                      Redeliver
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </section>
  );
}
