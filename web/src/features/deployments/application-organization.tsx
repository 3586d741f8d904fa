/**
 * Deep links to an application (`/apps/<id>`, `/settings/deploy?app=<id>`) of another of the person's organizations
 * than the session's active one: the session switches to the application's organization first, so the header, the
 * page and the application always name the same organization (docs/dashboard.md). Only the link the page was opened
 * with switches by itself: after a switch made later (in this tab's switcher, or in another tab, which re-reads this
 * page) the page offers the switch back instead of making it — else the switch would not hold, and two tabs would take
 * turns switching.
 */
import { type ReactNode, useCallback, useEffect, useRef, useState } from "react";
import { useMutation, useQuery } from "urql";
import { describeError } from "../../shared/errors.ts";
import { Message } from "../../shared/form.tsx";
import { useViewer } from "../../shared/layout.tsx";
import { SET_ACTIVE_ORGANIZATION } from "../../shared/operations.ts";
import { useSession } from "../../shared/session.tsx";
import { APPLICATION_ORGANIZATION } from "./operations.ts";

/**
 * Renders `children` once application `applicationId`'s organization is the session's active one, switching the
 * session to it when it is not on opening — or, after a later switch, offering that switch with a button. An
 * application that cannot be read (unknown, not granted) renders `children`, which say so.
 */
export function InApplicationOrganization({ applicationId, children }: { applicationId: string; children: ReactNode }) {
  const { viewer } = useViewer();
  const { refresh, switchedElsewhere } = useSession();
  const [read] = useQuery({ query: APPLICATION_ORGANIZATION, variables: { id: applicationId } });
  const [switched, setActive] = useMutation(SET_ACTIVE_ORGANIZATION);
  const target = read.data?.application?.project.organization;
  const elsewhere = viewer && target && viewer.viewer.activeOrganization?.id !== target.id ? target : null;
  const switchTo = elsewhere?.id;
  // The deep link the page was opened with switches by itself, once. A later switch (this tab's switcher, another
  // tab's) is the person's: the page then offers to switch back rather than doing it.
  const opened = useRef(!switchedElsewhere);
  const [switching, setSwitching] = useState(false);
  const switchNow = useCallback(
    async (id: string) => {
      setSwitching(true);
      const result = await setActive({ id });
      if (result.error) setSwitching(false);
      else await refresh();
    },
    [setActive, refresh],
  );
  useEffect(() => {
    if (!viewer || !read.data) return;
    const first = opened.current;
    opened.current = false;
    if (switchTo && first) void switchNow(switchTo);
  }, [viewer, read.data, switchTo, switchNow]);
  useEffect(() => {
    if (!switchTo) setSwitching(false);
  }, [switchTo]);
  if (elsewhere) {
    if (switched.error) return <Message kind="error">{describeError(switched.error)}</Message>;
    if (switching || opened.current) {
      return <p aria-live="polite">Switching to the application's organization, {elsewhere.name}…</p>;
    }
    return (
      <div role="status">
        <p>
          This application belongs to {elsewhere.name}, and the session's organization was switched since the page was
          opened.
        </p>
        <button type="button" onClick={() => void switchNow(elsewhere.id)}>
          Switch to {elsewhere.name}
        </button>
      </div>
    );
  }
  if (!viewer || (read.fetching && !read.data && !read.error)) return <p aria-live="polite">Loading…</p>;
  return <>{children}</>;
}
