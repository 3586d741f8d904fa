/** Module manifest: outgoing mail: SMTP or the local outbox. */
import { defineModule } from "../module.ts";

/** The mail module. */
export const mailModule = defineModule({
  name: "mail",
});
