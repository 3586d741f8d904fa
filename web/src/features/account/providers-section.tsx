/**
 * Ways to sign in: the password and the linked OAuth providers, with link (the configured providers not linked yet)
 * and unlink. The last way to sign in cannot be removed: better-auth refuses it and the page says why.
 */
import { Message } from "../../shared/form.tsx";
import { configuredProviders } from "../auth/sign-in-page.tsx";
import { linkProvider, listAccounts, unlinkAccount } from "./account-api.ts";
import { useAuthResource } from "./use-auth-resource.ts";

const NAMES: Record<string, string> = {
  credential: "E-mail and password",
  github: "GitHub",
  google: "Google",
  gitlab: "GitLab",
};

/** The sign-in methods section of the account page. */
export function ProvidersSection() {
  const { data: accounts, error, act } = useAuthResource(listAccounts);
  const linkable = configuredProviders().filter((p) => !accounts?.some((a) => a.providerId === p));
  const last = accounts?.length === 1;
  return (
    <section className="card" aria-labelledby="providers-heading">
      <h2 id="providers-heading">Ways to sign in</h2>
      {accounts ? (
        <ul className="plain" data-testid="sign-in-methods">
          {accounts.map((a) => (
            <li key={a.id} className="row">
              <span>{NAMES[a.providerId] ?? a.providerId}</span>
              <button
                type="button"
                aria-label={`Remove ${NAMES[a.providerId] ?? a.providerId}`}
                aria-describedby={last ? "last-method-hint" : undefined}
                onClick={() => act(() => unlinkAccount(a.id))}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p aria-live="polite">Loading…</p>
      )}
      {last && (
        <p id="last-method-hint" className="hint">
          This is your only way to sign in: it cannot be removed until you link another.
        </p>
      )}
      {linkable.map((p) => (
        <button key={p} type="button" onClick={() => act(() => linkProvider(p))}>
          Link {NAMES[p] ?? p}
        </button>
      ))}
      <Message kind="error">{error}</Message>
    </section>
  );
}
