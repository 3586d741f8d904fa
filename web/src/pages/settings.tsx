/**
 * Settings of the active organization: account API keys (secret shown once), the agent token (shown once),
 * the team — members, roles, grants and invitations — and webhooks. Owners and admins manage the team; members see
 * it. Webhooks are shown to owners and admins only.
 */

import { useState } from "react";
import { useQuery } from "urql";
import { Field, Message, SecretOnce } from "../components/form.tsx";
import { useViewer } from "../components/layout.tsx";
import { WebhooksSection } from "../components/webhooks.tsx";
import { describeError } from "../errors.ts";
import type { SettingsQuery } from "../gql/graphql.ts";
import {
  CANCEL_INVITATION,
  CREATE_AGENT_TOKEN,
  CREATE_API_KEY,
  DELETE_API_KEY,
  GRANT_ACCESS,
  INVITE_MEMBER,
  type MemberRow,
  REMOVE_MEMBER,
  RESEND_INVITATION,
  REVOKE_ACCESS,
  REVOKE_AGENT_TOKEN,
  type Role,
  SETTINGS,
  UPDATE_MEMBER_ROLE,
} from "../operations.ts";
import { Link } from "../router.tsx";
import { useAction } from "../use-action.ts";
import { CreateOrganization } from "./import-sites.tsx";

type Org = NonNullable<SettingsQuery["organization"]>;

function date(iso: string | null): string {
  return iso ? new Date(iso).toLocaleString() : "never";
}

function ApiKeys({ org, reload }: { org: Org; reload: () => void }) {
  const [secret, setSecret] = useState<string | null>(null);
  const create = useAction(CREATE_API_KEY, reload);
  const del = useAction(DELETE_API_KEY, reload);
  return (
    <section className="card" aria-labelledby="keys-title">
      <h2 id="keys-title">API keys</h2>
      <p className="muted">
        Keys act as you, in this organization. Send them as <code>Authorization: Bearer</code> or <code>x-api-key</code>
        .
      </p>
      <form
        className="row"
        onSubmit={async (e) => {
          e.preventDefault();
          const formEl = e.currentTarget;
          const r = await create.exec({ name: String(new FormData(formEl).get("name")) });
          if (!r.error) {
            if (r.data) setSecret(r.data.createApiKey.secret);
            formEl.reset();
          }
        }}
      >
        <Field label="Key name" name="name" required maxLength={64} />
        <button type="submit" className="primary">
          Create key
        </button>
      </form>
      <Message kind="error">{create.error ?? del.error}</Message>
      {secret && <SecretOnce label="New API key" secret={secret} />}
      <table>
        <caption className="sr-only">API keys</caption>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Prefix</th>
            <th scope="col">Created by</th>
            <th scope="col">Created</th>
            <th scope="col">Last used</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {org.apiKeys.map((k) => (
            <tr key={k.id}>
              <th scope="row">{k.name}</th>
              <td>
                <code>{k.prefix}…</code>
              </td>
              <td>{k.createdBy.email}</td>
              <td>{date(k.createdAt)}</td>
              <td>{date(k.lastUsedAt)}</td>
              <td>
                <button
                  type="button"
                  className="danger"
                  onClick={() => del.exec({ id: k.id })}
                  aria-label={`Delete key ${k.name}`}
                >
                  Delete
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function AgentToken({ token, reload }: { token: SettingsQuery["agentToken"]; reload: () => void }) {
  const [secret, setSecret] = useState<string | null>(null);
  const create = useAction(CREATE_AGENT_TOKEN, reload);
  const revoke = useAction(REVOKE_AGENT_TOKEN, reload);
  return (
    <section className="card" aria-labelledby="agent-title">
      <h2 id="agent-title">AI agent token</h2>
      <p className="muted">
        Read-only, personal, for <code>/api/agent/*</code>. Creating a new one replaces the old one at once.
      </p>
      {token ? (
        <p>
          Current token <code>{token.prefix}…</code>, created {date(token.createdAt)}, last used{" "}
          {date(token.lastUsedAt)}
          {token.expiresAt ? `, expires ${date(token.expiresAt)}` : ", never expires"}.
        </p>
      ) : (
        <p>No agent token.</p>
      )}
      <div className="row">
        <button
          type="button"
          className="primary"
          onClick={async () => {
            const r = await create.exec({});
            if (r.data) setSecret(r.data.createAgentToken.token);
          }}
        >
          {token ? "Replace token" : "Create token"}
        </button>
        {token && (
          <button type="button" className="danger" onClick={() => revoke.exec({}).then(() => setSecret(null))}>
            Revoke token
          </button>
        )}
      </div>
      <Message kind="error">{create.error ?? revoke.error}</Message>
      {secret && <SecretOnce label="New agent token" secret={secret} />}
    </section>
  );
}

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

function Team({ org, reload }: { org: Org; reload: () => void }) {
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
        <>
          <ApiKeys org={org} reload={reload} />
          <AgentToken token={result.data?.agentToken ?? null} reload={reload} />
          <Team org={org} reload={reload} />
          {(org.viewerRole === "owner" || org.viewerRole === "admin") && <WebhooksSection organizationId={org.id} />}
        </>
      ) : (
        <p aria-live="polite">Loading…</p>
      )}
    </>
  );
}
