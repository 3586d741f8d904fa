/** The frame of signed-in pages: navigation, organization switcher, the person and sign-out. */
import type { ReactNode } from "react";
import { useMutation, useQuery } from "urql";
import { signOut } from "./auth-api.ts";
import { Message } from "./form.tsx";
import { SET_ACTIVE_ORGANIZATION, VIEWER } from "./operations.ts";
import { Link, navigate, useLocation } from "./router.tsx";
import { useSession } from "./session.tsx";

/** Reads the viewer (person, active organization, role, organizations). */
export function useViewer() {
  const [result, reexecute] = useQuery({ query: VIEWER });
  return { viewer: result.data, fetching: result.fetching, error: result.error, reexecute };
}

/** The organization switcher: a labelled select; switching rebuilds the client (new WebSocket context). */
export function OrgSwitcher() {
  const { viewer } = useViewer();
  const { refresh } = useSession();
  const [, setActive] = useMutation(SET_ACTIVE_ORGANIZATION);
  if (!viewer || viewer.organizations.length === 0) return null;
  return (
    <label className="org-switcher">
      Organization{" "}
      <select
        value={viewer.viewer.activeOrganization?.id ?? ""}
        onChange={async (e) => {
          const result = await setActive({ id: e.target.value });
          if (!result.error) await refresh();
        }}
      >
        {viewer.organizations.map((o) => (
          <option key={o.id} value={o.id}>
            {o.name} ({o.viewerRole})
          </option>
        ))}
      </select>
    </label>
  );
}

/** Roles that manage the organization: the docs theme and the audit log are theirs. */
const MANAGERS = ["owner", "admin"];

/**
 * The header's links: every page of the dashboard is one of them or is reached from one (applications and payment
 * panels from Projects and Deploy). Each says when it is the current page. A link with roles is shown only to those
 * roles in the active organization (the others' pages would only answer with a refusal).
 */
const NAVIGATION: [href: string, label: string, current: (path: string) => boolean, roles?: string[]][] = [
  ["/projects", "Projects", (p) => p.startsWith("/projects")],
  ["/import-sites", "Imports", (p) => p === "/import-sites"],
  ["/settings/deploy", "Deploy", (p) => p === "/settings/deploy" || p.startsWith("/apps/")],
  ["/settings/docs", "Docs theme", (p) => p === "/settings/docs", MANAGERS],
  ["/settings/audit", "Audit log", (p) => p === "/settings/audit", MANAGERS],
  ["/settings", "Settings", (p) => p === "/settings"],
  ["/docs/api", "API reference", (p) => p === "/docs/api"],
  ["/docs/graphql", "GraphQL explorer", (p) => p === "/docs/graphql"],
  ["/account", "Account", (p) => p === "/account"],
];

/** Page frame with a skip link, header navigation and the main landmark. */
export function Layout({ children }: { children: ReactNode }) {
  const { user, refresh, switchedElsewhere } = useSession();
  const { path } = useLocation();
  const { viewer } = useViewer();
  const role = viewer?.viewer.role ?? null;
  const active = viewer?.viewer.activeOrganization;
  return (
    <>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="top">
        <strong className="brand">Skiff</strong>
        <nav aria-label="Main">
          {NAVIGATION.filter(([, , , roles]) => !roles || (role !== null && roles.includes(role))).map(
            ([href, label, current]) => (
              <Link key={href} href={href} aria-current={current(path) ? "page" : undefined}>
                {label}
              </Link>
            ),
          )}
        </nav>
        <OrgSwitcher />
        <span className="who">{user?.email}</span>
        <button
          type="button"
          onClick={async () => {
            await signOut();
            await refresh();
            navigate("/sign-in");
          }}
        >
          Sign out
        </button>
      </header>
      <main id="main">
        {switchedElsewhere && active && (
          <Message kind="info">
            The organization was switched in another tab or window: this page shows {active.name}.
          </Message>
        )}
        {children}
      </main>
    </>
  );
}
