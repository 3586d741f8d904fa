/**
 * The application page's **Variables** section: names with masked values (Reveal shows one, for those the API gives
 * values to), set one (`setEnvironmentVariable`), Remove behind a confirmation (`unsetEnvironmentVariable`), and a
 * `.env` paste (`setEnvironmentVariables(dotenv)`): refused lines are listed by number (`fieldErrors["line.<n>"]`)
 * and nothing is set. Controls for owners and admins only (schema: variables are managed by owners and admins).
 */
import { useState } from "react";
import { useClearFeedback, useNotice } from "../../shared/feedback.tsx";
import { ConfirmBox, Field, Message } from "../../shared/form.tsx";
import { TableScroll } from "../../shared/table-scroll.tsx";
import { useAction } from "../../shared/use-action.ts";
import { useConfirm } from "../../shared/use-confirm.ts";
import {
  type ApplicationManageFields,
  SET_ENVIRONMENT_VARIABLE,
  SET_ENVIRONMENT_VARIABLES,
  UNSET_ENVIRONMENT_VARIABLE,
} from "./manage-operations.ts";

/** The refused lines of a paste, in line order: `[line number, messages]`. */
function lineErrors(fields: Record<string, string[]>): [number, string[]][] {
  return Object.entries(fields)
    .filter(([k]) => k.startsWith("line."))
    .map(([k, m]): [number, string[]] => [Number(k.slice(5)), m])
    .sort((a, b) => a[0] - b[0]);
}

/** One variable's row: the name, the value masked until revealed, and Remove with its confirmation. */
function VariableRow({
  app,
  name,
  value,
  manage,
}: {
  app: ApplicationManageFields;
  name: string;
  value: string;
  manage: boolean;
}) {
  const [shown, setShown] = useState(false);
  const confirm = useConfirm();
  const unset = useAction(UNSET_ENVIRONMENT_VARIABLE);
  return (
    <tr data-variable={name}>
      <th scope="row">
        <code>{name}</code>
      </th>
      <td>
        <code data-testid="variable-value">{shown ? value : "••••••••"}</code>{" "}
        <button
          type="button"
          aria-pressed={shown}
          aria-label={`${shown ? "Hide" : "Reveal"} ${name}`}
          onClick={() => setShown(!shown)}
        >
          {shown ? "Hide" : "Reveal"}
        </button>
      </td>
      {manage && (
        <td>
          {confirm.open ? (
            <ConfirmBox
              label={`Confirm removing ${name}`}
              confirmText={`Confirm: remove ${name}`}
              busy={unset.state.fetching}
              done={confirm.done}
              onCancel={confirm.cancel}
              onConfirm={async () => {
                // Removed: the row leaves with the re-read application (focus then lands on the section).
                const r = await unset.exec({ applicationId: app.id, key: name });
                if (!r.error) confirm.succeed();
              }}
            >
              Removes the variable <code>{name}</code> from {app.name}; the running version keeps it until the next
              deployment.
            </ConfirmBox>
          ) : (
            <button type="button" onClick={confirm.start} aria-label={`Remove ${name}`}>
              Remove
            </button>
          )}
          <Message kind="error">{unset.error}</Message>
        </td>
      )}
    </tr>
  );
}

/** The Variables section of `app`; `manage`: the viewer may change them (owners, admins). */
export function VariablesSection({ app, manage }: { app: ApplicationManageFields; manage: boolean }) {
  const set = useAction(SET_ENVIRONMENT_VARIABLE, undefined, ["key", "value"]);
  const paste = useAction(SET_ENVIRONMENT_VARIABLES);
  const [setNotice, setSetNotice] = useNotice();
  const [pasteNotice, setPasteNotice] = useNotice();
  const clear = useClearFeedback();
  const pasteLines = lineErrors(paste.fields);
  const vars = app.environmentVariables;
  return (
    <section className="card" aria-labelledby="variables-title">
      <h2 id="variables-title">Variables</h2>
      {vars.length === 0 ? (
        <p>No variables.</p>
      ) : (
        <TableScroll label={`Variables of ${app.name}, table`}>
          <table aria-label={`Variables of ${app.name}`}>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Value</th>
                {manage && <th scope="col">Actions</th>}
              </tr>
            </thead>
            <tbody>
              {vars.map((v) => (
                <VariableRow key={v.key} app={app} name={v.key} value={v.value} manage={manage} />
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      {manage && (
        <>
          <form
            className="row"
            aria-label="Set a variable"
            onChange={clear}
            onSubmit={async (e) => {
              e.preventDefault();
              setSetNotice(null);
              const formEl = e.currentTarget;
              const data = new FormData(formEl);
              const key = String(data.get("key") ?? "").trim();
              const r = await set.exec({ applicationId: app.id, key, value: String(data.get("value") ?? "") });
              if (!r.error) {
                formEl.reset();
                setSetNotice(`${key} set.`);
              }
            }}
          >
            <Field
              label="Name"
              name="key"
              required
              maxLength={255}
              className="mono"
              error={set.fields.key?.join(", ")}
            />
            <Field
              label="Value"
              name="value"
              type="password"
              autoComplete="off"
              maxLength={32768}
              error={set.fields.value?.join(", ")}
            />
            <button type="submit" className="primary" disabled={set.state.fetching}>
              Set variable
            </button>
          </form>
          <Message kind="error">{set.error}</Message>
          {setNotice && <Message kind="success">{setNotice}</Message>}
          <form
            aria-label="Paste a .env file"
            onChange={clear}
            onSubmit={async (e) => {
              e.preventDefault();
              setPasteNotice(null);
              const formEl = e.currentTarget;
              const dotenv = String(new FormData(formEl).get("dotenv") ?? "");
              const r = await paste.exec({ applicationId: app.id, dotenv });
              if (r.data) {
                formEl.reset();
                const keys = r.data.setEnvironmentVariables.setKeys;
                setPasteNotice(keys.length ? `Set ${keys.join(", ")}.` : "Nothing changed.");
              }
            }}
          >
            <div className="field">
              <label htmlFor="dotenv-paste">Paste a .env file</label>
              <textarea
                id="dotenv-paste"
                name="dotenv"
                rows={5}
                className="mono"
                placeholder={'KEY=value\nexport OTHER="quoted value"'}
                aria-describedby="dotenv-hint"
              />
              <small id="dotenv-hint" className="hint">
                One KEY=value a line; comments (#) and export are allowed. A refused line sets nothing.
              </small>
            </div>
            <button type="submit" disabled={paste.state.fetching}>
              Set pasted variables
            </button>
          </form>
          {pasteLines.length > 0 ? (
            <div className="message error" role="alert">
              Nothing was set. Refused lines:
              <ul aria-label="Refused lines">
                {pasteLines.map(([line, msgs]) => (
                  <li key={line}>
                    Line {line}: {msgs.join(", ")}
                  </li>
                ))}
              </ul>
            </div>
          ) : (
            <Message kind="error">{paste.error}</Message>
          )}
          {pasteNotice && <Message kind="success">{pasteNotice}</Message>}
        </>
      )}
    </section>
  );
}

/** The "needs deployment" notice: the running version lacks changed settings, variables or domains. */
export function NeedsDeploymentNotice({
  busy,
  mayDeploy,
  onDeploy,
  error,
}: {
  busy: boolean;
  mayDeploy: boolean;
  onDeploy: () => void;
  error: string | null;
}) {
  return (
    <div className="message info row" role="status" data-testid="needs-deployment">
      <span>Needs deployment: settings, variables or domains changed since the last deployment.</span>
      {mayDeploy && (
        <button type="button" className="primary" disabled={busy} onClick={onDeploy}>
          Deploy changes
        </button>
      )}
      {error && <span>{`Error: ${error}`}</span>}
    </div>
  );
}
