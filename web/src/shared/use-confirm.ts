/**
 * The state of an action behind a {@link ConfirmBox} (web/src/shared/form.tsx): whether its confirmation is open,
 * whether the action succeeded (the box then stays, its button disabled, until the page shows the result), and the
 * opener's and Cancel's handlers, which clear the page's earlier messages (feedback.tsx).
 */
import { useState } from "react";
import { useClearFeedback } from "./feedback.tsx";

/** One confirmable action's state and handlers; `onCancel` runs too when the person cancels. */
export function useConfirm(onCancel?: () => void) {
  const [open, setOpen] = useState(false);
  const [done, setDone] = useState(false);
  const clear = useClearFeedback();
  return {
    open,
    done,
    /** Opens the confirmation. */
    start: () => {
      clear();
      setOpen(true);
    },
    /** Cancel: closes it. */
    cancel: () => {
      clear();
      onCancel?.();
      setOpen(false);
    },
    /** Closes it without clearing the messages (the action went on elsewhere, or its outcome is shown). */
    close: () => setOpen(false),
    /** The action succeeded. */
    succeed: () => setDone(true),
  };
}
