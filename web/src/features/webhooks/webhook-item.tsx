/** One webhook endpoint as a table row, with its actions (edit, regenerate secret, test, deliveries, delete). */
import { useState } from "react";
import { ConfirmBox, Message, SecretOnce } from "../../shared/form.tsx";
import { useAction } from "../../shared/use-action.ts";
import {
  DELETE_WEBHOOK,
  REGENERATE_WEBHOOK_SECRET,
  TEST_WEBHOOK,
  type WebhookDeliveryRow,
  type WebhookEndpointRow,
} from "./operations.ts";
import { EditWebhook, type EventType } from "./webhook-form.tsx";

/** Active/inactive as icon and word. */
function ActiveBadge({ active }: { active: boolean }) {
  return (
    <span className={`badge ${active ? "success" : "pending"}`} data-testid="active">
      <span aria-hidden="true">{active ? "●" : "○"}</span> {active ? "Active" : "Inactive"}
    </span>
  );
}

/** The outcome of a test ping in words. */
function describeTest(first: WebhookDeliveryRow | null | undefined, deliveryId: string): string {
  if (!first) return `Test ping ${deliveryId} is queued: no worker ran it yet; see the delivery log.`;
  if (first.success) return `Test ping delivered: HTTP ${first.responseStatus} in ${first.durationMs} ms.`;
  return `Test ping failed: ${first.errorMessage ?? `HTTP ${first.responseStatus ?? "no answer"}`}; retries, if any, appear in the delivery log.`;
}

/** One endpoint's table row with its actions (edit, regenerate secret, test, deliveries, delete). */
export function WebhookItem({
  organizationId,
  hook,
  catalogue,
  reload,
  logOpen,
  toggleLog,
}: {
  organizationId: string;
  hook: WebhookEndpointRow;
  catalogue: EventType[];
  reload: () => void;
  logOpen: boolean;
  toggleLog: () => void;
}) {
  const [editing, setEditing] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const [test, setTest] = useState<{ ok: boolean; text: string } | null>(null);
  const regenerate = useAction(REGENERATE_WEBHOOK_SECRET);
  const ping = useAction(TEST_WEBHOOK);
  const del = useAction(DELETE_WEBHOOK, reload);
  const vars = { organizationId, webhookUuid: hook.webhookUuid };
  return (
    <tr data-webhook-id={hook.webhookUuid}>
      <th scope="row">
        <code>{hook.url}</code>
        {hook.description && <div className="muted">{hook.description}</div>}
      </th>
      <td>
        <details>
          <summary>{hook.events.length === 1 ? "1 event" : `${hook.events.length} events`}</summary>
          <ul className="plain">
            {hook.events.map((e) => (
              <li key={e}>
                <code>{e}</code>
              </li>
            ))}
          </ul>
        </details>
      </td>
      <td>
        <ActiveBadge active={hook.isActive} />
      </td>
      <td>
        <div className="row-actions">
          <button
            type="button"
            aria-expanded={editing}
            onClick={() => setEditing(!editing)}
            aria-label={`Edit ${hook.url}`}
          >
            Edit
          </button>
          <button
            type="button"
            aria-label={`Send test to ${hook.url}`}
            disabled={ping.state.fetching}
            onClick={async () => {
              setTest(null);
              const r = await ping.exec(vars);
              const result = r.data?.testWebhook;
              if (result)
                setTest({
                  ok: result.firstAttempt?.success === true,
                  text: describeTest(result.firstAttempt, result.deliveryId),
                });
            }}
          >
            {ping.state.fetching ? "Sending…" : "Send test"}
          </button>
          <button type="button" aria-pressed={logOpen} onClick={toggleLog} aria-label={`Deliveries of ${hook.url}`}>
            Deliveries
          </button>
          <button
            type="button"
            aria-label={`Regenerate secret of ${hook.url}`}
            onClick={async () => {
              const r = await regenerate.exec(vars);
              if (r.data) setSecret(r.data.regenerateWebhookSecret.secret);
            }}
          >
            Regenerate secret
          </button>
          <button
            type="button"
            className="danger"
            aria-expanded={confirmDelete}
            onClick={() => setConfirmDelete(true)}
            aria-label={`Delete ${hook.url}`}
          >
            Delete
          </button>
          {confirmDelete && (
            <ConfirmBox
              label={`Confirm deleting ${hook.url}`}
              confirmText="Confirm delete"
              cancelText="Keep it"
              busy={del.state.fetching}
              onConfirm={() => del.exec(vars)}
              onCancel={() => setConfirmDelete(false)}
            >
              Delete this endpoint, its delivery log and pending attempts?
            </ConfirmBox>
          )}
        </div>
        {test && <Message kind={test.ok ? "success" : "info"}>{test.text}</Message>}
        <Message kind="error">{ping.error ?? regenerate.error ?? del.error}</Message>
        {secret && <SecretOnce label={`New signing secret of ${hook.url}`} secret={secret} />}
        {editing && (
          <EditWebhook
            organizationId={organizationId}
            hook={hook}
            catalogue={catalogue}
            done={() => {
              setEditing(false);
              reload();
            }}
            cancel={() => setEditing(false)}
          />
        )}
      </td>
    </tr>
  );
}
