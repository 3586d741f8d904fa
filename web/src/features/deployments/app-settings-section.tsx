/**
 * The application page's **Settings** section: name, branch, build path, build type (git sources), image (docker),
 * port and health path, saved with one `updateApplication` carrying only the changed fields. A refused field's
 * message (`BAD_USER_INPUT` `fieldErrors`) is shown under that field. Owners and admins change the source type
 * (and repository or image) with the "Change source" form (source-change.tsx). Members see the values without
 * controls.
 */
import { useId, useState } from "react";
import type { UpdateApplicationInput } from "../../gql/graphql.ts";
import { useClearFeedback, useNotice } from "../../shared/feedback.tsx";
import { Field, FieldError, Message } from "../../shared/form.tsx";
import { useAction } from "../../shared/use-action.ts";
import { type ApplicationManageFields, UPDATE_APPLICATION } from "./manage-operations.ts";
import { SourceChange } from "./source-change.tsx";

/** The form's values as strings, from the application as read. */
function valuesOf(
  app: ApplicationManageFields,
): Record<"name" | "branch" | "buildPath" | "buildType" | "dockerImage" | "port" | "healthPath", string> {
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
type Key = keyof Values;

/** The fields the form shows (and may send) for a source type: never another source type's. */
function fieldsFor(sourceType: string | null | undefined): Key[] {
  return sourceType === "docker"
    ? ["name", "dockerImage", "port", "healthPath"]
    : ["name", "branch", "buildPath", "buildType", "port", "healthPath"];
}

/**
 * What the form holds: `base`, the application's values it started from (re-based when the application changes),
 * `values` as shown, and `edited`, the fields the person changed since.
 */
interface FormState {
  sourceType: string | null | undefined;
  base: Values;
  values: Values;
  edited: Key[];
}

function fresh(app: ApplicationManageFields): FormState {
  const values = valuesOf(app);
  return { sourceType: app.sourceType, base: values, values, edited: [] };
}

/**
 * The form after the application changed (saved here, Change source, another tab, a re-read): the fields the person
 * did not edit show the new values; edited ones keep the person's text. A new source type starts over.
 */
function rebase(state: FormState, app: ApplicationManageFields): FormState {
  if (state.sourceType !== app.sourceType) return fresh(app);
  const base = valuesOf(app);
  const values = { ...base };
  for (const k of state.edited) values[k] = state.values[k];
  return { sourceType: app.sourceType, base, values, edited: state.edited.filter((k) => values[k] !== base[k]) };
}

/** The fields the person edited whose value differs from the one the form started from, as `UpdateApplicationInput`. */
function changes(state: FormState): UpdateApplicationInput {
  const input: UpdateApplicationInput = {};
  const { base, values } = state;
  const changed = (k: Key) =>
    state.edited.includes(k) && fieldsFor(state.sourceType).includes(k) && values[k].trim() !== base[k].trim();
  if (changed("name")) input.name = values.name.trim();
  if (changed("branch")) input.branch = values.branch.trim();
  if (changed("buildPath")) input.buildPath = values.buildPath.trim();
  if (changed("buildType")) input.buildType = values.buildType as UpdateApplicationInput["buildType"];
  if (changed("dockerImage")) input.dockerImage = values.dockerImage.trim();
  if (changed("port")) input.port = Number(values.port);
  if (changed("healthPath")) input.healthPath = values.healthPath.trim();
  return input;
}

/** Where the application's code comes from: the image, the repository or the clone URL (empty when unknown). */
export function sourceText(app: {
  sourceType?: string | null;
  source: { repo?: string | null; dockerImage?: string | null; customGitUrl?: string | null };
}): string {
  if (app.sourceType === "docker") return app.source.dockerImage ?? "";
  if (app.sourceType === "git") return app.source.customGitUrl || app.source.repo || "";
  return app.source.repo || app.source.customGitUrl || app.source.dockerImage || "";
}

/** The Settings section of `app`; `manage`: the viewer may change them (owners, admins). */
export function AppSettingsSection({ app, manage }: { app: ApplicationManageFields; manage: boolean }) {
  const [form, setForm] = useState(() => fresh(app));
  // The application as last seen: when a read or a mutation changes it, the form follows (before painting).
  const seen = JSON.stringify([app.sourceType, valuesOf(app)]);
  const [seenKey, setSeenKey] = useState(seen);
  if (seenKey !== seen) {
    setSeenKey(seen);
    setForm((f) => rebase(f, app));
  }
  const [notice, setNotice] = useNotice();
  const shownFields = fieldsFor(app.sourceType);
  const update = useAction(UPDATE_APPLICATION, undefined, shownFields);
  const clear = useClearFeedback();
  const buildTypeId = useId();
  const docker = app.sourceType === "docker";
  const values = form.values;
  const set = (k: Key) => (e: { target: { value: string } }) => {
    const value = e.target.value;
    setForm((f) => ({
      ...f,
      values: { ...f.values, [k]: value },
      edited: f.edited.includes(k) ? f.edited : [...f.edited, k],
    }));
  };
  const errorOf = (k: string) => (update.fields[k] ? `Refused: ${update.fields[k].join(", ")}` : undefined);
  const common = { readOnly: !manage };
  return (
    <section className="card" aria-labelledby="app-settings-title">
      <h2 id="app-settings-title">Settings</h2>
      <p className="muted">
        Source: {app.sourceType ?? "unknown"} {sourceText(app) ? <code>{sourceText(app)}</code> : null}
      </p>
      <form
        aria-label="Application settings"
        onChange={clear}
        onSubmit={async (e) => {
          e.preventDefault();
          setNotice(null);
          const input = changes(form);
          if (Object.keys(input).length === 0) {
            setNotice("Nothing changed.");
            return;
          }
          const r = await update.exec({ id: app.id, input });
          if (r.data) {
            setForm(fresh(r.data.updateApplication));
            setNotice("Settings saved. They apply with the next deployment.");
          }
        }}
      >
        <Field
          label="Name"
          value={values.name}
          onChange={set("name")}
          maxLength={100}
          error={errorOf("name")}
          {...common}
        />
        {docker ? (
          <Field
            label="Image"
            value={values.dockerImage}
            onChange={set("dockerImage")}
            className="mono"
            error={errorOf("dockerImage")}
            {...common}
          />
        ) : (
          <>
            <Field
              label="Branch"
              value={values.branch}
              onChange={set("branch")}
              className="mono"
              error={errorOf("branch")}
              {...common}
            />
            <Field
              label="Build path"
              value={values.buildPath}
              onChange={set("buildPath")}
              className="mono"
              error={errorOf("buildPath")}
              hint="An absolute path inside the repository, e.g. /"
              {...common}
            />
            <div className="field">
              <label htmlFor={buildTypeId}>Build type</label>
              <select
                id={buildTypeId}
                value={values.buildType}
                onChange={set("buildType")}
                disabled={!manage}
                aria-invalid={errorOf("buildType") ? true : undefined}
                aria-describedby={errorOf("buildType") ? `${buildTypeId}-error` : undefined}
              >
                <option value="dockerfile">Dockerfile</option>
                <option value="nixpacks">Nixpacks</option>
              </select>
              {errorOf("buildType") && <FieldError id={`${buildTypeId}-error`}>{errorOf("buildType")}</FieldError>}
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
          error={errorOf("port")}
          hint="Container port traffic is routed to, 1 to 65535"
          {...common}
        />
        <Field
          label="Health path"
          value={values.healthPath}
          onChange={set("healthPath")}
          className="mono"
          error={errorOf("healthPath")}
          hint="Path the health probe requests, e.g. /healthz"
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
