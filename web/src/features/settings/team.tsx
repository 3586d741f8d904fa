/**
 * The team card of the settings page: members with roles and grants (managed by owners and admins; grants.tsx), and
 * the invitations (invitations.tsx). A role changes only with its Save button; revoking a grant and removing a member
 * are behind confirmations, and revoking a member's last grant says that the member then sees every project.
 */
import { useState } from "react";
import { useClearFeedback, useNotice } from "../../shared/feedback.tsx";
import { ConfirmBox, Message } from "../../shared/form.tsx";
import { TableScroll } from "../../shared/table-scroll.tsx";
import { useAction } from "../../shared/use-action.ts";
import { useConfirm } from "../../shared/use-confirm.ts";
import type { Org } from "./common.ts";
import { GrantForm, GrantItem } from "./grants.tsx";
import { Invitations } from "./invitations.tsx";
import { type MemberRow, REMOVE_MEMBER, type Role, UPDATE_MEMBER_ROLE } from "./operations.ts";

/** The role of member `m`: a select saved only with its Save button (arrow keys in the select save nothing). */
function RoleEditor({ m, reload }: { m: MemberRow; reload: () => void }) {
  const update = useAction(UPDATE_MEMBER_ROLE, reload);
  const [role, setRole] = useState<Role>(m.role);
  // The role changed (saved here, or elsewhere and re-read): the select shows it.
  const [seen, setSeen] = useState<Role>(m.role);
  if (seen !== m.role) {
    setSeen(m.role);
    setRole(m.role);
  }
  const [notice, setNotice] = useNotice();
  const clear = useClearFeedback();
  const email = m.user.email;
  return (
    <form
      className="row"
      aria-label={`Change the role of ${email}`}
      onSubmit={async (e) => {
        e.preventDefault();
        const r = await update.exec({ memberId: m.id, role });
        if (!r.error) setNotice(`${email} is now ${role}.`);
      }}
    >
      <select
        aria-label={`Role of ${email}`}
        value={role}
        onChange={(e) => {
          clear();
          setRole(e.target.value as Role);
        }}
      >
        <option value="admin">admin</option>
        <option value="member">member</option>
      </select>
      <button type="submit" disabled={role === m.role || update.state.fetching} aria-label={`Save role of ${email}`}>
        Save role
      </button>
      <Message kind="error">{update.error}</Message>
      {notice && <Message kind="success">{notice}</Message>}
    </form>
  );
}

function MemberItem({ m, org, manage, reload }: { m: MemberRow; org: Org; manage: boolean; reload: () => void }) {
  const remove = useAction(REMOVE_MEMBER, reload);
  const removing = useConfirm();
  const editable = manage && m.role !== "owner";
  const email = m.user.email;
  return (
    <tr>
      <th scope="row" data-landing>
        {m.user.name} <span className="muted">{email}</span>
      </th>
      <td>{editable ? <RoleEditor m={m} reload={reload} /> : m.role}</td>
      <td>
        {m.role !== "member" ? (
          <span className="muted">Everything</span>
        ) : m.grants.length === 0 ? (
          <span className="muted">Every project</span>
        ) : (
          <ul className="plain">
            {m.grants.map((g) =>
              manage ? (
                <GrantItem
                  key={g.id}
                  m={m}
                  g={g}
                  last={m.grants.length === 1}
                  reload={reload}
                  removeInstead={removing.start}
                />
              ) : (
                <li key={g.id}>
                  {g.project ? `Project ${g.project.name}` : `Application ${g.application?.name ?? "(hidden)"}`}
                </li>
              ),
            )}
          </ul>
        )}
        {manage && m.role === "member" && org.projects.edges.length > 0 && (
          <GrantForm m={m} org={org} reload={reload} />
        )}
      </td>
      <td>
        {editable &&
          (removing.open ? (
            <ConfirmBox
              label={`Confirm removing ${email}`}
              confirmText={`Confirm: remove ${email}`}
              busy={remove.state.fetching}
              done={removing.done}
              onCancel={removing.cancel}
              onConfirm={async () => {
                if (!(await remove.exec({ memberId: m.id })).error) removing.succeed();
              }}
            >
              {email} leaves {org.name} at once: their access, their API keys bound to it and their grants go. They can
              join again only through a new invitation.
            </ConfirmBox>
          ) : (
            <button type="button" className="danger" onClick={removing.start} aria-label={`Remove ${email}`}>
              Remove
            </button>
          ))}
        <Message kind="error">{remove.error}</Message>
      </td>
    </tr>
  );
}

/** The team card: members with their roles and grants, and pending invitations; owners and admins manage them. */
export function Team({ org, reload }: { org: Org; reload: () => void }) {
  const manage = org.viewerRole === "owner" || org.viewerRole === "admin";
  return (
    <section className="card" aria-labelledby="team-title">
      <h2 id="team-title">Team</h2>
      <TableScroll label="Members list">
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
      </TableScroll>
      <Invitations org={org} manage={manage} reload={reload} />
    </section>
  );
}
