/** The person's organizations with their role; leaving one (`leaveOrganization`), except as its owner. */
import { useState } from "react";
import { ConfirmBox, Message } from "../../shared/form.tsx";
import { useViewer } from "../../shared/layout.tsx";
import { useSession } from "../../shared/session.tsx";
import { useAction } from "../../shared/use-action.ts";
import { LEAVE_ORGANIZATION } from "./operations.ts";

/** The organizations section of the account page. */
export function OrganizationsSection() {
  const { viewer, reexecute } = useViewer();
  const { refresh } = useSession();
  const [leaving, setLeaving] = useState<string | null>(null);
  const [left, setLeft] = useState<string | null>(null);
  const leave = useAction(LEAVE_ORGANIZATION);
  return (
    <section className="card" aria-labelledby="organizations-heading">
      <h2 id="organizations-heading">Organizations</h2>
      {viewer && viewer.organizations.length === 0 && <p>You are not a member of any organization.</p>}
      <ul className="plain">
        {viewer?.organizations.map((o) => (
          <li key={o.id} data-organization-id={o.id}>
            <div className="row">
              <span>
                {o.name} ({o.viewerRole})
              </span>
              {o.viewerRole === "owner" ? (
                <span className="hint">The owner cannot leave: transfer ownership in Settings first.</span>
              ) : (
                <button type="button" onClick={() => setLeaving(o.id)}>
                  Leave {o.name}
                </button>
              )}
            </div>
            {leaving === o.id && (
              <ConfirmBox
                label={`Leave ${o.name}`}
                confirmText="Leave"
                busy={leave.state.fetching}
                onCancel={() => setLeaving(null)}
                onConfirm={async () => {
                  const r = await leave.exec({ organizationId: o.id });
                  if (r.error) return;
                  setLeaving(null);
                  setLeft(o.name);
                  await refresh();
                  reexecute({ requestPolicy: "network-only" });
                }}
              >
                You lose access to {o.name} and your API keys for it stop working. Only an invitation brings you back.
              </ConfirmBox>
            )}
          </li>
        ))}
      </ul>
      <Message kind="error">{leave.error}</Message>
      <Message kind="success">{left && `You left ${left}.`}</Message>
    </section>
  );
}
