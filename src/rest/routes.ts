/**
 * Every REST compatibility row, gathered from the modules (`src/modules/<m>/<m>.rest.ts`).
 */
import type { RestRoute } from "./route-table.ts";

/** The whole table, in registration order. */
export const restRoutes: readonly RestRoute[] = [];
