/** The `Viewer` shape: the authenticated principal of a request. */
import type { Principal } from "../access/index.ts";

/** Backing value of GraphQL `Viewer`. */
export type ViewerModel = Principal;
