/** Module manifest: memberships, roles and grants of a caller (AccessScope) and the one authorization policy; contributes no schema. */
import { defineModule } from "../module.ts";

/** The access module. */
export const accessModule = defineModule({
  name: "access",
});
