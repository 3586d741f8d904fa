/** The settings cards of credentials: account API keys and the personal agent token (each secret shown once). */
import { useState } from "react";
import type { SettingsQuery } from "../../gql/graphql.ts";
import { useClearFeedback } from "../../shared/feedback.tsx";
import { ConfirmBox, Field, Message, SecretOnce } from "../../shared/form.tsx";
import { TableScroll } from "../../shared/table-scroll.tsx";
import { useAction } from "../../shared/use-action.ts";
import { useConfirm } from "../../shared/use-confirm.ts";
import { date, type Org } from "./common.ts";
import { CREATE_AGENT_TOKEN, CREATE_API_KEY, DELETE_API_KEY, REVOKE_AGENT_TOKEN } from "./operations.ts";

type ApiKeyRow = Org["apiKeys"][number];

/** How a key is named in buttons: its name and prefix (names need not be unique). */
function keyLabel(k: ApiKeyRow): string {
  return `${k.name} (${k.prefix}…)`;
}

/** One key's row with Delete behind a confirmation; `onDeleted` runs once it is deleted. */
function KeyRow({ k, reload, onDeleted }: { k: ApiKeyRow; reload: () => void; onDeleted: (id: string) => void }) {
  const del = useAction(DELETE_API_KEY, reload);
  const confirm = useConfirm();
  return (
    <tr>
      <th scope="row">{k.name}</th>
      <td>
        <code>{k.prefix}…</code>
      </td>
      <td>{k.createdBy.email}</td>
      <td>{date(k.createdAt)}</td>
      <td>{date(k.lastUsedAt)}</td>
      <td>
        {confirm.open ? (
          <ConfirmBox
            label={`Confirm deleting key ${keyLabel(k)}`}
            confirmText={`Confirm: delete key ${keyLabel(k)}`}
            busy={del.state.fetching}
            done={confirm.done}
            onCancel={confirm.cancel}
            onConfirm={async () => {
              if ((await del.exec({ id: k.id })).error) return;
              confirm.succeed();
              onDeleted(k.id);
            }}
          >
            Requests with the key {keyLabel(k)} are refused (401) at once; a program using it stops working. This cannot
            be undone.
          </ConfirmBox>
        ) : (
          <button type="button" className="danger" onClick={confirm.start} aria-label={`Delete key ${keyLabel(k)}`}>
            Delete
          </button>
        )}
        <Message kind="error">{del.error}</Message>
      </td>
    </tr>
  );
}

/** The account API keys of the organization: create (secret shown once), list, delete. */
export function ApiKeys({ org, reload }: { org: Org; reload: () => void }) {
  /** The secret of the key created last, with the key's id: it goes when that key is deleted. */
  const [secret, setSecret] = useState<{ keyId: string; value: string } | null>(null);
  const create = useAction(CREATE_API_KEY, reload, ["name"]);
  const clear = useClearFeedback();
  return (
    <section className="card" aria-labelledby="keys-title">
      <h2 id="keys-title">API keys</h2>
      <p className="muted">
        Keys act as you, in this organization. Send them as <code>Authorization: Bearer</code> or <code>x-api-key</code>
        .
      </p>
      <form
        className="row"
        aria-label="Create an API key"
        onChange={clear}
        onSubmit={async (e) => {
          e.preventDefault();
          const formEl = e.currentTarget;
          const r = await create.exec({ name: String(new FormData(formEl).get("name")) });
          if (r.data) {
            setSecret({ keyId: r.data.createApiKey.apiKey.id, value: r.data.createApiKey.secret });
            formEl.reset();
          }
        }}
      >
        <Field label="Key name" name="name" required maxLength={64} error={create.fields.name?.join(", ")} />
        <button type="submit" className="primary">
          Create key
        </button>
      </form>
      <Message kind="error">{create.error}</Message>
      {secret && <SecretOnce label="New API key" secret={secret.value} />}
      <TableScroll label="API keys list">
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
              <KeyRow
                key={k.id}
                k={k}
                reload={reload}
                onDeleted={(id) => setSecret((s) => (s?.keyId === id ? null : s))}
              />
            ))}
          </tbody>
        </table>
      </TableScroll>
    </section>
  );
}

/** The caller's agent token: create or replace (shown once), revoke behind a confirmation. */
export function AgentToken({ token, reload }: { token: SettingsQuery["agentToken"]; reload: () => void }) {
  const [secret, setSecret] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const create = useAction(CREATE_AGENT_TOKEN, reload);
  const revoke = useAction(REVOKE_AGENT_TOKEN, reload);
  const clear = useClearFeedback();
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
            setConfirming(false);
            const r = await create.exec({});
            if (r.data) setSecret(r.data.createAgentToken.token);
          }}
        >
          {token ? "Replace token" : "Create token"}
        </button>
        {token && !confirming && (
          <button
            type="button"
            className="danger"
            data-opener="revoke-agent-token"
            onClick={() => {
              clear();
              setConfirming(true);
            }}
          >
            Revoke token
          </button>
        )}
      </div>
      {token && confirming && (
        <ConfirmBox
          label="Confirm revoking the agent token"
          confirmText="Confirm: revoke the agent token"
          busy={revoke.state.fetching}
          onCancel={() => {
            clear();
            setConfirming(false);
          }}
          onConfirm={async () => {
            if ((await revoke.exec({})).error) return;
            setSecret(null);
            setConfirming(false);
          }}
        >
          Agents using the token <code>{token.prefix}…</code> are refused at once. You can create a new one later.
        </ConfirmBox>
      )}
      <Message kind="error">{create.error ?? revoke.error}</Message>
      {secret && <SecretOnce label="New agent token" secret={secret} />}
    </section>
  );
}
