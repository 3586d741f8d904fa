/** The deploy URL (copy; regenerate after confirming) and the push webhook secret (created or regenerated, shown once). */

import { useId, useState } from "react";
import { ConfirmBox, CopyButton, Message, SecretOnce } from "../../shared/form.tsx";
import { useAction } from "../../shared/use-action.ts";
import { REGENERATE_DEPLOY_TOKEN, REGENERATE_DEPLOY_WEBHOOK_SECRET } from "./operations.ts";

/** The deploy URL: shown with a copy button; owners and admins regenerate it after confirming. */
export function DeployUrl({
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
export function WebhookSecret({
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
