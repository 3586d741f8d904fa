/**
 * The project tree's controls for owners and admins (the add forms are in tree-add.tsx): rename an environment, and
 * delete an application or an empty environment behind confirmations that say what the deletion removes (a non-empty
 * environment is not offered for deletion: the box names what to delete first). `onChanged` re-reads the tree after a change. Confirmations and the
 * rename form take focus when they open and give it back when they close (Escape cancels).
 */
import { type ReactNode, useState } from "react";
import { useClearFeedback } from "../../shared/feedback.tsx";
import { ConfirmBox, Field, Message, useFocusInside } from "../../shared/form.tsx";
import { useAction } from "../../shared/use-action.ts";
import { useConfirm } from "../../shared/use-confirm.ts";
import { count, listed } from "../../shared/words.ts";
import { DELETE_APPLICATION, DELETE_ENVIRONMENT, RENAME_ENVIRONMENT } from "./operations.ts";

/**
 * A button that opens a confirmation; `run` performs the deletion and resolves to whether it succeeded (the box then
 * stays, disabled, until the re-read tree drops the deleted item; focus then lands on what held it). `blocked`: the
 * deletion would be refused; the box only says why (`children`), without a confirm button.
 */
export function DeleteButton({
  label,
  what,
  busy,
  error,
  run,
  reset,
  blocked = false,
  children,
}: {
  label: string;
  what: string;
  busy: boolean;
  error: string | null;
  run: () => Promise<boolean>;
  reset: () => void;
  blocked?: boolean;
  children: ReactNode;
}) {
  const confirm = useConfirm(reset);
  return (
    <>
      {confirm.open ? (
        <ConfirmBox
          label={blocked ? `Cannot delete ${what} yet` : `Confirm deleting ${what}`}
          confirmText={blocked ? null : `Confirm: delete ${what}`}
          cancelText={blocked ? "Close" : "Cancel"}
          busy={busy}
          done={confirm.done}
          onCancel={confirm.cancel}
          onConfirm={async () => {
            if (await run()) confirm.succeed();
          }}
        >
          {children}
        </ConfirmBox>
      ) : (
        <button type="button" aria-label={label} onClick={confirm.start}>
          Delete
        </button>
      )}
      <Message kind="error">{error}</Message>
    </>
  );
}

/** Delete for application `app`, naming what goes with it. */
export function DeleteApplication({
  app,
  onChanged,
}: {
  app: { id: string; name: string; domains: { host: string }[] };
  onChanged: () => void;
}) {
  const del = useAction(DELETE_APPLICATION, onChanged);
  const hosts = app.domains.map((d) => d.host).join(", ");
  return (
    <DeleteButton
      label={`Delete application ${app.name}`}
      what={app.name}
      busy={del.state.fetching}
      error={del.error}
      reset={del.reset}
      run={async () => !(await del.exec({ id: app.id })).error}
    >
      Deletes the application {app.name} with its variables, its deployments and their logs
      {hosts ? `, and its domains (${hosts}), which stop being routed` : ""}; its running containers are removed. This
      cannot be undone.
    </DeleteButton>
  );
}

/**
 * Delete for environment `env`. The API refuses it while it holds applications or databases: then the box names
 * them and offers no confirmation.
 */
export function DeleteEnvironment({
  env,
  onChanged,
}: {
  env: { id: string; name: string; applications: { name: string }[]; databases: { name: string }[] };
  onChanged: () => void;
}) {
  const del = useAction(DELETE_ENVIRONMENT, onChanged);
  const apps = env.applications.map((a) => a.name);
  const dbs = env.databases.map((d) => d.name);
  const held = [
    ...(apps.length ? [`${count(apps.length, "application")} (${listed(apps)})`] : []),
    ...(dbs.length ? [`${count(dbs.length, "database")} (${listed(dbs)})`] : []),
  ];
  return (
    <DeleteButton
      label={`Delete environment ${env.name}`}
      what={`environment ${env.name}`}
      busy={del.state.fetching}
      error={del.error}
      reset={del.reset}
      blocked={held.length > 0}
      run={async () => !(await del.exec({ id: env.id })).error}
    >
      {held.length === 0
        ? `Deletes the empty environment ${env.name}. A project's last environment cannot be deleted.`
        : `The environment ${env.name} still holds ${listed(held)}: delete ${apps.length + dbs.length === 1 ? "it" : "them"} first, then the environment can be deleted (a deletion never removes more than it names).`}
    </DeleteButton>
  );
}

/** Rename for environment `env`: a button opening a one-field form (same name rules as creating one). */
export function RenameEnvironment({ env, onChanged }: { env: { id: string; name: string }; onChanged: () => void }) {
  const [open, setOpen] = useState(false);
  const clear = useClearFeedback();
  if (!open)
    return (
      <button
        type="button"
        aria-label={`Rename environment ${env.name}`}
        data-opener={`rename-${env.id}`}
        onClick={() => {
          clear();
          setOpen(true);
        }}
      >
        Rename
      </button>
    );
  return <RenameForm env={env} onChanged={onChanged} close={() => setOpen(false)} />;
}

/** The open rename form of {@link RenameEnvironment} (its field takes focus; Escape cancels). */
function RenameForm({
  env,
  onChanged,
  close,
}: {
  env: { id: string; name: string };
  onChanged: () => void;
  close: () => void;
}) {
  const rename = useAction(RENAME_ENVIRONMENT, onChanged, ["name"]);
  const clear = useClearFeedback();
  const cancel = () => {
    clear();
    close();
  };
  const focus = useFocusInside<HTMLFormElement>(cancel);
  return (
    <form
      className="row"
      aria-label={`Rename environment ${env.name}`}
      ref={focus.ref}
      onKeyDown={focus.onKeyDown}
      onChange={clear}
      onSubmit={async (e) => {
        e.preventDefault();
        const name = String(new FormData(e.currentTarget).get("name") ?? "").trim();
        if (!(await rename.exec({ id: env.id, name })).error) close();
      }}
    >
      <Field
        label="New name"
        name="name"
        required
        maxLength={63}
        defaultValue={env.name}
        error={rename.fields.name?.join(", ")}
      />
      <button type="submit" disabled={rename.state.fetching}>
        Save name
      </button>
      <button type="button" onClick={cancel}>
        Cancel
      </button>
      <Message kind="error">{rename.error}</Message>
    </form>
  );
}
