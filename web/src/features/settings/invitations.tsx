/**
 * The invitations of the team card: send one (a refused address or role is said under its field), and per pending
 * invitation Resend and Cancel (behind a confirmation: the mailed link stops working). Owners and admins only.
 */
import { useId } from "react";
import { useClearFeedback, useNotice } from "../../shared/feedback.tsx";
import { ConfirmBox, Field, FieldError, Message } from "../../shared/form.tsx";
import { TableScroll } from "../../shared/table-scroll.tsx";
import { useAction } from "../../shared/use-action.ts";
import { useConfirm } from "../../shared/use-confirm.ts";
import { date, type Org } from "./common.ts";
import { CANCEL_INVITATION, INVITE_MEMBER, RESEND_INVITATION, type Role } from "./operations.ts";

type Invitation = Org["invitations"][number];

/** One invitation's row: Resend, and Cancel behind a confirmation (pending ones; owners and admins). */
function InvitationRow({ i, manage, reload }: { i: Invitation; manage: boolean; reload: () => void }) {
  const resend = useAction(RESEND_INVITATION, reload);
  const cancel = useAction(CANCEL_INVITATION, reload);
  const [notice, setNotice] = useNotice();
  const confirm = useConfirm();
  return (
    <tr>
      <th scope="row" data-landing>
        {i.email}
      </th>
      <td>{i.role}</td>
      <td>{i.status}</td>
      <td>{date(i.expiresAt)}</td>
      <td>
        {manage &&
          i.status === "pending" &&
          (confirm.open ? (
            <ConfirmBox
              label={`Confirm cancelling the invitation to ${i.email}`}
              confirmText={`Confirm: cancel the invitation to ${i.email}`}
              cancelText="Keep it"
              busy={cancel.state.fetching}
              done={confirm.done}
              onCancel={confirm.cancel}
              onConfirm={async () => {
                if (!(await cancel.exec({ id: i.id })).error) confirm.succeed();
              }}
            >
              The link mailed to {i.email} stops working; inviting them again sends a new one.
            </ConfirmBox>
          ) : (
            <>
              <button
                type="button"
                onClick={async () => {
                  const r = await resend.exec({ id: i.id });
                  if (!r.error) setNotice(`Invitation sent again to ${i.email}.`);
                }}
                aria-label={`Resend invitation to ${i.email}`}
              >
                Resend
              </button>{" "}
              <button
                type="button"
                className="danger"
                onClick={confirm.start}
                aria-label={`Cancel invitation to ${i.email}`}
              >
                Cancel
              </button>
            </>
          ))}
        <Message kind="error">{resend.error ?? cancel.error}</Message>
        {notice && <Message kind="success">{notice}</Message>}
      </td>
    </tr>
  );
}

/** The invitations part of the team card: the form (owners and admins) and the list. */
export function Invitations({ org, manage, reload }: { org: Org; manage: boolean; reload: () => void }) {
  const invite = useAction(INVITE_MEMBER, reload, ["email", "role"]);
  const [sent, setSent] = useNotice();
  const clear = useClearFeedback();
  const roleId = useId();
  const roleError = invite.fields.role?.join(", ");
  return (
    <>
      <h3>Invitations</h3>
      {manage && (
        <form
          className="row"
          aria-label="Invite a person"
          onChange={clear}
          onSubmit={async (e) => {
            e.preventDefault();
            const formEl = e.currentTarget;
            const form = new FormData(formEl);
            const email = String(form.get("email"));
            const r = await invite.exec({ input: { organizationId: org.id, email, role: form.get("role") as Role } });
            if (!r.error) {
              setSent(`Invitation sent to ${email}.`);
              formEl.reset();
            }
          }}
        >
          <Field label="E-mail to invite" name="email" type="email" required error={invite.fields.email?.join(", ")} />
          <div className="field">
            <label htmlFor={roleId}>Role</label>
            <select
              id={roleId}
              name="role"
              defaultValue="member"
              aria-invalid={roleError ? true : undefined}
              aria-describedby={roleError ? `${roleId}-error` : undefined}
            >
              <option value="member">member</option>
              <option value="admin">admin</option>
            </select>
            {roleError && <FieldError id={`${roleId}-error`}>{roleError}</FieldError>}
          </div>
          <button type="submit" className="primary">
            Send invitation
          </button>
        </form>
      )}
      {sent && <Message kind="success">{sent}</Message>}
      <Message kind="error">{invite.error}</Message>
      {org.invitations.length === 0 ? (
        <p className="muted">No invitations.</p>
      ) : (
        <TableScroll label="Invitations list">
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
                <InvitationRow key={i.id} i={i} manage={manage} reload={reload} />
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </>
  );
}
