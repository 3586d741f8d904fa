/** `/forgot-password`: mails a reset link (valid an hour) to the address, when an account has it. */

import { useState } from "react";
import { messageOf } from "../../shared/errors.ts";
import { Field, Message } from "../../shared/form.tsx";
import { Link } from "../../shared/router.tsx";
import { requestPasswordReset } from "../account/account-api.ts";

/** The forgot-password page. */
export function ForgotPasswordPage() {
  const [sent, setSent] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <main id="main" className="narrow">
      <h1>Forgot your password?</h1>
      {sent ? (
        <Message kind="success">
          If an account has this address, we sent it a link to choose a new password. The link works for an hour.
        </Message>
      ) : (
        <form
          onSubmit={async (e) => {
            e.preventDefault();
            setBusy(true);
            setError(null);
            try {
              await requestPasswordReset(String(new FormData(e.currentTarget).get("email")));
              setSent(true);
            } catch (err) {
              setError(messageOf(err));
            } finally {
              setBusy(false);
            }
          }}
        >
          <p>We mail you a link to choose a new password. Every session of the account is signed out then.</p>
          <Field label="E-mail" name="email" type="email" autoComplete="email" required />
          <Message kind="error">{error}</Message>
          <button type="submit" className="primary" disabled={busy}>
            Send the link
          </button>
        </form>
      )}
      <p>
        <Link href="/sign-in">Back to sign in</Link>
      </p>
    </main>
  );
}
