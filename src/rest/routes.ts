/**
 * Every REST compatibility row, gathered from the modules (`src/modules/<m>/<m>.rest.ts`).
 */
import { agentRoutes } from "../modules/agent/agent.rest.ts";
import { siteImportRoutes } from "../modules/imports/site-import.rest.ts";
import type { AnyRestRoute } from "../shared/rest-route.ts";

/** The whole table, in registration order. */
export const restRoutes: readonly AnyRestRoute[] = [...agentRoutes, ...siteImportRoutes];
