/** `/sign-in`: e-mail and password, the configured OAuth providers, then the TOTP step when two-factor is on. */

import { useState } from "react";
import { AuthError, SECOND_FACTOR_ENDED, signIn, signInSocial, verifySecondFactor } from "../../shared/auth-api.ts";
import { messageOf } from "../../shared/errors.ts";
import { Field, FocusedForm, Message } from "../../shared/form.tsx";
import { Link, navigate, useLocation } from "../../shared/router.tsx";
import { useSession } from "../../shared/session.tsx";
import { AuthenticatorCodeField } from "./auth-fields.tsx";

const PROVIDER_NAMES: Record<string, string> = { github: "GitHub", google: "Google", gitlab: "GitLab" };

/** OAuth providers the server has configured (written into the page by src/server/web.ts). */
export function configuredProviders(): string[] {
  const meta = document.querySelector<HTMLMetaElement>('meta[name="skiff-oauth-providers"]');
  return (meta?.content ?? "").split(",").filter(Boolean);
}

/** Where to go after signing in: the `next` query parameter when it is a local path, else /import-sites. */
export function nextPath(query: URLSearchParams): string {
  const next = query.get("next");
  // A path of this site only: `//host` and `/\host` are other sites to a browser.
  return next?.startsWith("/") && !/^\/[/\\]/.test(next) ? next : "/import-sites";
}

/** Buttons of the configured OAuth providers. */
export function SocialButtons({ callbackURL }: { callbackURL: string }) {
  const providers = configuredProviders();
  const [error, setError] = useState<string | null>(null);
  if (providers.length === 0) return null;
  return (
    <div className="social">
      {providers.map((p) => (
        <button
          key={p}
          type="button"
          onClick={() => signInSocial(p, callbackURL).catch((e: Error) => setError(e.message))}
        >
          Continue with {PROVIDER_NAMES[p] ?? p}
        </button>
      ))}
      <Message kind="error">{error}</Message>
    </div>
  );
}

/** The sign-in page. */
export function SignInPage() {
  const { query } = useLocation();
  const { refresh } = useSession();
  const [step, setStep] = useState<"password" | "totp">("password");
  const [useRecovery, setUseRecovery] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const next = nextPath(query);

  async function done() {
    await refresh();
    navigate(next);
  }

  async function onPassword(form: FormData) {
    setBusy(true);
    setError(null);
    try {
      const { twoFactor } = await signIn(String(form.get("email")), String(form.get("password")));
      if (twoFactor) setStep("totp");
      else await done();
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setBusy(false);
    }
  }

  async function onCode(form: FormData) {
    setBusy(true);
    setError(null);
    try {
      await verifySecondFactor(String(form.get("code")).trim(), useRecovery ? "recovery" : "totp");
      await done();
    } catch (e) {
      // Too many wrong codes, or the code step expired: it is over, the password step starts again.
      if (e instanceof AuthError && SECOND_FACTOR_ENDED.has(e.code ?? "")) {
        setStep("password");
        setUseRecovery(false);
      }
      setError(messageOf(e));
    } finally {
      setBusy(false);
    }
  }

  return (
    <main id="main" className="narrow">
      <h1>Sign in to Skiff</h1>
      {query.get("verified") && (
        <Message kind="success">Your e-mail address is verified. Sign in with your password.</Message>
      )}
      {step === "password" ? (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            onPassword(new FormData(e.currentTarget));
          }}
        >
          <Field
            label="E-mail"
            name="email"
            type="email"
            autoComplete="email"
            required
            defaultValue={query.get("email") ?? ""}
          />
          <Field label="Password" name="password" type="password" autoComplete="current-password" required />
          <Message kind="error">{error}</Message>
          <button type="submit" className="primary" disabled={busy}>
            Sign in
          </button>
        </form>
      ) : (
        <FocusedForm
          key={useRecovery ? "recovery" : "totp"}
          onSubmit={(e) => {
            e.preventDefault();
            onCode(new FormData(e.currentTarget));
          }}
        >
          <p>Two-factor authentication is on for this account.</p>
          {useRecovery ? (
            <Field
              key="recovery"
              label="Recovery code"
              name="code"
              autoComplete="off"
              required
              hint="Each recovery code works once."
            />
          ) : (
            <AuthenticatorCodeField key="totp" hint="The 6-digit code of your authenticator app." />
          )}
          <Message kind="error">{error}</Message>
          <button type="submit" className="primary" disabled={busy}>
            Verify
          </button>{" "}
          <button
            type="button"
            className="link"
            onClick={() => {
              setError(null);
              setUseRecovery(!useRecovery);
            }}
          >
            {useRecovery ? "Use the authenticator code instead" : "Use a recovery code instead"}
          </button>
        </FocusedForm>
      )}
      <SocialButtons callbackURL={next} />
      <p>
        <Link href="/forgot-password">Forgot your password?</Link>
      </p>
      <p>
        No account yet? <Link href="/sign-up">Create one</Link>
      </p>
    </main>
  );
}
