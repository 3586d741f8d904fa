/**
 * `/reset-password?token=…`: where the mailed reset link leads (better-auth checks the token and redirects here);
 * sets the new password, which signs out every session of the account, then offers to sign in.
 */

import { useState } from "react";
import { messageOf } from "../../shared/errors.ts";
import { Message } from "../../shared/form.tsx";
import { Link, useLocation } from "../../shared/router.tsx";
import { resetPassword } from "../account/account-api.ts";
import { NewPasswordFields } from "./auth-fields.tsx";

/** The reset-password page. */
export function ResetPasswordPage() {
  const { query } = useLocation();
  const token = query.get("token");
  const [done, setDone] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const invalid = !token || query.get("error") === "INVALID_TOKEN";
  return (
    <main id="main" className="narrow">
      <h1>Choose a new password</h1>
      {invalid ? (
        <Message kind="error">
          This link is not valid any more (used or expired). <Link href="/forgot-password">Ask for a new one</Link>.
        </Message>
      ) : done ? (
        <Message kind="success">
          Your password is changed and every session was signed out. <Link href="/sign-in">Sign in</Link> with the new
          password.
        </Message>
      ) : (
        <form
          onSubmit={async (e) => {
            e.preventDefault();
            const form = new FormData(e.currentTarget);
            if (form.get("newPassword") !== form.get("confirm")) {
              setError("The two passwords differ.");
              return;
            }
            setBusy(true);
            setError(null);
            try {
              await resetPassword(token, String(form.get("newPassword")));
              setDone(true);
            } catch (err) {
              setError(messageOf(err));
            } finally {
              setBusy(false);
            }
          }}
        >
          <NewPasswordFields />
          <Message kind="error">{error}</Message>
          <button type="submit" className="primary" disabled={busy}>
            Set the password
          </button>
        </form>
      )}
    </main>
  );
}
