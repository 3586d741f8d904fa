/**
 * The relay log of one payment gateway service: event type, reference, outcome, HTTP status, duration and time,
 * newest first, re-read every {@link RELAY_REFRESH_MS} and on Refresh.
 */
import { useEffect } from "react";
import { useQuery } from "urql";
import { describeError } from "../../shared/errors.ts";
import { Message } from "../../shared/form.tsx";
import { TableScroll } from "../../shared/table-scroll.tsx";
import { PAYMENT_RELAYS, type PaymentRelayRow } from "./operations.ts";

/** How often (ms) the open log re-reads itself. */
export const RELAY_REFRESH_MS = 3_000;

const OUTCOME: Record<string, { icon: string; label: string; tone: string }> = {
  DELIVERED: { icon: "✓", label: "Delivered", tone: "success" },
  FAILED: { icon: "✗", label: "Failed", tone: "failed" },
  REFUSED: { icon: "⊘", label: "Refused", tone: "neutral" },
};

/** The log of `serviceId` (read through its project, whose services' logs come in one request). */
export function RelayLog({ projectId, serviceId, name }: { projectId: string; serviceId: string; name: string }) {
  const [result, reexecute] = useQuery({
    query: PAYMENT_RELAYS,
    variables: { projectId, first: 50 },
    requestPolicy: "network-only",
  });
  const refresh = () => reexecute({ requestPolicy: "network-only" });
  // biome-ignore lint/correctness/useExhaustiveDependencies: the interval re-reads the same query
  useEffect(() => {
    const timer = setInterval(refresh, RELAY_REFRESH_MS);
    return () => clearInterval(timer);
  }, [serviceId]);
  const rows: PaymentRelayRow[] =
    result.data?.project?.paymentGatewayServices.find((s) => s.id === serviceId)?.relays ?? [];
  return (
    <section aria-label={`Relay log of ${name}`} data-testid="relay-log">
      <h4>Relay log</h4>
      <div className="row">
        <button type="button" onClick={refresh} aria-label={`Refresh the relay log of ${name}`}>
          Refresh
        </button>
        <span className="muted">
          Newest first; refreshes every {RELAY_REFRESH_MS / 1000} s. Failed relays are not retried.
        </span>
      </div>
      <Message kind="error">{describeError(result.error)}</Message>
      {rows.length === 0 ? (
        <p className="muted">{result.fetching && !result.data ? "Loading…" : "No payment events relayed yet."}</p>
      ) : (
        <TableScroll label={`Relay log of ${name}`}>
          <table>
            <caption className="sr-only">Payment events relayed for {name}, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Event</th>
                <th scope="col">Reference</th>
                <th scope="col">Outcome</th>
                <th scope="col">Status</th>
                <th scope="col">Duration</th>
                <th scope="col">Time</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => {
                const o = OUTCOME[r.outcome] ?? { icon: "?", label: r.outcome, tone: "neutral" };
                return (
                  <tr key={r.id} data-relay-id={r.id}>
                    <th scope="row">
                      <code>{r.eventType}</code>
                      {!r.knownEvent && <span className="muted"> (not a listed type)</span>}
                    </th>
                    <td>{r.externalReference ?? "—"}</td>
                    <td>
                      <span className={`badge ${o.tone}`} data-testid="relay-outcome">
                        <span aria-hidden="true">{o.icon}</span> {o.label}
                      </span>
                      {r.error && <div className="muted">{r.error}</div>}
                    </td>
                    <td>{r.statusCode ?? "—"}</td>
                    <td>{r.durationMs} ms</td>
                    <td>{new Date(r.createdAt).toLocaleString()}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </TableScroll>
      )}
    </section>
  );
}
