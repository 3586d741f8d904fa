/**
 * Domain events: producers call {@link events}`.emit(ctx, name, payload)` inside
 * their action's transaction (`ctx.knex`), with a name and `data` typed by the one catalogue
 * (src/shared/events/catalogue.ts, which also publishes the webhooks' JSON Schemas); consumers subscribe through
 * their module manifest (`onEvent`, wired by src/modules/index.ts). A producer never imports a consumer.
 */
import type { Knex } from "knex";
import type { Logger } from "pino";
import {
  type DomainEventData,
  type DomainEventName,
  type LiveEventData,
  type LiveEventName,
  liveEvent,
  webhookEvent,
} from "../shared/events/catalogue.ts";
import type { AppServices } from "./services.ts";

/** Where an event is emitted: the caller's transaction (or the pool) and the instance's services. */
export interface EventContext {
  knex: Knex;
  services: AppServices;
  log?: Logger;
}

/** One domain event as consumers receive it: a webhook event of the catalogue, or a live event. */
export type DomainEvent = WebhookDomainEvent | LiveDomainEvent;

/** A webhook event of the catalogue (`WEBHOOK_EVENTS`) as consumers receive it. */
export interface WebhookDomainEvent<Name extends DomainEventName = DomainEventName> {
  kind: "webhook";
  name: Name;
  /** The organization the event belongs to (TypeID). */
  organizationId: string;
  /** The event's data, valid for the catalogue's schema of `name`. */
  data: DomainEventData<Name>;
  /**
   * Whether the event is sent outside Skiff (webhook deliveries). `false` for what the site import API causes (spec
   * doc 1, Events: it emits no events or notifications): consumers inside Skiff (the cluster's reconciliation, API
   * keys) still see it.
   */
  outbound: boolean;
}

/** A live event (`LIVE_EVENTS`) as consumers receive it. */
export interface LiveDomainEvent<Name extends LiveEventName = LiveEventName> {
  kind: "live";
  name: Name;
  /** The event's data, valid for the catalogue's schema of `name`. */
  data: LiveEventData<Name>;
}

/** A consumer of every domain event; runs in the emitter's transaction (a rollback undoes its writes). */
export type EventSubscriber = (ctx: EventContext, event: DomainEvent) => Promise<void>;

const subscribers: EventSubscriber[] = [];

/** Adds a consumer (called by the module registry, src/modules/index.ts, for each manifest's `onEvent`). */
export function subscribeToEvents(subscriber: EventSubscriber): void {
  subscribers.push(subscriber);
}

/** The domain event bus. */
export const events = {
  /**
   * Hands webhook event `name` of `payload.organizationId` to every consumer, in `ctx.knex`'s transaction;
   * `payload.outbound: false` keeps it inside Skiff (see {@link WebhookDomainEvent.outbound}; default true).
   * @throws Error when `payload.data` does not match the catalogue's schema of `name` (a producer's bug).
   */
  async emit<Name extends DomainEventName>(
    ctx: EventContext,
    name: Name,
    payload: { organizationId: string; data: DomainEventData<Name>; outbound?: boolean },
  ): Promise<void> {
    const parsed = webhookEvent(name)?.data.safeParse(payload.data);
    if (!parsed?.success) {
      throw new Error(`Invalid data for domain event ${name}: ${parsed?.error.message ?? "unknown event"}`);
    }
    await deliver(ctx, { kind: "webhook", name, ...payload, outbound: payload.outbound ?? true } as DomainEvent);
  },

  /**
   * Hands live event `name` to every consumer, in `ctx.knex`'s transaction (or at once on the pool): the module
   * that declares its subscription relays it to every instance ({@link liveRelay}).
   * @throws Error when `data` does not match the catalogue's schema of `name` (a producer's bug).
   */
  async emitLive<Name extends LiveEventName>(ctx: EventContext, name: Name, data: LiveEventData<Name>): Promise<void> {
    const parsed = liveEvent(name)?.data.safeParse(data);
    if (!parsed?.success) {
      throw new Error(`Invalid data for live event ${name}: ${parsed?.error.message ?? "unknown event"}`);
    }
    await deliver(ctx, { kind: "live", name, data } as DomainEvent);
  },
};

async function deliver(ctx: EventContext, event: DomainEvent): Promise<void> {
  for (const subscriber of subscribers) await subscriber(ctx, event);
}

/**
 * The `onEvent` of a module with live subscriptions: relays its live events `names` to every instance's
 * subscribers (pub/sub topic = the event's name; NOTIFY in the emitter's transaction, so nothing is seen of a
 * change that rolls back). Best effort: a failure is logged, never thrown into the producer.
 */
export function liveRelay(...names: readonly LiveEventName[]): EventSubscriber {
  const relayed = new Set<string>(names);
  return async (ctx, event) => {
    if (event.kind !== "live" || !relayed.has(event.name)) return;
    try {
      await ctx.services.pubsub.publish(event.name, { ...event.data }, ctx.knex);
    } catch (err) {
      (ctx.log ?? ctx.services.log).warn({ err, event: event.name }, "could not publish a live event");
    }
  };
}
