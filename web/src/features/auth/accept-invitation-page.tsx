/**
 * `/accept-invitation?token=…`: shows the organization, role and invited address (`invitationLink`), then
 * - signed in with that address: Accept (`acceptInvitation`);
 * - not signed in: sign in (existing account) or create the account with the address locked (`signUpWithInvitation`);
 * - signed in under another address: says to sign out first, with a button.
 * Expired, cancelled or used links say so.
 */
import { useState } from "react";
import { useMutation, useQuery } from "urql";
import { signIn, signOut } from "../../shared/auth-api.ts";
import { describeError, messageOf } from "../../shared/errors.ts";
import { Field, Message } from "../../shared/form.tsx";
import { navigate, useLocation } from "../../shared/router.tsx";
import { useSession } from "../../shared/session.tsx";
import { ACCEPT_INVITATION, INVITATION_LINK, SIGN_UP_WITH_INVITATION } from "./operations.ts";

const INVALID: Record<string, string> = {
  accepted: "This invitation was already used.",
  revoked: "This invitation was cancelled by the organization.",
  expired: "This invitation has expired (links are valid 48 hours). Ask for a new one.",
};

/** The invitation page. */
export function AcceptInvitationPage() {
  const { query } = useLocation();
  const token = query.get("token") ?? "";
  const { user, refresh } = useSession();
  const [link] = useQuery({ query: INVITATION_LINK, variables: { token }, pause: !token });
  const [acceptState, accept] = useMutation(ACCEPT_INVITATION);
  const [signUpState, signUpWithInvitation] = useMutation(SIGN_UP_WITH_INVITATION);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const info = link.data?.invitationLink;
  let body: React.ReactNode;
  if (!token) body = <Message kind="error">This link has no invitation token.</Message>;
  else if (link.error) body = <Message kind="error">{describeError(link.error)}</Message>;
  else if (!info || user === undefined) body = <p aria-live="polite">Loading…</p>;
  else if (!info.valid)
    body = <Message kind="error">{info.status ? INVALID[info.status] : "This invitation link is not valid."}</Message>;
  else {
    const email = info.email ?? "";
    const summary = (
      <p>
        <strong>{info.organizationName}</strong> invites <strong>{email}</strong> to join as{" "}
        <strong>{info.role}</strong>.
      </p>
    );
    const signInAndAccept = async (password: string) => {
      setBusy(true);
      setError(null);
      try {
        const { twoFactor } = await signIn(email, password);
        if (twoFactor) {
          navigate(
            `/sign-in?email=${encodeURIComponent(email)}&next=${encodeURIComponent(location.pathname + location.search)}`,
          );
          return;
        }
        await refresh();
      } catch (e) {
        setError(messageOf(e));
      } finally {
        setBusy(false);
      }
    };
    if (user && user.email.toLowerCase() === email.toLowerCase())
      body = (
        <>
          {summary}
          <button
            type="button"
            className="primary"
            disabled={acceptState.fetching}
            onClick={async () => {
              const r = await accept({ token });
              if (r.error) return setError(describeError(r.error));
              await refresh();
              navigate("/import-sites");
            }}
          >
            Accept invitation
          </button>
        </>
      );
    else if (user)
      body = (
        <>
          {summary}
          <Message kind="info">
            You are signed in as {user.email}. Sign out first, then open this link again to join as {email}.
          </Message>
          <button
            type="button"
            onClick={async () => {
              await signOut();
              await refresh();
            }}
          >
            Sign out
          </button>
        </>
      );
    else if (info.accountExists)
      body = (
        <>
          {summary}
          <p>An account with this address exists: sign in to accept.</p>
          <form
            onSubmit={(e) => {
              e.preventDefault();
              signInAndAccept(String(new FormData(e.currentTarget).get("password")));
            }}
          >
            <Field label="E-mail" value={email} readOnly aria-readonly="true" />
            <Field label="Password" name="password" type="password" autoComplete="current-password" required />
            <button type="submit" className="primary" disabled={busy}>
              Sign in
            </button>
          </form>
        </>
      );
    else
      body = (
        <>
          {summary}
          <p>Create your account to join. The address is the invited one and counts as verified.</p>
          <form
            onSubmit={async (e) => {
              e.preventDefault();
              const form = new FormData(e.currentTarget);
              setError(null);
              const password = String(form.get("password"));
              const r = await signUpWithInvitation({ input: { token, name: String(form.get("name")), password } });
              if (r.error) return setError(describeError(r.error));
              await signInAndAccept(password);
              navigate("/import-sites");
            }}
          >
            <Field label="E-mail" value={email} readOnly aria-readonly="true" hint="Locked to the invited address." />
            <Field label="Name" name="name" autoComplete="name" required maxLength={100} />
            <Field
              label="Password"
              name="password"
              type="password"
              autoComplete="new-password"
              minLength={8}
              required
              hint="At least 8 characters."
            />
            <button type="submit" className="primary" disabled={signUpState.fetching || busy}>
              Create account and join
            </button>
          </form>
        </>
      );
  }
  return (
    <main id="main" className="narrow">
      <h1>Invitation</h1>
      {body}
      <Message kind="error">{error}</Message>
    </main>
  );
}
