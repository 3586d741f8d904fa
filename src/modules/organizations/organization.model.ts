/** Organizations, their plans, and users (tables shared with better-auth: `organizations`, `users`). */
import { BaseModel } from "../../db/base-model.ts";
import { organizationTable, userTable } from "./organization.tables.ts";

/** A workspace (spec: Organization and access resources). */
export class Organization extends BaseModel {
  static override tableName = organizationTable.table;
  static override idKind = "organization" as const;
  declare name: string;
  declare slug: string;
  declare planId: string;
  declare createdAt: Date;
}

/** A plan: quotas (null = unlimited) and feature flags such as `webhooks`, `ai_assistant`. */
export class Plan extends BaseModel {
  static override tableName = "plans";
  static override idKind = "plan" as const;
  declare name: string;
  declare maxProjects: number | null;
  declare maxApplications: number | null;
  declare maxDatabases: number | null;
  declare maxDomains: number | null;
  declare features: string[];
}

/** Backing value of GraphQL `Plan`: a plan as seen by one organization (its usage is the organization's). */
export interface OrganizationPlan {
  plan: Plan;
  organizationId: string;
}

/** A person with an account (table owned with better-auth: `users`). */
export class User extends BaseModel {
  static override tableName = userTable.table;
  static override idKind = "user" as const;
  declare email: string;
  declare name: string;
  declare emailVerified: boolean;
  declare twoFactorEnabled: boolean;
  declare createdAt: Date;
}
