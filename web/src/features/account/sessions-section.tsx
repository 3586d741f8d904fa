/** Where the account is signed in: device, address, last seen, this session marked; sign one or all others out. */
import { Message } from "../../shared/form.tsx";
import { TableScroll } from "../../shared/table-scroll.tsx";
import { listSessions, revokeOtherSessions, revokeSession } from "./account-api.ts";
import { describeDevice } from "./device.ts";
import { useAuthResource } from "./use-auth-resource.ts";

/** The sessions section of the account page; a new `version` reads the list again (e.g. a password change ended the others). */
export function SessionsSection({ version = 0 }: { version?: number }) {
  const { data: state, error, act } = useAuthResource(listSessions, version);
  const others = state?.sessions.filter((s) => s.id !== state.currentId) ?? [];
  return (
    <section className="card" aria-labelledby="sessions-heading">
      <h2 id="sessions-heading">Sessions</h2>
      {state ? (
        <TableScroll label="Sessions list">
          <table>
            <caption className="hint">Where your account is signed in, most recently seen first.</caption>
            <thead>
              <tr>
                <th scope="col">Device</th>
                <th scope="col">Address</th>
                <th scope="col">Last seen</th>
                <th scope="col">Action</th>
              </tr>
            </thead>
            <tbody>
              {[...state.sessions]
                .sort((a, b) => b.updatedAt.localeCompare(a.updatedAt))
                .map((s) => (
                  <tr key={s.id} data-session-id={s.id}>
                    <td>
                      {describeDevice(s.userAgent)}
                      {s.id === state.currentId && <strong className="badge"> (this session)</strong>}
                    </td>
                    <td>{s.ipAddress || "unknown"}</td>
                    <td>
                      <time dateTime={s.updatedAt}>{new Date(s.updatedAt).toLocaleString()}</time>
                    </td>
                    <td>
                      {s.id !== state.currentId && (
                        <button
                          type="button"
                          aria-label={`Sign out ${describeDevice(s.userAgent)}, last seen ${new Date(s.updatedAt).toLocaleString()}`}
                          onClick={() => act(() => revokeSession(s.token))}
                        >
                          Sign out
                        </button>
                      )}
                    </td>
                  </tr>
                ))}
            </tbody>
          </table>
        </TableScroll>
      ) : (
        <p aria-live="polite">Loading…</p>
      )}
      {others.length > 0 && (
        <button type="button" className="danger" onClick={() => act(revokeOtherSessions)}>
          Sign out all other sessions
        </button>
      )}
      <Message kind="error">{error}</Message>
    </section>
  );
}
