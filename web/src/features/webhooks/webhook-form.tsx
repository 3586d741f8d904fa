/** The webhook endpoint forms: the event picker (the catalogue by category), creating an endpoint and editing one. */
import { type FormEvent, useId, useState } from "react";
import { Field, FocusedForm, Message, SecretOnce } from "../../shared/form.tsx";
import { useAction } from "../../shared/use-action.ts";
import { CREATE_WEBHOOK, UPDATE_WEBHOOK, type WebhookEndpointRow } from "./operations.ts";

/** One catalogue entry as the page uses it. */
export interface EventType {
  name: string;
  category: string;
  description: string;
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
export function CreateWebhook({
  organizationId,
  catalogue,
  reload,
}: {
  organizationId: string;
  catalogue: EventType[];
  reload: () => void;
}) {
  const create = useAction(CREATE_WEBHOOK, reload, ["url", "description"]);
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
            error={create.fields.url?.join(", ")}
          />
          <Field label="Description" name="description" maxLength={500} error={create.fields.description?.join(", ")} />
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

/**
 * Inline editing of one endpoint: URL, active state and events. The form takes focus when it opens (its URL field);
 * Cancel or Escape closes it (`cancel`) and focus returns to Edit; a refused URL is said under its field.
 */
export function EditWebhook({
  organizationId,
  hook,
  catalogue,
  done,
  cancel,
}: {
  organizationId: string;
  hook: WebhookEndpointRow;
  catalogue: EventType[];
  done: () => void;
  cancel: () => void;
}) {
  const update = useAction(UPDATE_WEBHOOK, done, ["url"]);
  const [events, setEvents] = useState<Set<string>>(new Set(hook.events));
  const activeId = useId();
  return (
    <FocusedForm
      className="confirm"
      aria-label={`Edit ${hook.url}`}
      onEscape={cancel}
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
      <Field
        label="Endpoint URL"
        name="url"
        type="url"
        required
        maxLength={2048}
        defaultValue={hook.url}
        error={update.fields.url?.join(", ")}
      />
      <div className="check">
        <input id={activeId} type="checkbox" name="isActive" defaultChecked={hook.isActive} />
        <label htmlFor={activeId}>Active (inactive endpoints get no deliveries)</label>
      </div>
      <EventPicker catalogue={catalogue} selected={events} onChange={setEvents} />
      <div className="actions">
        <button type="submit" className="primary" disabled={events.size === 0 || update.state.fetching}>
          Save changes
        </button>
        <button type="button" onClick={cancel}>
          Cancel
        </button>
      </div>
      <Message kind="error">{update.error}</Message>
    </FocusedForm>
  );
}
