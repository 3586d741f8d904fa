/** Organizations, their plans and memberships (tables owned with better-auth: `organizations`, `members`). */
import { BaseModel } from "../../db/base-model.ts";

/** A workspace (spec: Organization and access resources). */
export class Organization extends BaseModel {
  static override tableName = "organizations";
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

/** Role of a member (spec: Role table). */
export type Role = "owner" | "admin" | "member";

/** Membership of a user in an organization. */
export class Member extends BaseModel {
  static override tableName = "members";
  static override idKind = "member" as const;
  declare organizationId: string;
  declare userId: string;
  declare role: Role;
  declare createdAt: Date;
}

/** Limits a `member` to one project or one application (spec: per-project grants). */
export class MemberGrant extends BaseModel {
  static override tableName = "member_grants";
  static override idKind = "grant" as const;
  declare memberId: string;
  declare projectId: string | null;
  declare applicationId: string | null;
  declare createdAt: Date;
}

/** A person with an account (table owned with better-auth: `users`). */
export class User extends BaseModel {
  static override tableName = "users";
  static override idKind = "user" as const;
  declare email: string;
  declare name: string;
  declare emailVerified: boolean;
  declare twoFactorEnabled: boolean;
  declare createdAt: Date;
}
