/**
 * The application page's **Settings** section: name, branch, build path, build type (git sources), image (docker),
 * port and health path, saved with one `updateApplication` carrying only the changed fields. A refused field's
 * message (`BAD_USER_INPUT` `fieldErrors`) is shown under that field. Owners and admins change the source type
 * (and repository or image) with the "Change source" form (source-change.tsx). Members see the values without
 * controls.
 */
import { useId, useState } from "react";
import type { UpdateApplicationInput } from "../../gql/graphql.ts";
import { fieldErrorsOf } from "../../shared/errors.ts";
import { Field, Message } from "../../shared/form.tsx";
import { useAction } from "../../shared/use-action.ts";
import { type ApplicationManageFields, UPDATE_APPLICATION } from "./manage-operations.ts";
import { SourceChange } from "./source-change.tsx";

/** The form's values as strings, from the application as read. */
function valuesOf(app: ApplicationManageFields) {
  return {
    name: app.name,
    branch: app.source.branch ?? "",
    buildPath: app.source.buildPath ?? "",
    buildType: app.buildType ?? "dockerfile",
    dockerImage: app.source.dockerImage ?? "",
    port: String(app.port),
    healthPath: app.deploySettings.healthPath ?? "",
  };
}
type Values = ReturnType<typeof valuesOf>;

/** The changed fields of `next` against `before`, as `UpdateApplicationInput`. */
function changes(before: Values, next: Values): UpdateApplicationInput {
  const input: UpdateApplicationInput = {};
  if (next.name !== before.name) input.name = next.name.trim();
  if (next.branch !== before.branch) input.branch = next.branch.trim();
  if (next.buildPath !== before.buildPath) input.buildPath = next.buildPath.trim();
  if (next.buildType !== before.buildType) input.buildType = next.buildType as UpdateApplicationInput["buildType"];
  if (next.dockerImage !== before.dockerImage) input.dockerImage = next.dockerImage.trim();
  if (next.port !== before.port) input.port = Number(next.port);
  if (next.healthPath !== before.healthPath) input.healthPath = next.healthPath.trim();
  return input;
}

/** The Settings section of `app`; `manage`: the viewer may change them (owners, admins). */
export function AppSettingsSection({ app, manage }: { app: ApplicationManageFields; manage: boolean }) {
  const [values, setValues] = useState(() => valuesOf(app));
  const [fields, setFields] = useState<Record<string, string[]>>({});
  const [notice, setNotice] = useState<string | null>(null);
  const update = useAction(UPDATE_APPLICATION);
  const buildTypeId = useId();
  const docker = app.sourceType === "docker";
  const set = (k: keyof Values) => (e: { target: { value: string } }) => setValues({ ...values, [k]: e.target.value });
  const errorOf = (k: string) => (fields[k] ? `Refused: ${fields[k].join(", ")}` : undefined);
  const common = { readOnly: !manage };
  return (
    <section className="card" aria-labelledby="app-settings-title">
      <h2 id="app-settings-title">Settings</h2>
      <p className="muted">
        Source: {app.sourceType ?? "unknown"}{" "}
        {app.source.repo || app.source.customGitUrl ? <code>{app.source.repo ?? app.source.customGitUrl}</code> : null}
      </p>
      <form
        aria-label="Application settings"
        onSubmit={async (e) => {
          e.preventDefault();
          setNotice(null);
          const input = changes(valuesOf(app), values);
          if (Object.keys(input).length === 0) {
            setNotice("Nothing changed.");
            return;
          }
          const r = await update.exec({ id: app.id, input });
          setFields(fieldErrorsOf(r.error));
          if (r.data) {
            setValues(valuesOf(r.data.updateApplication));
            setNotice("Settings saved. They apply with the next deployment.");
          }
        }}
      >
        <Field
          label="Name"
          value={values.name}
          onChange={set("name")}
          maxLength={100}
          hint={errorOf("name")}
          {...common}
        />
        {docker ? (
          <Field
            label="Image"
            value={values.dockerImage}
            onChange={set("dockerImage")}
            className="mono"
            hint={errorOf("dockerImage")}
            {...common}
          />
        ) : (
          <>
            <Field
              label="Branch"
              value={values.branch}
              onChange={set("branch")}
              className="mono"
              hint={errorOf("branch")}
              {...common}
            />
            <Field
              label="Build path"
              value={values.buildPath}
              onChange={set("buildPath")}
              className="mono"
              hint={errorOf("buildPath") ?? "An absolute path inside the repository, e.g. /"}
              {...common}
            />
            <div className="field">
              <label htmlFor={buildTypeId}>Build type</label>
              <select id={buildTypeId} value={values.buildType} onChange={set("buildType")} disabled={!manage}>
                <option value="dockerfile">Dockerfile</option>
                <option value="nixpacks">Nixpacks</option>
              </select>
              {errorOf("buildType") && <small className="hint">{errorOf("buildType")}</small>}
            </div>
          </>
        )}
        <Field
          label="Port"
          type="number"
          min={1}
          max={65535}
          value={values.port}
          onChange={set("port")}
          hint={errorOf("port") ?? "Container port traffic is routed to, 1 to 65535"}
          {...common}
        />
        <Field
          label="Health path"
          value={values.healthPath}
          onChange={set("healthPath")}
          className="mono"
          hint={errorOf("healthPath") ?? "Path the health probe requests, e.g. /healthz"}
          {...common}
        />
        {manage && (
          <button type="submit" className="primary" disabled={update.state.fetching}>
            Save settings
          </button>
        )}
      </form>
      <Message kind="error">{update.error}</Message>
      {notice && <Message kind="success">{notice}</Message>}
      {manage && <SourceChange app={app} />}
    </section>
  );
}
