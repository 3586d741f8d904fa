/** The push filters of an application: a form for owners and admins, read-only for members. */

import { useId, useState } from "react";
import { Field, Message } from "../../shared/form.tsx";
import { useAction } from "../../shared/use-action.ts";
import { type DeploySettingsFields, UPDATE_DEPLOY_SETTINGS } from "./operations.ts";

/** The push filters as a form (owners and admins). */
export function FiltersForm({
  appId,
  defaultBranch,
  settings,
  reload,
}: {
  appId: string;
  defaultBranch: string;
  settings: DeploySettingsFields;
  reload: () => void;
}) {
  const [autoDeploy, setAutoDeploy] = useState(settings.autoDeploy);
  const [branchFilter, setBranchFilter] = useState(settings.branchFilter ?? "");
  const [watchPaths, setWatchPaths] = useState<string[]>(settings.watchPaths);
  const [requireSignature, setRequireSignature] = useState(settings.requireSignature);
  const [healthPath, setHealthPath] = useState(settings.healthPath);
  const [saved, setSaved] = useState(false);
  const update = useAction(UPDATE_DEPLOY_SETTINGS, reload);
  const hintId = useId();
  return (
    <form
      aria-label="Push deploy settings"
      onSubmit={async (e) => {
        e.preventDefault();
        setSaved(false);
        const r = await update.exec({
          applicationId: appId,
          input: {
            autoDeploy,
            branchFilter: branchFilter.trim(),
            watchPaths: watchPaths.map((p) => p.trim()).filter(Boolean),
            requireSignature,
            healthPath: healthPath.trim() || "/",
          },
        });
        if (!r.error) setSaved(true);
      }}
    >
      <label className="check">
        <input type="checkbox" checked={autoDeploy} onChange={(e) => setAutoDeploy(e.target.checked)} /> Auto-deploy:
        deploy when a matching push arrives
      </label>
      <Field
        label="Branch filter"
        value={branchFilter}
        onChange={(e) => setBranchFilter(e.target.value)}
        placeholder={defaultBranch}
        maxLength={200}
        hint={`Exact branch name or glob such as release/*. Empty: the source branch (${defaultBranch}). Tags never deploy.`}
      />
      <fieldset aria-describedby={hintId}>
        <legend>Watch paths</legend>
        <p id={hintId} className="hint">
          A push deploys when at least one changed file matches a path (globs such as <code>src/**</code>). A path
          starting with <code>!</code> excludes: <code>!docs/**</code> ignores changes under docs/. No paths: every
          change deploys.
        </p>
        {watchPaths.length === 0 && <p className="muted">No watch paths: every change deploys.</p>}
        <ul className="plain">
          {watchPaths.map((path, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: rows are positional (labelled by their number)
            <li key={i} className="row">
              <div className="field">
                <label htmlFor={`${hintId}-${i}`}>Watch path {i + 1}</label>
                <input
                  id={`${hintId}-${i}`}
                  value={path}
                  maxLength={200}
                  className="mono"
                  onChange={(e) => setWatchPaths(watchPaths.map((p, j) => (j === i ? e.target.value : p)))}
                />
              </div>
              <button
                type="button"
                aria-label={`Remove watch path ${i + 1}`}
                onClick={() => setWatchPaths(watchPaths.filter((_, j) => j !== i))}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
        <button type="button" disabled={watchPaths.length >= 50} onClick={() => setWatchPaths([...watchPaths, ""])}>
          Add watch path
        </button>
      </fieldset>
      <label className="check">
        <input type="checkbox" checked={requireSignature} onChange={(e) => setRequireSignature(e.target.checked)} />{" "}
        Require a signature: refuse unsigned requests (401), including plain POSTs to the deploy URL
      </label>
      <Field
        label="Health check path"
        value={healthPath}
        onChange={(e) => setHealthPath(e.target.value)}
        placeholder="/"
        maxLength={2048}
        className="mono"
        hint="Requested on the application's domain (GET https://<domain><path>); two failures in a row mark it unhealthy."
      />
      <button type="submit" className="primary" disabled={update.state.fetching}>
        Save deploy settings
      </button>
      <Message kind="error">{update.error}</Message>
      {saved && <Message kind="success">Deploy settings saved.</Message>}
    </form>
  );
}

/** The push filters, read-only (members). */
export function FiltersView({ settings, defaultBranch }: { settings: DeploySettingsFields; defaultBranch: string }) {
  return (
    <dl className="facts" data-testid="deploy-settings-view">
      <dt>Auto-deploy</dt>
      <dd>{settings.autoDeploy ? "On" : "Off"}</dd>
      <dt>Branch filter</dt>
      <dd>{settings.branchFilter ? <code>{settings.branchFilter}</code> : `the source branch (${defaultBranch})`}</dd>
      <dt>Watch paths</dt>
      <dd>
        {settings.watchPaths.length === 0 ? (
          "every change"
        ) : (
          <ul className="plain">
            {settings.watchPaths.map((p) => (
              <li key={p}>
                <code>{p}</code>
                {p.startsWith("!") ? " (excluded)" : ""}
              </li>
            ))}
          </ul>
        )}
      </dd>
      <dt>Require a signature</dt>
      <dd>{settings.requireSignature ? "Yes" : "No"}</dd>
      <dt>Health check path</dt>
      <dd>
        <code>{settings.healthPath}</code>
      </dd>
    </dl>
  );
}
