/**
 * The project tree's controls for owners and admins: add an environment to a project, add an application (a
 * Docker image and its port) to an environment, rename an environment, and delete an application or an empty
 * environment behind confirmations that say what the deletion removes. `onChanged` re-reads the tree after a change.
 */
import { type ReactNode, useState } from "react";
import { ConfirmBox, Field, Message } from "../../shared/form.tsx";
import { useAction } from "../../shared/use-action.ts";
import {
  CREATE_APPLICATION,
  CREATE_ENVIRONMENT,
  DELETE_APPLICATION,
  DELETE_ENVIRONMENT,
  RENAME_ENVIRONMENT,
} from "./operations.ts";

/** A button that opens a confirmation; `run` performs the deletion and resolves to whether it succeeded. */
export function DeleteButton({
  label,
  what,
  busy,
  error,
  run,
  children,
}: {
  label: string;
  what: string;
  busy: boolean;
  error: string | null;
  run: () => Promise<boolean>;
  children: ReactNode;
}) {
  const [confirming, setConfirming] = useState(false);
  return (
    <>
      {confirming ? (
        <ConfirmBox
          label={`Confirm deleting ${what}`}
          confirmText={`Confirm: delete ${what}`}
          busy={busy}
          onCancel={() => setConfirming(false)}
          onConfirm={async () => {
            if (await run()) setConfirming(false);
          }}
        >
          {children}
        </ConfirmBox>
      ) : (
        <button type="button" aria-label={label} onClick={() => setConfirming(true)}>
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
      run={async () => !(await del.exec({ id: app.id })).error}
    >
      Deletes the application {app.name} with its variables, its deployments and their logs
      {hosts ? `, and its domains (${hosts}), which stop being routed` : ""}; its running containers are removed. This
      cannot be undone.
    </DeleteButton>
  );
}

/** Delete for environment `env` (refused by the API while it holds applications or databases). */
export function DeleteEnvironment({
  env,
  onChanged,
}: {
  env: { id: string; name: string; applications: unknown[]; databases: unknown[] };
  onChanged: () => void;
}) {
  const del = useAction(DELETE_ENVIRONMENT, onChanged);
  const empty = env.applications.length === 0 && env.databases.length === 0;
  return (
    <DeleteButton
      label={`Delete environment ${env.name}`}
      what={`environment ${env.name}`}
      busy={del.state.fetching}
      error={del.error}
      run={async () => !(await del.exec({ id: env.id })).error}
    >
      {empty
        ? `Deletes the empty environment ${env.name}. A project's last environment cannot be deleted.`
        : `The environment ${env.name} still holds ${env.applications.length} applications and ${env.databases.length} databases: delete those first (a deletion never removes more than it names).`}
    </DeleteButton>
  );
}

/** Rename for environment `env`: a button opening a one-field form (same name rules as creating one). */
export function RenameEnvironment({ env, onChanged }: { env: { id: string; name: string }; onChanged: () => void }) {
  const [open, setOpen] = useState(false);
  const rename = useAction(RENAME_ENVIRONMENT, onChanged);
  if (!open)
    return (
      <button type="button" aria-label={`Rename environment ${env.name}`} onClick={() => setOpen(true)}>
        Rename
      </button>
    );
  return (
    <form
      className="row"
      aria-label={`Rename environment ${env.name}`}
      onSubmit={async (e) => {
        e.preventDefault();
        const name = String(new FormData(e.currentTarget).get("name") ?? "").trim();
        if (!(await rename.exec({ id: env.id, name })).error) setOpen(false);
      }}
    >
      <Field label="New name" name="name" required maxLength={63} defaultValue={env.name} />
      <button type="submit" disabled={rename.state.fetching}>
        Save name
      </button>
      <button type="button" onClick={() => setOpen(false)}>
        Cancel
      </button>
      <Message kind="error">{rename.error}</Message>
    </form>
  );
}

/** The "add an environment" form of project `projectId`. */
export function AddEnvironment({
  projectId,
  projectName,
  onChanged,
}: {
  projectId: string;
  projectName: string;
  onChanged: () => void;
}) {
  const create = useAction(CREATE_ENVIRONMENT, onChanged);
  return (
    <form
      className="row"
      aria-label={`Add an environment to ${projectName}`}
      onSubmit={async (e) => {
        e.preventDefault();
        const formEl = e.currentTarget;
        const name = String(new FormData(formEl).get("name") ?? "").trim();
        if (!(await create.exec({ projectId, name })).error) formEl.reset();
      }}
    >
      <Field label="Environment name" name="name" required maxLength={63} placeholder="staging" />
      <button type="submit" disabled={create.state.fetching}>
        Add environment
      </button>
      <Message kind="error">{create.error}</Message>
    </form>
  );
}

/** The "add an application" form of environment `envId` (a Docker image; other sources through the API). */
export function AddApplication({
  envId,
  envName,
  onChanged,
}: {
  envId: string;
  envName: string;
  onChanged: () => void;
}) {
  const create = useAction(CREATE_APPLICATION, onChanged);
  return (
    <form
      className="row"
      aria-label={`Add an application to ${envName}`}
      onSubmit={async (e) => {
        e.preventDefault();
        const formEl = e.currentTarget;
        const data = new FormData(formEl);
        const port = String(data.get("port") ?? "").trim();
        const r = await create.exec({
          input: {
            environmentId: envId,
            name: String(data.get("name") ?? "").trim(),
            source: { type: "docker", dockerImage: String(data.get("image") ?? "").trim() },
            port: port ? Number(port) : null,
          },
        });
        if (!r.error) formEl.reset();
      }}
    >
      <Field label="Application name" name="name" required maxLength={100} />
      <Field label="Docker image" name="image" required placeholder="nginx:1.27" className="mono" />
      <Field label="Port" name="port" type="number" min={1} max={65535} placeholder="80" />
      <button type="submit" disabled={create.state.fetching}>
        Add application
      </button>
      <Message kind="error">{create.error}</Message>
    </form>
  );
}
