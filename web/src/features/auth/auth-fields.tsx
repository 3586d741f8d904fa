/** Fields the sign-in, reset-password and account pages share: the new password twice, an authenticator code. */
import { Field } from "../../shared/form.tsx";

/** "New password" (at least 8 characters) and "Repeat the new password"; the form compares `newPassword`/`confirm`. */
export function NewPasswordFields({ hint = "At least 8 characters." }: { hint?: string }) {
  return (
    <>
      <Field
        label="New password"
        name="newPassword"
        type="password"
        autoComplete="new-password"
        minLength={8}
        required
        hint={hint}
      />
      <Field label="Repeat the new password" name="confirm" type="password" autoComplete="new-password" required />
    </>
  );
}

/** The 6-digit code of an authenticator app, named `code`. */
export function AuthenticatorCodeField({ hint }: { hint?: string }) {
  return (
    <Field
      label="Authenticator code"
      name="code"
      inputMode="numeric"
      autoComplete="one-time-code"
      pattern="[0-9]{6}"
      required
      hint={hint}
    />
  );
}
