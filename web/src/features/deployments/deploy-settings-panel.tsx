/**
 * One application's deploy settings (spec "Deploy trigger"): the deploy URL with a
 * copy button and regeneration behind a confirmation (the old URL answers 404 at once), the push webhook secret
 * (shown once when created or regenerated), and the push filters — auto-deploy, branch filter, watch paths (a list
 * editor; `!` excludes) and require-signature. Owners and admins (`canManage`) get the controls; members read the
 * filters only (the server hides the URL from them and refuses the mutations).
 */

import { useQuery } from "urql";
import { describeError } from "../../shared/errors.ts";
import { Message } from "../../shared/form.tsx";
import { Link } from "../../shared/router.tsx";
import { DeployUrl, WebhookSecret } from "./deploy-url.tsx";
import { APPLICATION_DEPLOY_SETTINGS } from "./operations.ts";
import { FiltersForm, FiltersView } from "./push-filters.tsx";

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
