/**
 * The one place that decides what a role may do (spec: Role table). Resolvers, REST routes and
 * services ask {@link assertAllowed}; they never compare roles themselves.
 */
import { ForbiddenError } from "../../server/errors.ts";
import type { Role } from "../organizations/organization.model.ts";
import type { OrgAccess } from "./access-scope.ts";

/** Actions that need more than visibility. */
export type Action =
  | "project:create"
  | "project:delete"
  | "application:manage"
  | "application:deploy"
  | "database:manage"
  | "import:run"
  | "team:manage"
  | "billing:manage"
  | "organization:update";

const allowed: Record<Action, readonly Role[]> = {
  "project:create": ["owner", "admin"],
  "project:delete": ["owner", "admin"],
  "application:manage": ["owner", "admin"],
  "application:deploy": ["owner", "admin", "member"],
  "database:manage": ["owner", "admin"],
  "import:run": ["owner", "admin"],
  "team:manage": ["owner", "admin"],
  "billing:manage": ["owner"],
  "organization:update": ["owner", "admin"],
};

/** True when `role` may perform `action`. */
export function isAllowed(role: Role, action: Action): boolean {
  return allowed[action].includes(role);
}

/** @throws ForbiddenError when the caller's role in that organization does not allow `action`. */
export function assertAllowed(access: OrgAccess, action: Action): void {
  if (!isAllowed(access.role, action)) {
    throw new ForbiddenError(`Your role (${access.role}) does not allow ${action}`);
  }
}
