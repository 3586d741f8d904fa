/**
 * Who is signed in, and the GraphQL client bound to that session. Signing in or out and switching
 * organization call {@link SessionState.refresh}, which rebuilds the client so its WebSocket authenticates anew.
 */

import { createContext, type ReactNode, useCallback, useContext, useEffect, useState } from "react";
import { Provider } from "urql";
import { getSession, type SessionUser } from "./auth-api.ts";
import { createSkiffClient, type SkiffClient } from "./client.ts";

/** What pages read from {@link useSession}. */
export interface SessionState {
  /** Undefined while loading, null when signed out. */
  user: SessionUser | null | undefined;
  /** Re-reads the session and replaces the GraphQL client. */
  refresh(): Promise<void>;
}

const SessionContext = createContext<SessionState>({ user: undefined, refresh: async () => {} });

/** The session of the page. */
export function useSession(): SessionState {
  return useContext(SessionContext);
}

/** Provides the session and a urql client for it. */
export function SessionProvider({ children }: { children: ReactNode }) {
  const [user, setUser] = useState<SessionUser | null | undefined>(undefined);
  const [skiff, setSkiff] = useState<SkiffClient>(() => createSkiffClient());
  const refresh = useCallback(async () => {
    const next = await getSession();
    setSkiff((old) => {
      old.dispose();
      return createSkiffClient();
    });
    setUser(next);
  }, []);
  useEffect(() => {
    getSession().then(setUser, () => setUser(null));
  }, []);
  return (
    <SessionContext.Provider value={{ user, refresh }}>
      <Provider value={skiff.client}>{children}</Provider>
    </SessionContext.Provider>
  );
}
