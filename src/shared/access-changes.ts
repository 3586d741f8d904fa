/**
 * Access changes that must reach open subscriptions at once: an API key deleted, a member removed,
 * a role or grants changed, a session signed out. Publishers announce them on {@link ACCESS_CHANGED_TOPIC} (LISTEN/NOTIFY,
 * so every instance hears it); the WebSocket server closes the matching connections with 4403 and clients
 * reconnect with whatever rights they have left. Removals by cascade (the grants of a deleted project or application,
 * the members of a deleted organization) are announced the same way by database triggers (migration
 * 20261122161000_announce_access_changes). The WebSocket server also drops the connection's cached access.
 */
import type { Logger } from "pino";
import type { PubSub } from "./pubsub.ts";

/** PubSub topic of access changes; payload {@link AccessChange}. */
export const ACCESS_CHANGED_TOPIC = "access_changed";

/** Whose access changed: connections authenticated by this key, session or user are closed. */
export interface AccessChange {
  apiKeyId?: string;
  sessionId?: string;
  userId?: string;
}

/**
 * Publishes `change` (call after commit). A failed NOTIFY is logged, not thrown: the change itself is committed,
 * and the caller's answer should not turn into an error because of it.
 */
export async function publishAccessChange(pubsub: PubSub, change: AccessChange, log: Logger): Promise<void> {
  try {
    await pubsub.publish(ACCESS_CHANGED_TOPIC, { ...change });
  } catch (err) {
    log.error({ err, change }, "could not announce an access change to open subscriptions");
  }
}
