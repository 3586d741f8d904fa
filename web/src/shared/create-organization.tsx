/** The form shown to a signed-in person without an organization, on every page that needs one. */
import { useMutation } from "urql";
import { describeError } from "./errors.ts";
import { Field, Message } from "./form.tsx";
import { CREATE_ORGANIZATION, SET_ACTIVE_ORGANIZATION } from "./operations.ts";
import { useSession } from "./session.tsx";

/** For a person without an organization: creates one and makes it active. */
export function CreateOrganization() {
  const [state, create] = useMutation(CREATE_ORGANIZATION);
  const [, setActive] = useMutation(SET_ACTIVE_ORGANIZATION);
  const { refresh } = useSession();
  return (
    <form
      className="card narrow"
      onSubmit={async (e) => {
        e.preventDefault();
        const name = String(new FormData(e.currentTarget).get("name"));
        const r = await create({ input: { name } });
        if (r.data) {
          await setActive({ id: r.data.createOrganization.id });
          await refresh();
        }
      }}
    >
      <h2>Create your organization</h2>
      <p>You are not a member of any organization yet. Create one, or open an invitation link you received.</p>
      <Field label="Organization name" name="name" required maxLength={100} />
      <Message kind="error">{describeError(state.error)}</Message>
      <button type="submit" className="primary" disabled={state.fetching}>
        Create organization
      </button>
    </form>
  );
}
