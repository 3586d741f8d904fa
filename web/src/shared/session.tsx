/**
 * Who is signed in, and the GraphQL client bound to that session. Signing in or out and switching
 * organization call {@link SessionState.refresh}, which rebuilds the client so its WebSocket authenticates anew.
 * The client also asks for a new one when an answer was read in another organization than its first (the session's
 * active organization was switched in another tab): the page then re-reads everything in the session's organization.
 * A refresh made in one tab is announced to the browser's other tabs of the dashboard (a `BroadcastChannel`), which
 * read at once instead of on their next read, so a switch shows in every tab without waiting for a click.
 */

import { createContext, Fragment, type ReactNode, useCallback, useContext, useEffect, useRef, useState } from "react";
import { Provider } from "urql";
import { getSession, type SessionUser } from "./auth-api.ts";
import { createSkiffClient, type SkiffClient } from "./client.ts";
import { VIEWER } from "./operations.ts";

/** The channel on which a tab announces a refresh of the session (a switch, a sign-in or sign-out) to the others. */
const SESSION_CHANNEL = "skiff-session";

/** What pages read from {@link useSession}. */
export interface SessionState {
  /** Undefined while loading, null when signed out. */
  user: SessionUser | null | undefined;
  /** Re-reads the session and replaces the GraphQL client. */
  refresh(): Promise<void>;
  /**
   * True once the page re-read its data because the session's active organization was switched elsewhere (another
   * tab); false again after {@link SessionState.refresh} (a switch, sign-in or sign-out made in this page).
   */
  switchedElsewhere: boolean;
}

const SessionContext = createContext<SessionState>({
  user: undefined,
  refresh: async () => {},
  switchedElsewhere: false,
});

/** The session of the page. */
export function useSession(): SessionState {
  return useContext(SessionContext);
}

/** Provides the session and a urql client for it. */
export function SessionProvider({ children }: { children: ReactNode }) {
  const [user, setUser] = useState<SessionUser | null | undefined>(undefined);
  /** How many times the page was re-read for a switch made elsewhere: the pages below start afresh each time. */
  const [elsewhere, setElsewhere] = useState(0);
  const [switchedElsewhere, setSwitchedElsewhere] = useState(false);
  // A client whose answers moved to another organization asks for the next client through this.
  const replaceClient = useRef<(fromElsewhere: boolean) => Promise<void>>(async () => {});
  const build = useCallback(() => createSkiffClient(() => void replaceClient.current(true)), []);
  const [skiff, setSkiff] = useState<SkiffClient>(build);
  replaceClient.current = async (fromElsewhere: boolean) => {
    const next = await getSession();
    setSkiff((old) => {
      old.dispose();
      return build();
    });
    setUser(next);
    setSwitchedElsewhere(fromElsewhere);
    // What the pages held (messages, secrets shown once, forms) was the other organization's.
    if (fromElsewhere) setElsewhere((n) => n + 1);
  };
  const current = useRef(skiff);
  current.current = skiff;
  const channel = useRef<BroadcastChannel | null>(null);
  const refresh = useCallback(async () => {
    await replaceClient.current(false);
    channel.current?.postMessage("refreshed");
  }, []);
  useEffect(() => {
    getSession().then(setUser, () => setUser(null));
  }, []);
  useEffect(() => {
    if (typeof BroadcastChannel === "undefined") return;
    const own = new BroadcastChannel(SESSION_CHANNEL);
    channel.current = own;
    // Another tab changed the session: read now; an answer in another organization makes the page start afresh.
    own.onmessage = () => {
      void current.current.client.query(VIEWER, {}, { requestPolicy: "network-only" }).toPromise();
    };
    return () => {
      own.close();
      channel.current = null;
    };
  }, []);
  return (
    <SessionContext.Provider value={{ user, refresh, switchedElsewhere }}>
      <Provider value={skiff.client}>
        <Fragment key={elsewhere}>{children}</Fragment>
      </Provider>
    </SessionContext.Provider>
  );
}
