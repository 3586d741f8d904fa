/** `/sign-up`: creates an account; the verification step is explained before and after. */

import { useState } from "react";
import { signUp } from "../../shared/auth-api.ts";
import { messageOf } from "../../shared/errors.ts";
import { Field, Message } from "../../shared/form.tsx";
import { Link } from "../../shared/router.tsx";
import { SocialButtons } from "./sign-in-page.tsx";

/** The sign-up page. */
export function SignUpPage() {
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (sentTo)
    return (
      <main id="main" className="narrow">
        <h1>Check your e-mail</h1>
        <Message kind="success">
          We sent a verification link to <strong>{sentTo}</strong>. Open it to verify your address, then sign in.
        </Message>
        <p>
          <Link href={`/sign-in?email=${encodeURIComponent(sentTo)}`}>Go to sign-in</Link>
        </p>
      </main>
    );
  return (
    <main id="main" className="narrow">
      <h1>Create your Skiff account</h1>
      <p>After signing up we e-mail you a link: open it to verify your address before you sign in.</p>
      <form
        onSubmit={async (e) => {
          e.preventDefault();
          const form = new FormData(e.currentTarget);
          setBusy(true);
          setError(null);
          try {
            const email = String(form.get("email"));
            await signUp({ name: String(form.get("name")), email, password: String(form.get("password")) });
            setSentTo(email);
          } catch (err) {
            setError(messageOf(err));
          } finally {
            setBusy(false);
          }
        }}
      >
        <Field label="Name" name="name" autoComplete="name" required maxLength={100} />
        <Field label="E-mail" name="email" type="email" autoComplete="email" required />
        <Field
          label="Password"
          name="password"
          type="password"
          autoComplete="new-password"
          required
          minLength={8}
          hint="At least 8 characters."
        />
        <Message kind="error">{error}</Message>
        <button type="submit" className="primary" disabled={busy}>
          Create account
        </button>
      </form>
      <SocialButtons callbackURL="/import-sites" />
      <p>
        Already have an account? <Link href="/sign-in">Sign in</Link>
      </p>
    </main>
  );
}
