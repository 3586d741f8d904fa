/** Entry of the dashboard: session, client and the page for the current path. */
import { lazy, StrictMode, Suspense, useEffect } from "react";
import { createRoot } from "react-dom/client";
import { AuditLogPage } from "./features/audit/audit-log-page.tsx";
import { AcceptInvitationPage } from "./features/auth/accept-invitation-page.tsx";
import { ForgotPasswordPage } from "./features/auth/forgot-password-page.tsx";
import { ResetPasswordPage } from "./features/auth/reset-password-page.tsx";
import { SignInPage } from "./features/auth/sign-in-page.tsx";
import { SignUpPage } from "./features/auth/sign-up-page.tsx";
import { ApplicationPage } from "./features/deployments/application-page.tsx";
import { DeploySettingsPage } from "./features/deployments/deploy-settings-page.tsx";
import { DocsThemePage } from "./features/docs-theming/docs-theme-page.tsx";
import { PaymentsPage } from "./features/payments/payments-page.tsx";
import { ProjectsPage } from "./features/projects/projects-page.tsx";
import { SettingsPage } from "./features/settings/settings-page.tsx";
import { ImportSitesPage } from "./features/site-imports/import-sites-page.tsx";
import { Layout } from "./shared/layout.tsx";
import { navigate, useLocation } from "./shared/router.tsx";
import { SessionProvider, useSession } from "./shared/session.tsx";
import "./styles.css";

/**
 * The account page, the API reference and the GraphQL explorer: in their own chunks, loaded on first visit (the
 * renderers are large; the account page carries the QR encoder), so the pages every visit loads stay as small.
 */
const AccountPage = lazy(() => import("./features/account/account-page.tsx"));
const ApiReferencePage = lazy(() => import("./features/api-docs/api-reference-page.tsx"));
const GraphqlExplorerPage = lazy(() => import("./features/api-docs/graphql-explorer-page.tsx"));

/** `/apps/<application id>`: the application page. */
const APP_PATH = /^\/apps\/([^/]+)$/;
/** `/projects/<project id>/payments`: the project's payment gateway services. */
const PAYMENTS_PATH = /^\/projects\/([^/]+)\/payments$/;

function Redirect({ to }: { to: string }) {
  useEffect(() => navigate(to, true), [to]);
  return null;
}

/** Pages that need a session: signed out, they send the person to sign in and back. */
function SignedIn({ children }: { children: React.ReactNode }) {
  const { user } = useSession();
  if (user === undefined) return <p aria-live="polite">Loading…</p>;
  if (user === null)
    return <Redirect to={`/sign-in?next=${encodeURIComponent(location.pathname + location.search)}`} />;
  return (
    <Layout>
      <Suspense fallback={<p aria-live="polite">Loading…</p>}>{children}</Suspense>
    </Layout>
  );
}

function App() {
  const { path } = useLocation();
  const { user } = useSession();
  useEffect(() => {
    const titles: Record<string, string> = {
      "/sign-in": "Sign in",
      "/sign-up": "Create an account",
      "/accept-invitation": "Invitation",
      "/forgot-password": "Forgot password",
      "/reset-password": "Choose a new password",
      "/account": "Account",
      "/docs/api": "API reference",
      "/docs/graphql": "GraphQL explorer",
      "/import-sites": "Imports",
      "/settings": "Settings",
      "/settings/deploy": "Deploy settings",
      "/settings/docs": "Docs theme",
      "/settings/audit": "Audit log",
      "/projects": "Projects",
    };
    const dynamic = APP_PATH.test(path) ? "Application" : PAYMENTS_PATH.test(path) ? "Payment gateway" : "Skiff";
    document.title = `${titles[path] ?? dynamic} · Skiff`;
  }, [path]);
  switch (path) {
    case "/sign-in":
      return <SignInPage />;
    case "/sign-up":
      return <SignUpPage />;
    case "/accept-invitation":
      return <AcceptInvitationPage />;
    case "/forgot-password":
      return <ForgotPasswordPage />;
    case "/reset-password":
      return <ResetPasswordPage />;
    case "/account":
      return (
        <SignedIn>
          <AccountPage />
        </SignedIn>
      );
    case "/docs/api":
      return (
        <SignedIn>
          <ApiReferencePage />
        </SignedIn>
      );
    case "/docs/graphql":
      return (
        <SignedIn>
          <GraphqlExplorerPage />
        </SignedIn>
      );
    case "/import-sites":
      return (
        <SignedIn>
          <ImportSitesPage />
        </SignedIn>
      );
    case "/settings":
      return (
        <SignedIn>
          <SettingsPage />
        </SignedIn>
      );
    case "/settings/deploy":
      return (
        <SignedIn>
          <DeploySettingsPage />
        </SignedIn>
      );
    case "/settings/docs":
      return (
        <SignedIn>
          <DocsThemePage />
        </SignedIn>
      );
    case "/settings/audit":
      return (
        <SignedIn>
          <AuditLogPage />
        </SignedIn>
      );
    case "/projects":
      return (
        <SignedIn>
          <ProjectsPage />
        </SignedIn>
      );
    default: {
      const payments = PAYMENTS_PATH.exec(path);
      if (payments?.[1])
        return (
          <SignedIn>
            <PaymentsPage key={payments[1]} projectId={decodeURIComponent(payments[1])} />
          </SignedIn>
        );
      const app = APP_PATH.exec(path);
      if (app?.[1])
        return (
          <SignedIn>
            <ApplicationPage key={app[1]} id={decodeURIComponent(app[1])} />
          </SignedIn>
        );
      if (user === undefined) return null;
      return <Redirect to={user ? "/import-sites" : "/sign-in"} />;
    }
  }
}

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <SessionProvider>
      <App />
    </SessionProvider>
  </StrictMode>,
);
