/**
 * Profile and password: the display name, the e-mail address (a change is verified by a link mailed to the new
 * address) and the password (the current one is required; every other session is signed out; an account without
 * one sets its first through a mailed link).
 */

import { useState } from "react";
import { AuthError } from "../../shared/auth-api.ts";
import { messageOf } from "../../shared/errors.ts";
import { Field, Message } from "../../shared/form.tsx";
import { useSession } from "../../shared/session.tsx";
import { NewPasswordFields } from "../auth/auth-fields.tsx";
import { changeEmail, changePassword, listAccounts, requestPasswordReset, updateName } from "./account-api.ts";
import { useAuthResource } from "./use-auth-resource.ts";

/**
 * Runs a form's action with its busy flag, error and success words. `fieldOf`: the form's field (its `name`) a thrown
 * error is about, if any — that message goes under the field (`fieldError`), not in the form-level `error`.
 */
function useFormAction(fieldOf: (thrown: unknown) => string | undefined = () => undefined) {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<{ message: string; field?: string } | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const submit =
    (action: (form: FormData, el: HTMLFormElement) => Promise<string>) =>
    async (e: React.FormEvent<HTMLFormElement>) => {
      e.preventDefault();
      const el = e.currentTarget;
      setBusy(true);
      setFailure(null);
      setDone(null);
      try {
        setDone(await action(new FormData(el), el));
      } catch (err) {
        setFailure({ message: messageOf(err), field: fieldOf(err) });
      } finally {
        setBusy(false);
      }
    };
  /** Forgets the last error and success words (the person edits the form again). */
  const reset = () => {
    setFailure(null);
    setDone(null);
  };
  /** The message under the field named `name`, if the last error is about it. */
  const fieldError = (name: string) => (failure?.field === name ? failure.message : undefined);
  return { busy, error: failure && !failure.field ? failure.message : null, fieldError, done, submit, reset };
}

/** Name and e-mail address. */
export function ProfileSection() {
  const { user, refresh } = useSession();
  const name = useFormAction();
  const email = useFormAction();
  return (
    <section className="card" aria-labelledby="profile-heading">
      <h2 id="profile-heading">Profile</h2>
      <form
        aria-label="Name"
        onChange={name.reset}
        onSubmit={name.submit(async (form) => {
          await updateName(String(form.get("name")).trim());
          await refresh();
          return "Your name is saved.";
        })}
      >
        <Field label="Name" name="name" autoComplete="name" required maxLength={100} defaultValue={user?.name ?? ""} />
        <button type="submit" disabled={name.busy}>
          Save name
        </button>
        <Message kind="error">{name.error}</Message>
        <Message kind="success">{name.done}</Message>
      </form>
      <form
        aria-label="E-mail address"
        onChange={email.reset}
        onSubmit={email.submit(async (form, el) => {
          const next = String(form.get("email")).trim();
          await changeEmail(next);
          el.reset();
          return `We sent a link to ${next}: your address changes once you open it.`;
        })}
      >
        <p>
          E-mail address: <strong>{user?.email}</strong>
        </p>
        <Field label="New e-mail address" name="email" type="email" autoComplete="email" required />
        <button type="submit" disabled={email.busy}>
          Change e-mail address
        </button>
        <Message kind="error">{email.error}</Message>
        <Message kind="success">{email.done}</Message>
      </form>
    </section>
  );
}

/**
 * Password change; for an account that signs in only through a linked provider (no password yet), a link mailed to
 * its address sets the first one (better-auth's reset creates the password sign-in; every session then ends).
 * A wrong current password is said under its field. `onChanged` runs once the password changed (the other sessions
 * ended: the account page re-reads its Sessions list).
 */
export function PasswordSection({ onChanged }: { onChanged?: () => void }) {
  const change = useFormAction((thrown) =>
    thrown instanceof AuthError && thrown.code === "INVALID_PASSWORD" ? "currentPassword" : undefined,
  );
  const first = useFormAction();
  const { user } = useSession();
  const { data: accounts } = useAuthResource(listAccounts);
  if (accounts && !accounts.some((a) => a.providerId === "credential")) {
    return (
      <section className="card" aria-labelledby="password-heading">
        <h2 id="password-heading">Password</h2>
        <form
          onSubmit={first.submit(async () => {
            await requestPasswordReset(String(user?.email));
            return `We sent a link to ${user?.email}: open it within an hour to set your password.`;
          })}
        >
          <p>
            You sign in through a linked provider and have no password. To sign in with your e-mail address too (and to
            turn on two-factor authentication), set one: we mail you a link. Setting it signs out every session.
          </p>
          <button type="submit" className="primary" disabled={first.busy}>
            Mail me a link to set a password
          </button>
          <Message kind="error">{first.error}</Message>
          <Message kind="success">{first.done}</Message>
        </form>
      </section>
    );
  }
  return (
    <section className="card" aria-labelledby="password-heading">
      <h2 id="password-heading">Password</h2>
      <form
        onChange={change.reset}
        onSubmit={change.submit(async (form, el) => {
          if (form.get("newPassword") !== form.get("confirm")) throw new Error("The two new passwords differ.");
          await changePassword(String(form.get("currentPassword")), String(form.get("newPassword")));
          el.reset();
          onChanged?.();
          return "Your password is changed; your other sessions were signed out.";
        })}
      >
        <Field
          label="Current password"
          name="currentPassword"
          type="password"
          autoComplete="current-password"
          required
          error={change.fieldError("currentPassword")}
        />
        <NewPasswordFields hint="At least 8 characters. Changing it signs out your other sessions." />
        <button type="submit" className="primary" disabled={change.busy}>
          Change password
        </button>
        <Message kind="error">{change.error}</Message>
        <Message kind="success">{change.done}</Message>
      </form>
    </section>
  );
}
