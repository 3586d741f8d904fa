/**
 * The project tree's add forms for owners and admins: add an environment to a project, add an application (a Docker
 * image and its port) to an environment. A refused field is said under it; what was created is said.
 */
import { useClearFeedback, useNotice } from "../../shared/feedback.tsx";
import { Field, Message } from "../../shared/form.tsx";
import { useAction } from "../../shared/use-action.ts";
import { CREATE_APPLICATION, CREATE_ENVIRONMENT } from "./operations.ts";

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
  const create = useAction(CREATE_ENVIRONMENT, onChanged, ["name"]);
  const [notice, setNotice] = useNotice();
  const clear = useClearFeedback();
  return (
    <form
      className="row"
      aria-label={`Add an environment to ${projectName}`}
      onChange={clear}
      onSubmit={async (e) => {
        e.preventDefault();
        const formEl = e.currentTarget;
        const name = String(new FormData(formEl).get("name") ?? "").trim();
        const r = await create.exec({ projectId, name });
        if (r.data) {
          formEl.reset();
          setNotice(`Environment ${r.data.createEnvironment.name} added to ${projectName}.`);
        }
      }}
    >
      <Field
        label="Environment name"
        name="name"
        required
        maxLength={63}
        placeholder="staging"
        error={create.fields.name?.join(", ")}
      />
      <button type="submit" disabled={create.state.fetching}>
        Add environment
      </button>
      <Message kind="error">{create.error}</Message>
      {notice && <Message kind="success">{notice}</Message>}
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
  const create = useAction(CREATE_APPLICATION, onChanged, ["name", "source.dockerImage", "port"]);
  const [notice, setNotice] = useNotice();
  const clear = useClearFeedback();
  return (
    <form
      className="row"
      aria-label={`Add an application to ${envName}`}
      onChange={clear}
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
        if (r.data) {
          formEl.reset();
          setNotice(`Application ${r.data.createApplication.name} added to ${envName}.`);
        }
      }}
    >
      <Field label="Application name" name="name" required maxLength={100} error={create.fields.name?.join(", ")} />
      <Field
        label="Docker image"
        name="image"
        required
        placeholder="nginx:1.27"
        className="mono"
        error={create.fields["source.dockerImage"]?.join(", ")}
      />
      <Field
        label="Port"
        name="port"
        type="number"
        min={1}
        max={65535}
        placeholder="80"
        error={create.fields.port?.join(", ")}
      />
      <button type="submit" disabled={create.state.fetching}>
        Add application
      </button>
      <Message kind="error">{create.error}</Message>
      {notice && <Message kind="success">{notice}</Message>}
    </form>
  );
}
