/**
 * Settings of the active organization: account API keys (secret shown once), the agent token (shown once),
 * the team — members, roles, grants and invitations — and webhooks. Owners and admins manage the team; members see
 * it. Webhooks are shown to owners and admins only.
 */
import { useQuery } from "urql";
import { CreateOrganization } from "../../shared/create-organization.tsx";
import { describeError } from "../../shared/errors.ts";
import { FeedbackScope } from "../../shared/feedback.tsx";
import { Message } from "../../shared/form.tsx";
import { useViewer } from "../../shared/layout.tsx";
import { Link } from "../../shared/router.tsx";
import { WebhooksSection } from "../webhooks/webhooks-section.tsx";
import { AgentToken, ApiKeys } from "./api-keys.tsx";
import { SETTINGS } from "./operations.ts";
import { Team } from "./team.tsx";

/** The settings page. */
export function SettingsPage() {
  const { viewer } = useViewer();
  const orgId = viewer?.viewer.activeOrganization?.id;
  const [result, reexecute] = useQuery({ query: SETTINGS, variables: { id: orgId ?? "" }, pause: !orgId });
  const reload = () => reexecute({ requestPolicy: "network-only" });
  if (viewer && !orgId) return <CreateOrganization />;
  const org = result.data?.organization;
  return (
    <>
      <h1>Settings{org ? ` · ${org.name}` : ""}</h1>
      <p>
        <Link href="/settings/deploy">Deploy settings</Link>: deploy URLs, push webhook secrets and filters of the
        applications.
      </p>
      <Message kind="error">{describeError(result.error)}</Message>
      {org ? (
        <FeedbackScope>
          <ApiKeys org={org} reload={reload} />
          <AgentToken token={result.data?.agentToken ?? null} reload={reload} />
          <Team org={org} reload={reload} />
          {(org.viewerRole === "owner" || org.viewerRole === "admin") && <WebhooksSection organizationId={org.id} />}
        </FeedbackScope>
      ) : (
        <p aria-live="polite">Loading…</p>
      )}
    </>
  );
}
