/**
 * Deep links to an application (`/apps/<id>`, `/settings/deploy?app=<id>`) of another of the person's organizations
 * than the session's active one: the session switches to the application's organization first, so the header, the
 * page and the application always name the same organization (docs/dashboard.md). A page re-read because the session
 * was switched in another tab does not switch it back by itself (the tabs would take turns switching): it offers the
 * switch instead.
 */
import { type ReactNode, useCallback, useEffect } from "react";
import { useMutation, useQuery } from "urql";
import { describeError } from "../../shared/errors.ts";
import { Message } from "../../shared/form.tsx";
import { useViewer } from "../../shared/layout.tsx";
import { SET_ACTIVE_ORGANIZATION } from "../../shared/operations.ts";
import { useSession } from "../../shared/session.tsx";
import { APPLICATION_ORGANIZATION } from "./operations.ts";

/**
 * Renders `children` once application `applicationId`'s organization is the session's active one, switching the
 * session to it when it is not — or, when the page was re-read for a switch made elsewhere, offering that switch
 * with a button. An application that cannot be read (unknown, not granted) renders `children`, which say so.
 */
export function InApplicationOrganization({ applicationId, children }: { applicationId: string; children: ReactNode }) {
  const { viewer } = useViewer();
  const { refresh, switchedElsewhere } = useSession();
  const [read] = useQuery({ query: APPLICATION_ORGANIZATION, variables: { id: applicationId } });
  const [switched, setActive] = useMutation(SET_ACTIVE_ORGANIZATION);
  const target = read.data?.application?.project.organization;
  const elsewhere = viewer && target && viewer.viewer.activeOrganization?.id !== target.id ? target : null;
  const switchTo = elsewhere?.id;
  const switchNow = useCallback(
    (id: string) => setActive({ id }).then((result) => (result.error ? undefined : refresh())),
    [setActive, refresh],
  );
  useEffect(() => {
    if (switchTo && !switchedElsewhere) void switchNow(switchTo);
  }, [switchTo, switchedElsewhere, switchNow]);
  if (elsewhere) {
    if (switched.error) return <Message kind="error">{describeError(switched.error)}</Message>;
    if (switchedElsewhere && !switched.fetching) {
      return (
        <div role="status">
          <p>This application belongs to {elsewhere.name}; the organization was switched in another tab or window.</p>
          <button type="button" onClick={() => void switchNow(elsewhere.id)}>
            Switch to {elsewhere.name}
          </button>
        </div>
      );
    }
    return <p aria-live="polite">Switching to the application's organization, {elsewhere.name}…</p>;
  }
  if (!viewer || (read.fetching && !read.data && !read.error)) return <p aria-live="polite">Loading…</p>;
  return <>{children}</>;
}
