/**
 * The application page's management part: the "needs deployment" notice (with a Deploy button for those who may
 * deploy) and the Settings, Variables and Domains sections, read with `ApplicationManage`. A mutation returning
 * the application refreshes this read through urql's document cache; a deployment queued or finished on the page
 * (`reread` changes) re-reads it, so "needs deployment" follows.
 */
import { useEffect } from "react";
import { useQuery } from "urql";
import { describeError } from "../../shared/errors.ts";
import { Message } from "../../shared/form.tsx";
import { AppSettingsSection } from "./app-settings-section.tsx";
import { DomainsSection } from "./domains-section.tsx";
import { APPLICATION_MANAGE } from "./manage-operations.ts";
import { NeedsDeploymentNotice, VariablesSection } from "./variables-section.tsx";

/** Roles that manage an application's settings, variables and domains (spec role table: owners and admins). */
export function canManageApplication(role: string | null | undefined): boolean {
  return role === "owner" || role === "admin";
}

/**
 * The management part `part` of application `id`: the "needs deployment" notice (shown above the deployments) or
 * the Settings, Variables and Domains sections (below them); both read the same cached query. `deploy` queues a
 * deployment (the page's Deploy action) and resolves once answered; `deploying` and `deployError` are its state.
 * `reread`: a number the page changes when a deployment was queued or changed status (the application's
 * `needsDeployment` may have changed with it).
 */
export function ApplicationManagement({
  part,
  id,
  role,
  mayDeploy,
  deploy,
  deploying,
  deployError,
  reread,
}: {
  part: "notice" | "sections";
  id: string;
  role: string | null | undefined;
  mayDeploy: boolean;
  deploy: () => Promise<unknown>;
  deploying: boolean;
  deployError: string | null;
  reread: number;
}) {
  const [result, reexecute] = useQuery({ query: APPLICATION_MANAGE, variables: { id } });
  useEffect(() => {
    if (reread > 0) reexecute({ requestPolicy: "network-only" });
  }, [reread, reexecute]);
  const app = result.data?.application;
  if (!app) return part === "sections" ? <Message kind="error">{describeError(result.error)}</Message> : null;
  const manage = canManageApplication(role);
  if (part === "notice")
    return (
      app.needsDeployment && (
        <NeedsDeploymentNotice
          busy={deploying}
          mayDeploy={mayDeploy}
          error={deployError}
          onDeploy={async () => {
            await deploy();
            reexecute({ requestPolicy: "network-only" });
          }}
        />
      )
    );
  return (
    <>
      <AppSettingsSection key={app.id} app={app} manage={manage} />
      <VariablesSection app={app} manage={manage} />
      <DomainsSection app={app} manage={manage} />
    </>
  );
}
