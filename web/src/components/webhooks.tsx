import { type FormEvent, useEffect, useId, useState } from "react";
import { useQuery } from "urql";
import { describeError, errorCode } from "../errors.ts";
import { useAction } from "../use-action.ts";
import {
  CREATE_WEBHOOK,
  DELETE_WEBHOOK,
  REDELIVER_WEBHOOK,
  REGENERATE_WEBHOOK_SECRET,
  TEST_WEBHOOK,
  UPDATE_WEBHOOK,
  WEBHOOK_DELIVERIES,
  WEBHOOKS,
  type WebhookDeliveryRow,
  type WebhookEndpointRow,
} from "../webhook-operations.ts";
import { Field, Message, SecretOnce } from "./form.tsx";

/** One catalogue entry as the page uses it. */
interface EventType {
  name: string;
  category: string;
  description: string;
}

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

/** Active/inactive as icon and word. */
function ActiveBadge({ active }: { active: boolean }) {
  return (
    <span className={`badge ${active ? "success" : "pending"}`} data-testid="active">
      <span aria-hidden="true">{active ? "●" : "○"}</span> {active ? "Active" : "Inactive"}
    </span>
  );
}

/** Checkboxes of the catalogue, one fieldset per category, with "all of category" toggles. */
function EventPicker({
  catalogue,
  selected,
  onChange,
}: {
  catalogue: EventType[];
  selected: Set<string>;
  onChange: (next: Set<string>) => void;
}) {
  const categories = [...new Set(catalogue.map((e) => e.category))];
  const toggle = (names: string[], on: boolean) => {
    const next = new Set(selected);
    for (const n of names) {
      if (on) next.add(n);
      else next.delete(n);
    }
    onChange(next);
  };
  return (
    <fieldset className="events">
      <legend>
        Events <span className="muted">({selected.size} selected)</span>
      </legend>
      {categories.map((category) => {
        const events = catalogue.filter((e) => e.category === category);
        const names = events.map((e) => e.name);
        const all = names.every((n) => selected.has(n));
        return (
          <fieldset key={category} className="event-category">
            <legend>
              <label className="check">
                <input
                  type="checkbox"
                  checked={all}
                  onChange={(e) => toggle(names, e.target.checked)}
                  aria-label={`All ${category} events`}
                />
                {category}
              </label>
            </legend>
            {events.map((e) => (
              <label key={e.name} className="check" title={e.description}>
                <input
                  type="checkbox"
                  name="events"
                  value={e.name}
                  checked={selected.has(e.name)}
                  onChange={(ev) => toggle([e.name], ev.target.checked)}
                />
                <code>{e.name}</code>
              </label>
            ))}
          </fieldset>
        );
      })}
    </fieldset>
  );
}

/** The form creating an endpoint; shows the secret once afterwards. */
function CreateWebhook({
  organizationId,
  catalogue,
  reload,
}: {
  organizationId: string;
  catalogue: EventType[];
  reload: () => void;
}) {
  const create = useAction(CREATE_WEBHOOK, reload);
  const [events, setEvents] = useState<Set<string>>(new Set());
  const [created, setCreated] = useState<{ url: string; secret: string } | null>(null);
  const [localError, setLocalError] = useState<string | null>(null);
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const formEl = e.currentTarget;
    const form = new FormData(formEl);
    if (events.size === 0) {
      setLocalError("Pick at least one event.");
      return;
    }
    setLocalError(null);
    const description = String(form.get("description") ?? "").trim();
    const r = await create.exec({
      organizationId,
      input: { url: String(form.get("url")), events: [...events], description: description || undefined },
    });
    if (r.data) {
      setCreated({ url: r.data.createWebhook.webhook.url, secret: r.data.createWebhook.secret });
      setEvents(new Set());
      formEl.reset();
    }
  };
  return (
    <>
      <h3>Add an endpoint</h3>
      <form onSubmit={submit} aria-label="Add a webhook endpoint">
        <div className="row">
          <Field
            label="Endpoint URL"
            name="url"
            type="url"
            required
            maxLength={2048}
            placeholder="https://example.com/hooks"
            hint="Public https:// address"
          />
          <Field label="Description" name="description" maxLength={500} />
        </div>
        <EventPicker catalogue={catalogue} selected={events} onChange={setEvents} />
        <button type="submit" className="primary" disabled={create.state.fetching}>
          Add endpoint
        </button>
      </form>
      <Message kind="error">{localError ?? create.error}</Message>
      {created && <SecretOnce label={`Signing secret of ${created.url}`} secret={created.secret} />}
    </>
  );
}

/** Inline editing of one endpoint: URL, active state and events. */
function EditWebhook({
  organizationId,
  hook,
  catalogue,
  done,
}: {
  organizationId: string;
  hook: WebhookEndpointRow;
  catalogue: EventType[];
  done: () => void;
}) {
  const update = useAction(UPDATE_WEBHOOK, done);
  const [events, setEvents] = useState<Set<string>>(new Set(hook.events));
  const activeId = useId();
  return (
    <form
      className="confirm"
      aria-label={`Edit ${hook.url}`}
      onSubmit={async (e) => {
        e.preventDefault();
        const form = new FormData(e.currentTarget);
        await update.exec({
          organizationId,
          webhookUuid: hook.webhookUuid,
          input: { url: String(form.get("url")), isActive: form.get("isActive") === "on", events: [...events] },
        });
      }}
    >
      <Field label="Endpoint URL" name="url" type="url" required maxLength={2048} defaultValue={hook.url} />
      <div className="check">
        <input id={activeId} type="checkbox" name="isActive" defaultChecked={hook.isActive} />
        <label htmlFor={activeId}>Active (inactive endpoints get no deliveries)</label>
      </div>
      <EventPicker catalogue={catalogue} selected={events} onChange={setEvents} />
      <div className="actions">
        <button type="submit" className="primary" disabled={events.size === 0 || update.state.fetching}>
          Save changes
        </button>
        <button type="button" onClick={done}>
          Cancel
        </button>
      </div>
      <Message kind="error">{update.error}</Message>
    </form>
  );
}

function time(iso: string): string {
  return new Date(iso).toLocaleString();
}

/** The delivery log of one endpoint, newest first, re-read every {@link LOG_REFRESH_MS}, with Redeliver. */
function DeliveryLog({ organizationId, hook }: { organizationId: string; hook: WebhookEndpointRow }) {
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
      )}
    </section>
  );
}

/** The outcome of a test ping in words. */
function describeTest(first: WebhookDeliveryRow | null | undefined, deliveryId: string): string {
  if (!first) return `Test ping ${deliveryId} is queued: no worker ran it yet; see the delivery log.`;
  if (first.success) return `Test ping delivered: HTTP ${first.responseStatus} in ${first.durationMs} ms.`;
  return `Test ping failed: ${first.errorMessage ?? `HTTP ${first.responseStatus ?? "no answer"}`}; retries, if any, appear in the delivery log.`;
}

/** One endpoint's table row with its actions (edit, regenerate secret, test, deliveries, delete). */
function WebhookItem({
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
            <div className="confirm">
              <p>Delete this endpoint, its delivery log and pending attempts?</p>
              <button type="button" className="danger" onClick={() => del.exec(vars)}>
                Confirm delete
              </button>{" "}
              <button type="button" onClick={() => setConfirmDelete(false)}>
                Keep it
              </button>
            </div>
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
          />
        )}
      </td>
    </tr>
  );
}

/** The Webhooks card of the settings page (render it for owners and admins only). */
export function WebhooksSection({ organizationId }: { organizationId: string }) {
  const [result, reexecute] = useQuery({ query: WEBHOOKS, variables: { organizationId } });
  const reload = () => reexecute({ requestPolicy: "network-only" });
  const [logOf, setLogOf] = useState<string | null>(null);
  const { code } = errorCode(result.error);
  const planFeature = result.error?.graphQLErrors[0]?.extensions?.planFeature as string | undefined;
  const hooks = result.data?.webhooks ?? [];
  const catalogue = result.data?.webhookEvents ?? [];
  const logHook = hooks.find((h) => h.webhookUuid === logOf);
  return (
    <section className="card" aria-labelledby="webhooks-title">
      <h2 id="webhooks-title">Webhooks</h2>
      <p className="muted">
        Signed HTTPS POSTs of the events you pick. Verify <code>X-Webhook-Signature</code> with the endpoint's secret.
      </p>
      {code === "FORBIDDEN" ? (
        <Message kind="error">
          {result.error?.graphQLErrors[0]?.message}
          {planFeature ? ` (plan feature “${planFeature}”: upgrade the plan to use webhooks)` : ""}
        </Message>
      ) : (
        <Message kind="error">{describeError(result.error)}</Message>
      )}
      {result.data && (
        <>
          {hooks.length === 0 ? (
            <p className="muted">No endpoints yet.</p>
          ) : (
            <table>
              <caption className="sr-only">Webhook endpoints</caption>
              <thead>
                <tr>
                  <th scope="col">URL</th>
                  <th scope="col">Events</th>
                  <th scope="col">State</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {hooks.map((h) => (
                  <WebhookItem
                    key={h.webhookUuid}
                    organizationId={organizationId}
                    hook={h}
                    catalogue={catalogue}
                    reload={reload}
                    logOpen={logOf === h.webhookUuid}
                    toggleLog={() => setLogOf(logOf === h.webhookUuid ? null : h.webhookUuid)}
                  />
                ))}
              </tbody>
            </table>
          )}
          {logHook && <DeliveryLog key={logHook.webhookUuid} organizationId={organizationId} hook={logHook} />}
          <CreateWebhook organizationId={organizationId} catalogue={catalogue} reload={reload} />
        </>
      )}
    </section>
  );
}
