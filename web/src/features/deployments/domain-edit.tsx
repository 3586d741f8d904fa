/**
 * Editing one domain of the application page's Domains section (`updateDomain`): its container port (or back to the
 * application's port) and whether HTTPS (a certificate) is requested. The change applies with the next deployment.
 */
import { useState } from "react";
import { fieldErrorsOf } from "../../shared/errors.ts";
import { Field, Message } from "../../shared/form.tsx";
import { useAction } from "../../shared/use-action.ts";
import { type ApplicationManageFields, UPDATE_DOMAIN } from "./manage-operations.ts";

type DomainData = ApplicationManageFields["domains"][number];

/** An Edit button for `domain` that opens its form (port, application port, HTTPS); `appPort` is the fallback. */
export function DomainEdit({ domain, appPort }: { domain: DomainData; appPort: number }) {
  const [open, setOpen] = useState(false);
  const [fields, setFields] = useState<Record<string, string[]>>({});
  const update = useAction(UPDATE_DOMAIN);
  if (!open)
    return (
      <button type="button" aria-label={`Edit ${domain.host}`} onClick={() => setOpen(true)}>
        Edit
      </button>
    );
  return (
    <form
      aria-label={`Edit ${domain.host}`}
      onSubmit={async (e) => {
        e.preventDefault();
        const data = new FormData(e.currentTarget);
        const port = String(data.get("port") ?? "").trim();
        const r = await update.exec({
          id: domain.id,
          input: {
            ...(port ? { port: Number(port) } : { useApplicationPort: true }),
            https: data.get("https") === "on",
          },
        });
        setFields(fieldErrorsOf(r.error));
        if (!r.error) setOpen(false);
      }}
    >
      <Field
        label={`Port of ${domain.host}`}
        name="port"
        type="number"
        min={1}
        max={65535}
        defaultValue={domain.port ?? ""}
        placeholder={String(appPort)}
        hint={fields.port?.join(", ") ?? `Empty: the application's port (${appPort})`}
      />
      <label className="check">
        <input type="checkbox" name="https" defaultChecked={domain.https ?? false} /> HTTPS (request a certificate)
      </label>
      <div className="row">
        <button type="submit" className="primary" disabled={update.state.fetching}>
          Save {domain.host}
        </button>
        <button type="button" onClick={() => setOpen(false)}>
          Cancel
        </button>
      </div>
      <Message kind="error">{update.error}</Message>
    </form>
  );
}
