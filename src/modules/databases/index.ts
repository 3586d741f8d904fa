/** Module manifest: database services of environments (created by site imports; read through the applications loaders). */
import { defineModule } from "../module.ts";

/** The databases module. */
export const databasesModule = defineModule({
  name: "databases",
});
