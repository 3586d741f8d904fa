/**
 * A limited member's grants on the team card: each with Revoke behind a confirmation (the member's last grant: the
 * confirmation says that the member then sees every project, and offers removing the member instead), and the
 * Grant form, its button naming the project and the member.
 */
import { useState } from "react";
import { useClearFeedback } from "../../shared/feedback.tsx";
import { ConfirmBox, Message } from "../../shared/form.tsx";
import { useAction } from "../../shared/use-action.ts";
import { useConfirm } from "../../shared/use-confirm.ts";
import type { Org } from "./common.ts";
import { GRANT_ACCESS, type MemberRow, REVOKE_ACCESS } from "./operations.ts";

type Grant = MemberRow["grants"][number];

/** What a grant gives access to, in words: "project shop" or "application web". */
function grantTarget(g: Grant): string {
  return g.project ? g.project.name : `application ${g.application?.name ?? "(hidden)"}`;
}

/** One grant of member `m` with Revoke behind a confirmation; `last`: it is the member's only grant. */
export function GrantItem({
  m,
  g,
  last,
  reload,
  removeInstead,
}: {
  m: MemberRow;
  g: Grant;
  last: boolean;
  reload: () => void;
  removeInstead: () => void;
}) {
  const revoke = useAction(REVOKE_ACCESS, reload);
  const confirm = useConfirm();
  const target = grantTarget(g);
  const email = m.user.email;
  return (
    <li>
      {g.project ? `Project ${g.project.name}` : `Application ${g.application?.name ?? "(hidden)"}`}{" "}
      {confirm.open ? (
        <ConfirmBox
          label={`Confirm revoking access to ${target} from ${email}`}
          confirmText={
            last
              ? `Confirm: revoke access to ${target} from ${email} (then every project)`
              : `Confirm: revoke access to ${target} from ${email}`
          }
          busy={revoke.state.fetching}
          done={confirm.done}
          onCancel={confirm.cancel}
          onConfirm={async () => {
            if (!(await revoke.exec({ grantId: g.id })).error) confirm.succeed();
          }}
        >
          {last ? (
            <>
              <p>
                <strong>
                  This is the last grant of {email}: once it is revoked, {email} is no longer limited and sees every
                  project of the organization.
                </strong>{" "}
                To take away their access instead, remove them from the organization.
              </p>
              <button
                type="button"
                className="danger"
                onClick={() => {
                  confirm.close();
                  removeInstead();
                }}
              >
                Remove {email} instead
              </button>
            </>
          ) : (
            <p>
              {email} loses access to {target}; their other grants stay.
            </p>
          )}
        </ConfirmBox>
      ) : (
        <button type="button" onClick={confirm.start} aria-label={`Revoke access to ${target} from ${email}`}>
          Revoke
        </button>
      )}
      <Message kind="error">{revoke.error}</Message>
    </li>
  );
}

/** Limiting member `m` to a project: pick it, then Grant (labelled with the project and the member). */
export function GrantForm({ m, org, reload }: { m: MemberRow; org: Org; reload: () => void }) {
  const grant = useAction(GRANT_ACCESS, reload);
  const [project, setProject] = useState("");
  const clear = useClearFeedback();
  const email = m.user.email;
  const name = org.projects.edges.find((e) => e.node.id === project)?.node.name;
  return (
    <div className="row">
      <select
        aria-label={`Project to grant to ${email}`}
        value={project}
        onChange={(e) => {
          clear();
          setProject(e.target.value);
        }}
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
        disabled={!project || grant.state.fetching}
        aria-label={name ? `Grant ${name} to ${email}` : `Grant a project to ${email}`}
        onClick={async () => {
          if (!(await grant.exec({ input: { memberId: m.id, projectId: project } })).error) setProject("");
        }}
      >
        Grant
      </button>
      <Message kind="error">{grant.error}</Message>
    </div>
  );
}
