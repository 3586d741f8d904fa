/**
 * Domain events (issue 24, "Typed domain events"): producers call {@link events}`.emit(ctx, name, payload)` inside
 * their action's transaction (`ctx.knex`), with a name and `data` typed by the one catalogue
 * (src/shared/events/catalogue.ts, which also publishes the webhooks' JSON Schemas); consumers subscribe through
 * their module manifest (`onEvent`, wired by src/modules/index.ts). A producer never imports a consumer.
 */
import type { Knex } from "knex";
import type { Logger } from "pino";
import { type DomainEventData, type DomainEventName, webhookEvent } from "../shared/events/catalogue.ts";
import type { AppServices } from "./services.ts";

/** Where an event is emitted: the caller's transaction (or the pool) and the instance's services. */
export interface EventContext {
  knex: Knex;
  services: AppServices;
  log?: Logger;
}

/** One domain event as consumers receive it. */
export interface DomainEvent<Name extends DomainEventName = DomainEventName> {
  name: Name;
  /** The organization the event belongs to (TypeID). */
  organizationId: string;
  /** The event's data, valid for the catalogue's schema of `name`. */
  data: DomainEventData<Name>;
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
   * Hands event `name` of `payload.organizationId` to every consumer, in `ctx.knex`'s transaction.
   * @throws Error when `payload.data` does not match the catalogue's schema of `name` (a producer's bug).
   */
  async emit<Name extends DomainEventName>(
    ctx: EventContext,
    name: Name,
    payload: { organizationId: string; data: DomainEventData<Name> },
  ): Promise<void> {
    const parsed = webhookEvent(name)?.data.safeParse(payload.data);
    if (!parsed?.success) {
      throw new Error(`Invalid data for domain event ${name}: ${parsed?.error.message ?? "unknown event"}`);
    }
    for (const subscriber of subscribers) await subscriber(ctx, { name, ...payload } as DomainEvent);
  },
};
