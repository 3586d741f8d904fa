/**
 * An environment's **Databases** in the project tree: each database (engine, name, user, internal host) and, for
 * owners and admins, Add (`createDatabase`: engine, name, user, the applications of the environment that get its
 * automatic variables; the password is generated and shown once), Rotate password (a new generated password, shown
 * once; the applications' derived variables follow) and Delete behind a confirmation that says what goes. One
 * generated password shows at a time in the tree: a newer one (created or rotated) replaces the box of the older.
 */
import { createContext, type ReactNode, useContext, useId, useState } from "react";
import { useClearFeedback } from "../../shared/feedback.tsx";
import { Field, Message, SecretOnce } from "../../shared/form.tsx";
import { useAction } from "../../shared/use-action.ts";
import { CREATE_DATABASE, DELETE_DATABASE, type ProjectTreeQuery, ROTATE_DATABASE_PASSWORD } from "./operations.ts";
import { DeleteButton } from "./tree-actions.tsx";

type EnvNode = ProjectTreeQuery["projects"]["edges"][number]["node"]["environments"][number];
type DatabaseNode = EnvNode["databases"][number];

/** The password shown once: where (`add:<environment id>` or the database's id), and what to say with it. */
interface ShownPassword {
  at: string;
  name: string;
  value: string;
  followed?: string[];
}
const PasswordContext = createContext<[ShownPassword | null, (p: ShownPassword | null) => void]>([null, () => {}]);

/** Holds the tree's one shown password (put around the tree). */
export function DatabasePasswords({ children }: { children: ReactNode }) {
  const slot = useState<ShownPassword | null>(null);
  return <PasswordContext.Provider value={slot}>{children}</PasswordContext.Provider>;
}

/** The variables an application using a database of `type` gets (spec: "Automatic environment variables"). */
function automaticVariables(type: string): string {
  const extra = { postgres: "DATABASE_URL", mongodb: "MONGO_URL" }[type] ?? "DB_PORT, DB_CONNECTION";
  return `DB_HOST, DB_DATABASE, DB_USERNAME, DB_PASSWORD, ${extra}`;
}

/** One database's row: what it is, Rotate password (new password shown once) and Delete. */
function DatabaseItem({ db, manage, onChanged }: { db: DatabaseNode; manage: boolean; onChanged: () => void }) {
  const rotate = useAction(ROTATE_DATABASE_PASSWORD);
  const del = useAction(DELETE_DATABASE, onChanged);
  const [password, setPassword] = useContext(PasswordContext);
  const clear = useClearFeedback();
  const mine = password?.at === db.id ? password : null;
  return (
    <li data-database-id={db.id}>
      <strong data-landing>{db.name}</strong> ({db.type}) · user <code>{db.user}</code> · host{" "}
      <code>{db.serviceHost}</code>
      {manage && (
        <div className="row">
          <button
            type="button"
            aria-label={`Rotate the password of database ${db.name}`}
            disabled={rotate.state.fetching}
            onClick={async () => {
              clear();
              setPassword(null);
              const r = await rotate.exec({ id: db.id });
              const change = r.data?.rotateDatabasePassword;
              if (change?.generatedPassword) {
                setPassword({
                  at: db.id,
                  name: db.name,
                  value: change.generatedPassword,
                  followed: change.applications.map((a) => a.name),
                });
              }
            }}
          >
            Rotate password
          </button>
          <DeleteButton
            label={`Delete database ${db.name}`}
            what={`database ${db.name}`}
            busy={del.state.fetching}
            error={del.error}
            reset={del.reset}
            run={async () => {
              const ok = !(await del.exec({ id: db.id })).error;
              if (ok && mine) setPassword(null);
              return ok;
            }}
          >
            Deletes the {db.type} database {db.name} and all its data, and removes its automatic variables (
            {automaticVariables(db.type)}) from the applications that still hold them; those need a deployment. This
            cannot be undone.
          </DeleteButton>
        </div>
      )}
      <Message kind="error">{rotate.error}</Message>
      {mine && (
        <>
          <SecretOnce label={`New password of ${db.name}`} secret={mine.value} />
          <Message kind="success">
            {mine.followed?.length
              ? `Password rotated; the variables of ${mine.followed.join(", ")} follow with their next deployment.`
              : "Password rotated; no application holds its variables."}
          </Message>
        </>
      )}
    </li>
  );
}

/** The "add a database" form of environment `env`: engine, name, user, and which applications get its variables. */
function AddDatabase({ env, onChanged }: { env: EnvNode; onChanged: () => void }) {
  const create = useAction(CREATE_DATABASE, onChanged, [
    "name",
    "user",
    ...(env.applications.length ? ["applicationIds"] : []),
  ]);
  const [password, setPassword] = useContext(PasswordContext);
  const clear = useClearFeedback();
  const typeId = useId();
  const at = `add:${env.id}`;
  const created = password?.at === at ? password : null;
  return (
    <form
      className="row"
      aria-label={`Add a database to ${env.name}`}
      onChange={clear}
      onSubmit={async (e) => {
        e.preventDefault();
        setPassword(null);
        const formEl = e.currentTarget;
        const data = new FormData(formEl);
        const name = String(data.get("name") ?? "").trim();
        const r = await create.exec({
          input: {
            environmentId: env.id,
            type: String(data.get("type")) as "postgres",
            name,
            user: String(data.get("user") ?? "").trim(),
            applicationIds: data.getAll("applicationIds").map(String),
          },
        });
        const generated = r.data?.createDatabase.generatedPassword;
        if (generated) {
          formEl.reset();
          setPassword({ at, name, value: generated });
        }
      }}
    >
      <div className="field">
        <label htmlFor={typeId}>Engine</label>
        <select id={typeId} name="type" defaultValue="postgres">
          <option value="postgres">PostgreSQL</option>
          <option value="mysql">MySQL</option>
          <option value="mariadb">MariaDB</option>
          <option value="mongodb">MongoDB</option>
        </select>
      </div>
      <Field label="Database name" name="name" required maxLength={63} error={create.fields.name?.join(", ")} />
      <Field label="Database user" name="user" required maxLength={63} error={create.fields.user?.join(", ")} />
      {env.applications.length > 0 && (
        <fieldset>
          <legend>Applications that get its variables</legend>
          {env.applications.map((app) => (
            <label key={app.id} className="check">
              <input type="checkbox" name="applicationIds" value={app.id} /> {app.name}
            </label>
          ))}
          {create.fields.applicationIds && (
            <small className="hint field-error" role="alert">
              {create.fields.applicationIds.join(", ")}
            </small>
          )}
        </fieldset>
      )}
      <button type="submit" disabled={create.state.fetching}>
        Add database
      </button>
      <Message kind="error">{create.error}</Message>
      {created && <SecretOnce label={`Password of ${created.name}`} secret={created.value} />}
    </form>
  );
}

/** The databases of environment `env`; `manage`: the viewer may change them (owners, admins). */
export function EnvironmentDatabases({
  env,
  manage,
  onChanged,
}: {
  env: EnvNode;
  manage: boolean;
  onChanged: () => void;
}) {
  return (
    <div data-databases-of={env.id}>
      {env.databases.length > 0 ? (
        <ul aria-label={`Databases of ${env.name}`}>
          {env.databases.map((db) => (
            <DatabaseItem key={db.id} db={db} manage={manage} onChanged={onChanged} />
          ))}
        </ul>
      ) : (
        <p className="muted">No databases.</p>
      )}
      {manage && <AddDatabase env={env} onChanged={onChanged} />}
    </div>
  );
}
