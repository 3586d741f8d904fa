/**
 * `/account`: what the person manages for themselves (spec "Authentication"): profile, password, two-factor,
 * sessions, ways to sign in and organizations. Each security change is also mailed to them (src/auth/account-notices.ts).
 */
import { useState } from "react";
import { Message } from "../../shared/form.tsx";
import { useLocation } from "../../shared/router.tsx";
import { OrganizationsSection } from "./organizations-section.tsx";
import { PasswordSection, ProfileSection } from "./profile-section.tsx";
import { ProvidersSection } from "./providers-section.tsx";
import { SessionsSection } from "./sessions-section.tsx";
import { TwoFactorSection } from "./two-factor-section.tsx";

/** The account page (the default export: loaded lazily). */
export default function AccountPage() {
  const { query } = useLocation();
  // Bumped when the password changed: the other sessions ended, so the Sessions list is read again.
  const [sessionsVersion, setSessionsVersion] = useState(0);
  return (
    <>
      <h1>Account</h1>
      {query.get("email-changed") && <Message kind="success">Your new e-mail address is verified.</Message>}
      {query.get("error") && <Message kind="error">Linking failed: {query.get("error")}</Message>}
      <ProfileSection />
      <PasswordSection onChanged={() => setSessionsVersion((v) => v + 1)} />
      <TwoFactorSection />
      <SessionsSection version={sessionsVersion} />
      <ProvidersSection />
      <OrganizationsSection />
    </>
  );
}
