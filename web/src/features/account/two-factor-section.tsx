/**
 * Two-factor authentication (TOTP): enrol with a QR code drawn in the page or the key typed by hand, confirm with a
 * code, then the recovery codes are shown once; regenerate them or turn two-factor off with the password.
 */

import { useState } from "react";
import { messageOf } from "../../shared/errors.ts";
import { Field, FocusedForm, Message } from "../../shared/form.tsx";
import { useSession } from "../../shared/session.tsx";
import { AuthenticatorCodeField } from "../auth/auth-fields.tsx";
import { disableTwoFactor, enableTwoFactor, regenerateRecoveryCodes, verifyTotp } from "./account-api.ts";
import { QrCode } from "./qr-code.tsx";
import { RecoveryCodes } from "./recovery-codes.tsx";

/** The key of an `otpauth://` URI (base32), grouped by 4 for reading. */
function keyOf(uri: string): string {
  const secret = new URL(uri).searchParams.get("secret") ?? "";
  return secret.replace(/(.{4})/g, "$1 ").trim();
}

/** The two-factor section of the account page. */
export function TwoFactorSection() {
  const { user, refresh } = useSession();
  const [enrolment, setEnrolment] = useState<{ totpURI: string; backupCodes: string[] } | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [mode, setMode] = useState<"idle" | "regenerate" | "disable">("idle");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const enabled = user?.twoFactorEnabled === true;

  async function run(action: () => Promise<void>) {
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setBusy(false);
    }
  }
  const submit = (action: (form: FormData) => Promise<void>) => (e: React.FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    run(() => action(form));
  };

  return (
    <section className="card" aria-labelledby="two-factor-heading">
      <h2 id="two-factor-heading">Two-factor authentication</h2>
      <p data-testid="two-factor-state">
        {enabled
          ? "On: signing in asks for a code from your authenticator app."
          : "Off: signing in asks only for your password."}
      </p>
      {codes && <RecoveryCodes codes={codes} />}
      {!enabled && !enrolment && (
        <form
          onSubmit={submit(async (form) => {
            setCodes(null);
            setEnrolment(await enableTwoFactor(String(form.get("password"))));
          })}
        >
          <Field label="Password" name="password" type="password" autoComplete="current-password" required />
          <button type="submit" className="primary" data-opener="two-factor-enrol" disabled={busy}>
            Set up two-factor
          </button>
        </form>
      )}
      {!enabled && enrolment && (
        <FocusedForm
          onEscape={() => setEnrolment(null)}
          onSubmit={submit(async (form) => {
            await verifyTotp(String(form.get("code")).trim());
            setCodes(enrolment.backupCodes);
            setEnrolment(null);
            await refresh();
          })}
        >
          <p>Scan the code with your authenticator app, or type the key into it, then enter the code it shows.</p>
          <QrCode text={enrolment.totpURI} label="QR code of the authenticator key" />
          <p>
            Key: <code data-testid="totp-key">{keyOf(enrolment.totpURI)}</code>
          </p>
          <AuthenticatorCodeField />
          <button type="submit" className="primary" disabled={busy}>
            Turn on two-factor
          </button>{" "}
          <button type="button" onClick={() => setEnrolment(null)}>
            Cancel
          </button>
        </FocusedForm>
      )}
      {enabled && mode === "idle" && (
        <div className="row">
          <button type="button" data-opener="two-factor-regenerate" onClick={() => setMode("regenerate")}>
            New recovery codes
          </button>
          <button type="button" className="danger" data-opener="two-factor-disable" onClick={() => setMode("disable")}>
            Turn off two-factor
          </button>
        </div>
      )}
      {enabled && mode !== "idle" && (
        <FocusedForm
          key={mode}
          onEscape={() => setMode("idle")}
          aria-label={mode === "regenerate" ? "New recovery codes" : "Turn off two-factor"}
          onSubmit={submit(async (form) => {
            const password = String(form.get("password"));
            if (mode === "regenerate") setCodes(await regenerateRecoveryCodes(password));
            else {
              await disableTwoFactor(password);
              setCodes(null);
              await refresh();
            }
            setMode("idle");
          })}
        >
          <p>
            {mode === "regenerate"
              ? "The current recovery codes stop working and 10 new ones are shown once."
              : "Signing in will ask only for your password."}
          </p>
          <Field label="Password" name="password" type="password" autoComplete="current-password" required />
          <button type="submit" className={mode === "disable" ? "danger" : "primary"} disabled={busy}>
            {mode === "regenerate" ? "Make new recovery codes" : "Confirm: turn off"}
          </button>{" "}
          <button type="button" onClick={() => setMode("idle")}>
            Cancel
          </button>
        </FocusedForm>
      )}
      <Message kind="error">{error}</Message>
    </section>
  );
}
