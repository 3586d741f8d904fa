/** The frame of signed-in pages: navigation, organization switcher, the person and sign-out. */
import type { ReactNode } from "react";
import { useMutation, useQuery } from "urql";
import { signOut } from "./auth-api.ts";
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

/** Page frame with a skip link, header navigation and the main landmark. */
export function Layout({ children }: { children: ReactNode }) {
  const { user, refresh } = useSession();
  const { path } = useLocation();
  return (
    <>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="top">
        <strong className="brand">Skiff</strong>
        <nav aria-label="Main">
          <Link href="/projects" aria-current={path.startsWith("/projects") ? "page" : undefined}>
            Projects
          </Link>
          <Link href="/import-sites" aria-current={path === "/import-sites" ? "page" : undefined}>
            Imports
          </Link>
          <Link
            href="/settings/deploy"
            aria-current={path === "/settings/deploy" || path.startsWith("/apps/") ? "page" : undefined}
          >
            Deploy
          </Link>
          <Link href="/settings/docs" aria-current={path === "/settings/docs" ? "page" : undefined}>
            Docs theme
          </Link>
          <Link href="/settings/audit" aria-current={path === "/settings/audit" ? "page" : undefined}>
            Audit log
          </Link>
          <Link href="/settings" aria-current={path === "/settings" ? "page" : undefined}>
            Settings
          </Link>
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
      <main id="main">{children}</main>
    </>
  );
}
