/** The `Viewer` shape: the authenticated principal of a request. */
import type { Principal } from "../access/access-scope.ts";

/** Backing value of GraphQL `Viewer`. */
export type ViewerModel = Principal;
