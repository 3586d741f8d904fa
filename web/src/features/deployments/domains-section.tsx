import { useClearFeedback, useNotice } from "../../shared/feedback.tsx";
import { ConfirmBox, Field, Message } from "../../shared/form.tsx";
import { TableScroll } from "../../shared/table-scroll.tsx";
import { useAction } from "../../shared/use-action.ts";
import { useConfirm } from "../../shared/use-confirm.ts";
import { DomainEdit } from "./domain-edit.tsx";
import { ADD_DOMAIN, type ApplicationManageFields, REMOVE_DOMAIN } from "./manage-operations.ts";

type DomainRowData = ApplicationManageFields["domains"][number];

/** One domain's row: host (a link), port, HTTPS state, and Remove with its confirmation. */
function DomainRow({ app, domain, manage }: { app: ApplicationManageFields; domain: DomainRowData; manage: boolean }) {
  const confirm = useConfirm();
  const remove = useAction(REMOVE_DOMAIN);
  return (
    <tr data-domain={domain.host}>
      <th scope="row">
        <a href={`${domain.https ? "https" : "http"}://${domain.host}`} target="_blank" rel="noreferrer">
          {domain.host}
        </a>
      </th>
      <td>{domain.port ?? `${app.port} (application port)`}</td>
      <td data-testid="domain-https">
        {domain.https ? "HTTPS: certificate requested (issued once DNS points at the ingress)" : "HTTP only"}
      </td>
      {manage && (
        <td>
          {confirm.open ? (
            <ConfirmBox
              label={`Confirm removing ${domain.host}`}
              confirmText={`Confirm: remove ${domain.host}`}
              busy={remove.state.fetching}
              done={confirm.done}
              onCancel={confirm.cancel}
              onConfirm={async () => {
                // Removed: the row leaves with the re-read application (focus then lands on the section).
                const r = await remove.exec({ applicationId: app.id, host: domain.host });
                if (!r.error) confirm.succeed();
              }}
            >
              Stops routing <code>{domain.host}</code> to {app.name} (and its certificate) with the next deployment; the
              host becomes free for any application.
            </ConfirmBox>
          ) : (
            <div className="row">
              <DomainEdit domain={domain} appPort={app.port} />
              <button type="button" aria-label={`Remove ${domain.host}`} onClick={confirm.start}>
                Remove
              </button>
            </div>
          )}
          <Message kind="error">{remove.error}</Message>
        </td>
      )}
    </tr>
  );
}

/** The Domains section of `app`; `manage`: the viewer may change them (owners, admins). */
export function DomainsSection({ app, manage }: { app: ApplicationManageFields; manage: boolean }) {
  const add = useAction(ADD_DOMAIN, undefined, ["host", "port"]);
  const [notice, setNotice] = useNotice();
  const clear = useClearFeedback();
  return (
    <section className="card" aria-labelledby="domains-title">
      <h2 id="domains-title">Domains</h2>
      {app.domains.length === 0 ? (
        <p>No custom domains.</p>
      ) : (
        <TableScroll label={`Domains of ${app.name}, table`}>
          <table aria-label={`Domains of ${app.name}`}>
            <thead>
              <tr>
                <th scope="col">Host</th>
                <th scope="col">Port</th>
                <th scope="col">HTTPS</th>
                {manage && <th scope="col">Actions</th>}
              </tr>
            </thead>
            <tbody>
              {app.domains.map((d) => (
                <DomainRow key={d.id} app={app} domain={d} manage={manage} />
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      {manage && (
        <form
          className="row"
          aria-label="Add a domain"
          onChange={clear}
          onSubmit={async (e) => {
            e.preventDefault();
            setNotice(null);
            const formEl = e.currentTarget;
            const data = new FormData(formEl);
            const host = String(data.get("host") ?? "").trim();
            const port = String(data.get("port") ?? "").trim();
            const r = await add.exec({
              input: {
                applicationId: app.id,
                host,
                port: port ? Number(port) : null,
                https: data.get("https") === "on",
              },
            });
            if (!r.error) {
              formEl.reset();
              setNotice(`${host} added.`);
            }
          }}
        >
          <Field label="Host" name="host" required placeholder="shop.example.com" error={add.fields.host?.join(", ")} />
          <Field
            label="Port (optional)"
            name="port"
            type="number"
            min={1}
            max={65535}
            placeholder={String(app.port)}
            error={add.fields.port?.join(", ")}
          />
          <label className="check">
            <input type="checkbox" name="https" defaultChecked /> HTTPS (request a certificate)
          </label>
          <button type="submit" className="primary" disabled={add.state.fetching}>
            Add domain
          </button>
        </form>
      )}
      <Message kind="error">{add.error}</Message>
      {notice && <Message kind="success">{notice}</Message>}
    </section>
  );
}
