/** The settings cards of credentials: account API keys and the personal agent token (each secret shown once). */
import { useState } from "react";
import type { SettingsQuery } from "../../gql/graphql.ts";
import { Field, Message, SecretOnce } from "../../shared/form.tsx";
import { useAction } from "../../shared/use-action.ts";
import { date, type Org } from "./common.ts";
import { CREATE_AGENT_TOKEN, CREATE_API_KEY, DELETE_API_KEY, REVOKE_AGENT_TOKEN } from "./operations.ts";

/** The account API keys of the organization: create (secret shown once), list, delete. */
export function ApiKeys({ org, reload }: { org: Org; reload: () => void }) {
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

/** The caller's agent token: create or replace (shown once), revoke. */
export function AgentToken({ token, reload }: { token: SettingsQuery["agentToken"]; reload: () => void }) {
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
