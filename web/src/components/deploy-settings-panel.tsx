/**
 * One application's deploy settings (issue 12 "Deploy trigger URL", "Auto-deploy on push"): the deploy URL with a
 * copy button and regeneration behind a confirmation (the old URL answers 404 at once), the push webhook secret
 * (shown once when created or regenerated), and the push filters — auto-deploy, branch filter, watch paths (a list
 * editor; `!` excludes) and require-signature. Owners and admins (`canManage`) get the controls; members read the
 * filters only (the server hides the URL from them and refuses the mutations).
 */
import { useId, useState } from "react";
import { useQuery } from "urql";
import {
  APPLICATION_DEPLOY_SETTINGS,
  type DeploySettingsFields,
  REGENERATE_DEPLOY_TOKEN,
  REGENERATE_DEPLOY_WEBHOOK_SECRET,
  UPDATE_DEPLOY_SETTINGS,
} from "../deploy-operations.ts";
import { describeError } from "../errors.ts";
import { Link } from "../router.tsx";
import { useAction } from "../use-action.ts";
import { ConfirmBox, CopyButton, Field, Message, SecretOnce } from "./form.tsx";

/** The deploy URL: shown with a copy button; owners and admins regenerate it after confirming. */
function DeployUrl({
  appId,
  appName,
  url,
  reload,
}: {
  appId: string;
  appName: string;
  url: string;
  reload: () => void;
}) {
  const id = useId();
  const [confirm, setConfirm] = useState(false);
  const [done, setDone] = useState(false);
  const regenerate = useAction(REGENERATE_DEPLOY_TOKEN, reload);
  return (
    <section aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>Deploy URL</h3>
      <p className="muted">
        <code>POST</code> to it (no other credential) to queue a deployment: from CI, or as the repository's push
        webhook. Keep it secret.
      </p>
      <div className="row">
        <div className="field grow">
          <label htmlFor={id}>Deploy URL of {appName}</label>
          <input
            id={id}
            readOnly
            value={url}
            onFocus={(e) => e.currentTarget.select()}
            data-testid="deploy-url"
            className="mono"
          />
        </div>
        <CopyButton key={url} text={url} label="Copy deploy URL" />
        <button
          type="button"
          className="danger"
          onClick={() => {
            setDone(false);
            setConfirm(true);
          }}
        >
          Regenerate deploy URL
        </button>
      </div>
      {confirm && (
        <ConfirmBox
          label="Confirm regenerating the deploy URL"
          confirmText="Confirm: regenerate"
          busy={regenerate.state.fetching}
          onCancel={() => setConfirm(false)}
          onConfirm={async () => {
            const r = await regenerate.exec({ applicationId: appId });
            if (!r.error) {
              setConfirm(false);
              setDone(true);
            }
          }}
        >
          A new URL replaces this one, and the current URL stops working at once (404): update every caller (CI, the
          repository's webhook).
        </ConfirmBox>
      )}
      <Message kind="error">{regenerate.error}</Message>
      {done && <Message kind="success">New deploy URL created. The previous URL no longer works.</Message>}
    </section>
  );
}

/** The push webhook secret: whether one is set; owners and admins create or regenerate it (shown once). */
function WebhookSecret({
  appId,
  appName,
  hasSecret,
  canManage,
  reload,
}: {
  appId: string;
  appName: string;
  hasSecret: boolean;
  canManage: boolean;
  reload: () => void;
}) {
  const [secret, setSecret] = useState<string | null>(null);
  const [confirm, setConfirm] = useState(false);
  const regenerate = useAction(REGENERATE_DEPLOY_WEBHOOK_SECRET, reload);
  const run = async () => {
    const r = await regenerate.exec({ applicationId: appId });
    if (r.data) {
      setSecret(r.data.regenerateDeployWebhookSecret);
      setConfirm(false);
    }
  };
  return (
    <section aria-labelledby={`secret-${appId}`}>
      <h3 id={`secret-${appId}`}>Push webhook secret</h3>
      <p className="muted">
        GitHub: Settings → Webhooks, payload URL = the deploy URL, content type <code>application/json</code>, this
        secret, "Just the push event" (checked as <code>X-Hub-Signature-256</code>). GitLab: the deploy URL with this
        secret as the Secret token, "Push events".
      </p>
      <p data-testid="secret-state">
        {hasSecret
          ? "A secret is set (it is never shown again)."
          : "No secret is set: signed push requests are refused until one is."}
      </p>
      {canManage && (
        <div className="row">
          <button
            type="button"
            onClick={() => {
              setSecret(null);
              if (hasSecret) setConfirm(true);
              else void run();
            }}
          >
            {hasSecret ? "Regenerate webhook secret" : "Create webhook secret"}
          </button>
        </div>
      )}
      {confirm && (
        <ConfirmBox
          label="Confirm regenerating the webhook secret"
          confirmText="Confirm: regenerate secret"
          busy={regenerate.state.fetching}
          onCancel={() => setConfirm(false)}
          onConfirm={run}
        >
          The current secret stops verifying at once: paste the new one into the repository's webhook.
        </ConfirmBox>
      )}
      <Message kind="error">{regenerate.error}</Message>
      {secret && <SecretOnce label={`Push webhook secret of ${appName}`} secret={secret} />}
    </section>
  );
}

/** The push filters as a form (owners and admins). */
function FiltersForm({
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
function FiltersView({ settings, defaultBranch }: { settings: DeploySettingsFields; defaultBranch: string }) {
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

/** The deploy settings of application `applicationId`; `canManage` for owners and admins. */
export function DeploySettingsPanel({ applicationId, canManage }: { applicationId: string; canManage: boolean }) {
  const [result, reexecute] = useQuery({ query: APPLICATION_DEPLOY_SETTINGS, variables: { id: applicationId } });
  const reload = () => reexecute({ requestPolicy: "network-only" });
  const app = result.data?.application;
  if (result.error) return <Message kind="error">{describeError(result.error)}</Message>;
  if (!app) return <p aria-live="polite">{result.fetching ? "Loading…" : "Application not found."}</p>;
  const settings = app.deploySettings;
  const defaultBranch = app.source.branch ?? "main";
  return (
    <section className="card" aria-labelledby="deploy-app-title" data-testid="deploy-settings">
      <h2 id="deploy-app-title">
        {app.name} <span className="muted">· {app.appName}</span>
      </h2>
      <p className="muted">
        {app.project.name} / {app.environment.name} · <Link href={`/apps/${app.id}`}>Deployments of {app.name}</Link>
      </p>
      {app.deployWebhookUrl ? (
        <DeployUrl appId={app.id} appName={app.name} url={app.deployWebhookUrl} reload={reload} />
      ) : (
        <Message kind="info">Only owners and admins see the deploy URL.</Message>
      )}
      <WebhookSecret
        appId={app.id}
        appName={app.name}
        hasSecret={settings.hasWebhookSecret}
        canManage={canManage}
        reload={reload}
      />
      <section aria-labelledby={`filters-${app.id}`}>
        <h3 id={`filters-${app.id}`}>Deploy on push</h3>
        {canManage ? (
          <FiltersForm key={app.id} appId={app.id} defaultBranch={defaultBranch} settings={settings} reload={reload} />
        ) : (
          <FiltersView settings={settings} defaultBranch={defaultBranch} />
        )}
      </section>
    </section>
  );
}
