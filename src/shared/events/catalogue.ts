/**
 * The webhook event catalogue (spec "Learning platform webhooks" → Events): every event Skiff delivers,
 * with its category, a description and the shape of its `data`. One source of truth: each shape is a zod schema;
 * ingestion (`POST /api/v1/orgs/{org_id}/events`, `publishWebhookEvent`) validates `data` with it, and
 * `GET …/webhooks/events` publishes it converted to JSON Schema 2020-12 (`z.toJSONSchema`, input form: objects
 * accept further properties, so a producer may carry more than the catalogue names).
 *
 * Shapes: `course_completed` is the spec's (`user {user_uuid, email, username}`, `course {course_uuid, name}`);
 * the others follow the same style: entities as small objects keyed `<entity>_uuid`, the acting person as a
 * `user`-shaped object (`invited_by`, `changed_by`, …), organization-level events carry `org_id` (integer).
 * The `Deployments` category (deploy.*, app.health_changed) is Skiff's own (src/modules/deployments emits them), and
 * so is `Resources` (application.*, database.*, domain.*, environment.*: the management mutations of the
 * applications module; project.*: the projects module; values of variables and passwords are never part of an
 * event).
 *
 * It is also the catalogue of domain events: producers emit them with `events.emit` (src/modules/events.ts)
 * and never import a consumer; webhooks subscribes through its manifest. It lives below the modules so every
 * producer may import it.
 */
import { z } from "zod";

/** `user`: the spec's user reference. */
const user = z
  .object({
    user_uuid: z.string().min(1).describe("The user's id"),
    email: z.string().min(3).describe("The user's e-mail address"),
    username: z.string().describe("The user's display name"),
  })
  .describe("A user");
const course = z.object({ course_uuid: z.string().min(1), name: z.string() }).describe("A course");
const activity = z
  .object({ activity_uuid: z.string().min(1), activity_type: z.string().describe("e.g. video, document, quiz") })
  .describe("An activity of a course");
const assignment = z.object({ assignment_uuid: z.string().min(1), title: z.string() }).describe("An assignment");
const version = z
  .object({ version_uuid: z.string().min(1), version_number: z.number().int().min(1) })
  .describe("A saved version of an activity");
const discussion = z.object({ discussion_uuid: z.string().min(1), title: z.string() }).describe("A discussion");
const board = z.object({ board_uuid: z.string().min(1), name: z.string() }).describe("A collaboration board");
const usergroup = z.object({ usergroup_uuid: z.string().min(1), name: z.string() }).describe("A user group");
const pack = z.object({ pack_uuid: z.string().min(1), name: z.string() }).describe("A subscription pack");
const orgId = z.number().int().describe("The organization's integer id (as the envelope's org_id)");
const role = z.string().min(1).describe("A role name, e.g. owner, admin, member");
const isoTime = z.string().describe("ISO 8601 time");
const deployment = z
  .object({
    deployment_id: z.string().min(1),
    status: z.string().describe("queued, running, done, error or cancelled"),
    title: z.string().optional().describe("e.g. the commit message or Manual deployment"),
    trigger: z.string().optional().describe("manual, api, push, import or redeploy"),
    commit_sha: z.string().optional().describe("The commit deployed, when known"),
    created_at: isoTime.optional(),
    started_at: isoTime.optional(),
    finished_at: isoTime.optional(),
  })
  .describe("A deployment");
const application = z
  .object({ application_id: z.string().min(1), name: z.string(), project_id: z.string().optional() })
  .describe("An application");
const health = z.enum(["healthy", "unhealthy", "unknown"]);
const environment = z
  .object({ environment_id: z.string().min(1), name: z.string(), project_id: z.string().min(1) })
  .describe("An environment of a project");
const database = z
  .object({
    database_id: z.string().min(1),
    type: z.string().describe("mariadb, mysql, postgres or mongodb"),
    name: z.string(),
    project_id: z.string().min(1),
    environment_id: z.string().min(1),
  })
  .describe("A database service (never its password)");
const domain = z
  .object({
    domain_id: z.string().min(1),
    host: z.string().min(1),
    port: z.number().int().nullable().optional().describe("Container port; null: the application's"),
    https: z.boolean().optional(),
  })
  .describe("A custom domain");
const project = z.object({ project_id: z.string().min(1), name: z.string() }).describe("A project");
const actor = z.string().optional().describe("The user id of whoever made the change");
const affected = z
  .array(z.string().min(1))
  .describe("Applications whose variables or routing changed as a consequence (they need a deployment)");

/** Categories in display order (the spec's, plus Skiff's Deployments and Resources). */
export const WEBHOOK_CATEGORIES = [
  "System",
  "Learning Progress",
  "User & Access",
  "Course Lifecycle",
  "Content Management",
  "Collaboration",
  "Community",
  "Groups",
  "Subscriptions",
  "Organization",
  "Deployments",
  "Resources",
] as const;

/** One category of {@link WEBHOOK_CATEGORIES}. */
export type WebhookCategory = (typeof WEBHOOK_CATEGORIES)[number];

/** One event of the catalogue. */
export interface WebhookEventDefinition {
  name: string;
  category: WebhookCategory;
  description: string;
  /** Validates the event's `data` (unknown properties are kept, not refused). */
  data: z.ZodObject;
}

const e = <const Name extends string, const Shape extends z.ZodRawShape>(
  name: Name,
  category: WebhookCategory,
  description: string,
  shape: Shape,
) => ({ name, category, description, data: z.object(shape) }) satisfies WebhookEventDefinition;

/**
 * Every event, in catalogue order: the spec's 39, the 4 deploy events and the 15 resource events. Typed per entry, so
 * {@link DomainEventName} and {@link DomainEventData} follow it (src/modules/events.ts emits with them).
 */
export const WEBHOOK_EVENTS = [
  e("ping", "System", "Sent by the test operation to check an endpoint.", {
    message: z.string().describe("A fixed greeting"),
  }),
  e("course_completed", "Learning Progress", "A user completed every activity of a course.", { user, course }),
  e("course_enrolled", "Learning Progress", "A user enrolled in a course.", { user, course }),
  e("activity_completed", "Learning Progress", "A user completed an activity.", { user, activity, course }),
  e("assignment_submitted", "Learning Progress", "A user submitted an assignment.", { user, assignment, course }),
  e("assignment_graded", "Learning Progress", "A submitted assignment was graded.", {
    user,
    assignment,
    course,
    grade: z.number().describe("The grade given"),
    graded_by: user.optional(),
  }),
  e("certificate_claimed", "Learning Progress", "A user claimed the certificate of a completed course.", {
    user,
    course,
    certificate: z.object({ certificate_uuid: z.string().min(1) }),
  }),
  e("user_signed_up", "User & Access", "A person created an account.", { user }),
  e("user_email_verified", "User & Access", "A user verified their e-mail address.", { user }),
  e("user_role_changed", "User & Access", "A member's role in an organization changed.", {
    org_id: orgId,
    user,
    old_role: role,
    new_role: role,
    changed_by: user.optional(),
  }),
  e("user_invited_to_org", "User & Access", "People were invited to join an organization.", {
    org_id: orgId,
    emails: z.array(z.string().min(3)).min(1),
    invite_code_uuid: z.string().min(1).describe("The invitation's id"),
    invited_by: user,
    role: role.optional(),
  }),
  e("user_removed_from_org", "User & Access", "A member was removed from (or left) an organization.", {
    org_id: orgId,
    user,
    removed_by: user.optional(),
  }),
  e("course_created", "Course Lifecycle", "A course was created.", { course, created_by: user }),
  e("course_published", "Course Lifecycle", "A course was made public.", { course, published_by: user.optional() }),
  e("course_deleted", "Course Lifecycle", "A course was deleted.", { course, deleted_by: user.optional() }),
  e("course_update_published", "Course Lifecycle", "An update post of a course was published.", {
    course,
    update: z.object({ update_uuid: z.string().min(1), title: z.string() }),
  }),
  e("activity_version_created", "Content Management", "A new version of an activity was saved.", {
    activity,
    version,
    user,
  }),
  e("activity_version_restored", "Content Management", "An earlier version of an activity was restored.", {
    activity,
    version,
    user,
  }),
  e("course_contributor_added", "Content Management", "A user became a contributor of a course.", {
    course,
    user,
    role: role.optional(),
  }),
  e("course_contributor_removed", "Content Management", "A contributor was removed from a course.", { course, user }),
  e("collection_created", "Content Management", "A collection of courses was created.", {
    collection: z.object({ collection_uuid: z.string().min(1), name: z.string() }),
    created_by: user,
  }),
  e("podcast_episode_created", "Content Management", "An episode was added to a podcast.", {
    podcast: z.object({ podcast_uuid: z.string().min(1), name: z.string() }),
    episode: z.object({ episode_uuid: z.string().min(1), title: z.string() }),
  }),
  e("board_created", "Collaboration", "A collaboration board was created.", { board, created_by: user }),
  e("board_member_added", "Collaboration", "A user was added to a board.", { board, user }),
  e("playground_created", "Collaboration", "A playground was created.", {
    playground: z.object({ playground_uuid: z.string().min(1), name: z.string() }),
    created_by: user,
  }),
  e("discussion_posted", "Community", "A discussion was started.", { discussion, user, course: course.optional() }),
  e("comment_created", "Community", "A comment was posted in a discussion.", {
    comment: z.object({ comment_uuid: z.string().min(1) }),
    discussion,
    user,
  }),
  e("discussion_pinned", "Community", "A discussion was pinned.", { discussion, user }),
  e("discussion_locked", "Community", "A discussion was locked.", { discussion, user }),
  e("discussion_vote_cast", "Community", "A user voted on a discussion.", {
    discussion,
    user,
    vote: z.enum(["up", "down"]),
  }),
  e("usergroup_created", "Groups", "A user group was created.", { usergroup, created_by: user }),
  e("usergroup_deleted", "Groups", "A user group was deleted.", { usergroup }),
  e("usergroup_users_added", "Groups", "Users were added to a user group.", {
    usergroup,
    user_uuids: z.array(z.string().min(1)).min(1),
  }),
  e("usergroup_resources_added", "Groups", "Resources (courses, …) were added to a user group.", {
    usergroup,
    resource_uuids: z.array(z.string().min(1)).min(1),
  }),
  e("pack_activated", "Subscriptions", "A subscription pack was activated for the organization.", {
    org_id: orgId,
    pack,
  }),
  e("pack_deactivated", "Subscriptions", "A subscription pack was deactivated.", { org_id: orgId, pack }),
  e("org_signup_method_changed", "Organization", "How people may join the organization changed.", {
    org_id: orgId,
    signup_method: z.string().min(1).describe("e.g. open, invite_only"),
    changed_by: user.optional(),
  }),
  e("org_ai_config_changed", "Organization", "The organization's AI settings changed.", {
    org_id: orgId,
    ai_enabled: z.boolean(),
    changed_by: user.optional(),
  }),
  e("org_payments_config_changed", "Organization", "The organization's payment settings changed.", {
    org_id: orgId,
    payments_enabled: z.boolean(),
    changed_by: user.optional(),
  }),
  e("org_plan_changed", "Organization", "The organization moved to another plan (its quotas and features).", {
    org_id: orgId,
    plan: z.string().min(1).describe("The new plan's name, e.g. pro"),
    previous_plan: z.string().describe("The plan's name before the change"),
    changed_by: user.optional(),
  }),
  e("deploy.started", "Deployments", "A deployment's build began.", { deployment, application }),
  e("deploy.succeeded", "Deployments", "A deployment finished and is live.", { deployment, application }),
  e("deploy.failed", "Deployments", "A deployment failed.", {
    deployment,
    application,
    error_message: z.string().optional(),
  }),
  e("app.health_changed", "Deployments", "An application's health check result changed.", {
    application,
    from: health.describe("Health before the change"),
    to: health.describe("Health after the change"),
    checked_at: isoTime.optional(),
  }),
  e("application.created", "Resources", "An application was created in an environment.", {
    application,
    environment_id: z.string().min(1),
    changed_by: actor,
  }),
  e("application.updated", "Resources", "An application's name, source, build, port or health path changed.", {
    application,
    fields: z.array(z.string()).min(1).describe("The changed input fields, e.g. port, source"),
    changed_by: actor,
  }),
  e(
    "application.deleted",
    "Resources",
    "An application and its domains, variables and deployments were deleted; its cluster objects are to be removed.",
    {
      application: application.extend({ app_name: z.string().describe("The platform slug of its cluster objects") }),
      environment_id: z.string().min(1),
      hosts: z.array(z.string()).describe("The domains it had"),
      changed_by: actor,
    },
  ),
  e("application.variables_changed", "Resources", "Environment variables of an application were set or removed.", {
    application,
    set: z.array(z.string()).describe("Names set (values are never sent)"),
    removed: z.array(z.string()).describe("Names removed"),
    deployment_id: z.string().optional().describe("The deployment queued with the change (deploy: true)"),
    changed_by: actor,
  }),
  e("database.created", "Resources", "A database service was created.", {
    database,
    application_ids: affected,
    changed_by: actor,
  }),
  e("database.password_rotated", "Resources", "A database's password was replaced.", {
    database,
    application_ids: affected,
    changed_by: actor,
  }),
  e("database.deleted", "Resources", "A database service was deleted; its cluster objects are to be removed.", {
    database: database.extend({ service_host: z.string().describe("Its internal cluster hostname") }),
    application_ids: affected,
    changed_by: actor,
  }),
  e("domain.added", "Resources", "A custom domain was routed to an application.", {
    domain,
    application,
    changed_by: actor,
  }),
  e("domain.updated", "Resources", "A custom domain's host, port or HTTPS changed.", {
    domain,
    application,
    previous_host: z.string().optional().describe("The host before the change, when it changed"),
    changed_by: actor,
  }),
  e("domain.removed", "Resources", "A custom domain was removed from an application.", {
    domain,
    application,
    changed_by: actor,
  }),
  e("environment.created", "Resources", "An environment was added to a project.", { environment, changed_by: actor }),
  e("environment.updated", "Resources", "An environment was renamed.", {
    environment,
    previous_name: z.string(),
    changed_by: actor,
  }),
  e("environment.deleted", "Resources", "An empty environment was deleted.", { environment, changed_by: actor }),
  e(
    "project.deleted",
    "Resources",
    "A project and everything in it were deleted (by `deleteProject`, an import rollback or the cleanup before an import's retry); its cluster objects are to be removed.",
    { project, changed_by: actor },
  ),
  e(
    "project.updated",
    "Resources",
    "A project was renamed or its description changed (`project`: as it is after the change).",
    {
      project,
      fields: z
        .array(z.enum(["name", "description"]))
        .min(1)
        .describe("The changed fields: name, description"),
      changed_by: actor,
    },
  ),
] as const;

/** The name of a domain event of the catalogue (`deploy.succeeded`, `user_role_changed`, …). */
export type DomainEventName = (typeof WEBHOOK_EVENTS)[number]["name"];

/** The `data` of event `Name`, as its producer passes it (the schema's input form). */
export type DomainEventData<Name extends DomainEventName> = z.input<
  Extract<(typeof WEBHOOK_EVENTS)[number], { name: Name }>["data"]
>;

const byName = new Map<string, WebhookEventDefinition>(WEBHOOK_EVENTS.map((d) => [d.name, d]));

/** The definition of event `name`, or undefined. */
export function webhookEvent(name: string): WebhookEventDefinition | undefined {
  return byName.get(name);
}

/** An event as `GET …/webhooks/events` lists it. */
export interface WebhookEventType {
  name: string;
  category: WebhookCategory;
  description: string;
  /** JSON Schema 2020-12 of `data`. */
  dataSchema: Record<string, unknown>;
}

let published: WebhookEventType[] | undefined;

/** The catalogue as published: name, category, description and `data`'s JSON Schema 2020-12 (built once). */
export function webhookEventTypes(): WebhookEventType[] {
  published ??= WEBHOOK_EVENTS.map((d) => ({
    name: d.name,
    category: d.category,
    description: d.description,
    dataSchema: z.toJSONSchema(d.data, { io: "input", target: "draft-2020-12" }) as Record<string, unknown>,
  }));
  return published;
}

/** One live event: a domain event for the instances' GraphQL subscriptions, never sent to webhooks. */
export interface LiveEventDefinition {
  name: string;
  description: string;
  /** Validates the event's `data` (what every instance's subscribers receive through the event log). */
  data: z.ZodObject;
}

const live = <const Name extends string, const Shape extends z.ZodRawShape>(
  name: Name,
  description: string,
  shape: Shape,
) => ({ name, description, data: z.object(shape) }) satisfies LiveEventDefinition;

/**
 * Live events: emitted like the webhook events (`events.emit`), consumed by the
 * live subscriptions of the module that declares them (its manifest's `onEvent` relays them to every instance's
 * subscribers on a topic named like the event). Webhooks never see them.
 */
export const LIVE_EVENTS = [
  live("site_import.updated", "A site import's status changed (GraphQL `siteImportUpdated`).", {
    id: z.string().min(1).describe("The import's id"),
    organizationId: z.string().min(1).describe("The import's organization"),
    status: z.string().min(1).describe("The import's status, or `deleted` once the record is gone"),
    projectId: z.string().nullable().optional().describe("The import's project at that moment (grant checks)"),
  }),
  live("deployment.updated", "A deployment's status changed or it logged a line (GraphQL `deploymentUpdated`).", {
    id: z.string().min(1).describe("The deployment's id (the application's with status `deleted`)"),
    applicationId: z.string().min(1).describe("The deployment's application"),
    status: z.string().min(1).describe("The deployment's status, or `deleted` once the application is gone"),
    log: z
      .object({ at: isoTime, level: z.string(), text: z.string() })
      .optional()
      .describe("The log line, when the event is one"),
  }),
] as const;

/** The name of a live event (`site_import.updated`, `deployment.updated`). */
export type LiveEventName = (typeof LIVE_EVENTS)[number]["name"];

/** The `data` of live event `Name`, as its producer passes it. */
export type LiveEventData<Name extends LiveEventName> = z.input<
  Extract<(typeof LIVE_EVENTS)[number], { name: Name }>["data"]
>;

const liveByName = new Map<string, LiveEventDefinition>(LIVE_EVENTS.map((d) => [d.name, d]));

/** The definition of live event `name`, or undefined. */
export function liveEvent(name: string): LiveEventDefinition | undefined {
  return liveByName.get(name);
}
