/** The team card of the settings page: members with roles and grants, and invitations (managed by owners and admins). */
import { useState } from "react";
import { Field, Message } from "../../shared/form.tsx";
import { useAction } from "../../shared/use-action.ts";
import { date, type Org } from "./common.ts";
import {
  CANCEL_INVITATION,
  GRANT_ACCESS,
  INVITE_MEMBER,
  type MemberRow,
  REMOVE_MEMBER,
  RESEND_INVITATION,
  REVOKE_ACCESS,
  type Role,
  UPDATE_MEMBER_ROLE,
} from "./operations.ts";

function MemberItem({ m, org, manage, reload }: { m: MemberRow; org: Org; manage: boolean; reload: () => void }) {
  const role = useAction(UPDATE_MEMBER_ROLE, reload);
  const remove = useAction(REMOVE_MEMBER, reload);
  const grant = useAction(GRANT_ACCESS, reload);
  const revoke = useAction(REVOKE_ACCESS, reload);
  const [project, setProject] = useState("");
  const editable = manage && m.role !== "owner";
  return (
    <tr>
      <th scope="row">
        {m.user.name} <span className="muted">{m.user.email}</span>
      </th>
      <td>
        {editable ? (
          <select
            aria-label={`Role of ${m.user.email}`}
            value={m.role}
            onChange={(e) => role.exec({ memberId: m.id, role: e.target.value as Role })}
          >
            <option value="admin">admin</option>
            <option value="member">member</option>
          </select>
        ) : (
          m.role
        )}
      </td>
      <td>
        {m.role !== "member" ? (
          <span className="muted">Everything</span>
        ) : m.grants.length === 0 ? (
          <span className="muted">Every project</span>
        ) : (
          <ul className="plain">
            {m.grants.map((g) => (
              <li key={g.id}>
                {g.project ? `Project ${g.project.name}` : `Application ${g.application?.name ?? "(hidden)"}`}{" "}
                {manage && (
                  <button
                    type="button"
                    onClick={() => revoke.exec({ grantId: g.id })}
                    aria-label={`Revoke grant from ${m.user.email}`}
                  >
                    Revoke
                  </button>
                )}
              </li>
            ))}
          </ul>
        )}
        {manage && m.role === "member" && org.projects.edges.length > 0 && (
          <div className="row">
            <select
              aria-label={`Project to grant to ${m.user.email}`}
              value={project}
              onChange={(e) => setProject(e.target.value)}
            >
              <option value="">Limit to project…</option>
              {org.projects.edges.map(({ node }) => (
                <option key={node.id} value={node.id}>
                  {node.name}
                </option>
              ))}
            </select>
            <button
              type="button"
              disabled={!project}
              onClick={() => grant.exec({ input: { memberId: m.id, projectId: project } })}
            >
              Grant
            </button>
          </div>
        )}
        <Message kind="error">{role.error ?? remove.error ?? grant.error ?? revoke.error}</Message>
      </td>
      <td>
        {editable && (
          <button
            type="button"
            className="danger"
            onClick={() => remove.exec({ memberId: m.id })}
            aria-label={`Remove ${m.user.email}`}
          >
            Remove
          </button>
        )}
      </td>
    </tr>
  );
}

/** The team card: members with their roles and grants, and pending invitations; owners and admins manage them. */
export function Team({ org, reload }: { org: Org; reload: () => void }) {
  const manage = org.viewerRole === "owner" || org.viewerRole === "admin";
  const invite = useAction(INVITE_MEMBER, reload);
  const resend = useAction(RESEND_INVITATION, reload);
  const cancel = useAction(CANCEL_INVITATION, reload);
  const [sent, setSent] = useState<string | null>(null);
  return (
    <section className="card" aria-labelledby="team-title">
      <h2 id="team-title">Team</h2>
      <table>
        <caption className="sr-only">Members</caption>
        <thead>
          <tr>
            <th scope="col">Member</th>
            <th scope="col">Role</th>
            <th scope="col">Access</th>
            <th scope="col">{manage ? "Actions" : ""}</th>
          </tr>
        </thead>
        <tbody>
          {org.members.map((m) => (
            <MemberItem key={m.id} m={m} org={org} manage={manage} reload={reload} />
          ))}
        </tbody>
      </table>
      <h3>Invitations</h3>
      {manage && (
        <form
          className="row"
          onSubmit={async (e) => {
            e.preventDefault();
            const formEl = e.currentTarget;
            const form = new FormData(formEl);
            const email = String(form.get("email"));
            const r = await invite.exec({ input: { organizationId: org.id, email, role: form.get("role") as Role } });
            if (!r.error) {
              setSent(email);
              formEl.reset();
            }
          }}
        >
          <Field label="E-mail to invite" name="email" type="email" required />
          <div className="field">
            <label htmlFor="invite-role">Role</label>
            <select id="invite-role" name="role" defaultValue="member">
              <option value="member">member</option>
              <option value="admin">admin</option>
            </select>
          </div>
          <button type="submit" className="primary">
            Send invitation
          </button>
        </form>
      )}
      {sent && <Message kind="success">Invitation sent to {sent}.</Message>}
      <Message kind="error">{invite.error ?? resend.error ?? cancel.error}</Message>
      {org.invitations.length === 0 ? (
        <p className="muted">No invitations.</p>
      ) : (
        <table>
          <caption className="sr-only">Invitations</caption>
          <thead>
            <tr>
              <th scope="col">Address</th>
              <th scope="col">Role</th>
              <th scope="col">Status</th>
              <th scope="col">Expires</th>
              <th scope="col">{manage ? "Actions" : ""}</th>
            </tr>
          </thead>
          <tbody>
            {org.invitations.map((i) => (
              <tr key={i.id}>
                <th scope="row">{i.email}</th>
                <td>{i.role}</td>
                <td>{i.status}</td>
                <td>{date(i.expiresAt)}</td>
                <td>
                  {manage && i.status === "pending" && (
                    <>
                      <button
                        type="button"
                        onClick={() => resend.exec({ id: i.id })}
                        aria-label={`Resend invitation to ${i.email}`}
                      >
                        Resend
                      </button>{" "}
                      <button
                        type="button"
                        className="danger"
                        onClick={() => cancel.exec({ id: i.id })}
                        aria-label={`Cancel invitation to ${i.email}`}
                      >
                        Cancel
                      </button>
                    </>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
