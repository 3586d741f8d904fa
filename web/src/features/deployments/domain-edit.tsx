/**
 * Editing one domain of the application page's Domains section (`updateDomain`): its container port (or back to the
 * application's port) and whether HTTPS (a certificate) is requested. The change applies with the next deployment.
 * The form takes focus when opened (its port field) and gives it back to Edit when saved or cancelled (Escape too).
 */
import { useState } from "react";
import { useClearFeedback } from "../../shared/feedback.tsx";
import { Field, Message, useFocusInside } from "../../shared/form.tsx";
import { useAction } from "../../shared/use-action.ts";
import { type ApplicationManageFields, UPDATE_DOMAIN } from "./manage-operations.ts";

type DomainData = ApplicationManageFields["domains"][number];

/** An Edit button for `domain` that opens its form (port, application port, HTTPS); `appPort` is the fallback. */
export function DomainEdit({ domain, appPort }: { domain: DomainData; appPort: number }) {
  const [open, setOpen] = useState(false);
  const clear = useClearFeedback();
  if (!open)
    return (
      <button
        type="button"
        aria-label={`Edit ${domain.host}`}
        onClick={() => {
          clear();
          setOpen(true);
        }}
      >
        Edit
      </button>
    );
  return <DomainEditForm domain={domain} appPort={appPort} close={() => setOpen(false)} />;
}

/** The open form of {@link DomainEdit}; `close` shows the Edit button again. */
function DomainEditForm({ domain, appPort, close }: { domain: DomainData; appPort: number; close: () => void }) {
  const update = useAction(UPDATE_DOMAIN, undefined, ["port", "useApplicationPort"]);
  const clear = useClearFeedback();
  const cancel = () => {
    clear();
    close();
  };
  const focus = useFocusInside<HTMLFormElement>(cancel);
  return (
    <form
      aria-label={`Edit ${domain.host}`}
      ref={focus.ref}
      onKeyDown={focus.onKeyDown}
      onChange={clear}
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
        if (!r.error) close();
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
        error={update.fields.port?.join(", ")}
        hint={`Empty: the application's port (${appPort})`}
      />
      <label className="check">
        <input type="checkbox" name="https" defaultChecked={domain.https ?? false} /> HTTPS (request a certificate)
      </label>
      <div className="row">
        <button type="submit" className="primary" disabled={update.state.fetching}>
          Save {domain.host}
        </button>
        <button type="button" onClick={cancel}>
          Cancel
        </button>
      </div>
      <Message kind="error">{update.error}</Message>
    </form>
  );
}
