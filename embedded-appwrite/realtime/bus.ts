/**
 * An in-process event bus between the write paths (services) and the realtime sockets. A service
 * publishes after its write; the server's bus delivers once that write is committed (`DeliverySchedule`);
 * `socket.ts` listens and fans the event out to the subscribers allowed to see it. Nothing is kept for
 * later listeners: with no listener an event is dropped, as Appwrite drops a realtime message nobody is
 * subscribed to.
 */

/** One realtime event, as Appwrite's realtime worker receives it from the API (REFERENCE §4 "Realtime"). */
export interface RealtimeEvent {
  /** Event names, most specific first, e.g. `databases.db.collections.col.documents.d1.create`. */
  events: string[];
  /** Channels the event is published on, e.g. `documents`, `buckets.b.files`. */
  channels: string[];
  /** Roles that may receive it (the resource's read roles); a subscriber needs one of them. */
  roles: string[];
  /** The resource model as the REST API returns it (Document, File). */
  payload: Record<string, unknown>;
  /** Appwrite datetime of the change. */
  timestamp: string;
  /**
   * Set by membership changes: the member whose roles changed. Their open connections reload their
   * roles before the event is delivered (AW `app/realtime.php`, `permissionsChanged`).
   */
  rolesChangedFor?: string;
}

/** Something that receives every published event. */
export type RealtimeListener = (event: RealtimeEvent) => void;

/**
 * When to deliver a published event: `deliver` is called now, or later (after the write the event describes
 * is committed, `Store.afterCommit`), or never (that write was rolled back).
 */
export type DeliverySchedule = (deliver: () => void) => void;

/** Fan-out of `RealtimeEvent`s to listeners (the realtime socket server), at the time `schedule` says. */
export class EventBus {
  private readonly listeners = new Set<RealtimeListener>();

  /** `schedule`: by default, deliver at once (synchronously, inside `publish`). */
  constructor(private readonly schedule: DeliverySchedule = (deliver) => deliver()) {}

  /** Register `listener`; returns a function that removes it. */
  listen(listener: RealtimeListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Deliver `event` to every listener, when `schedule` says (with no listener, drop it). A listener that throws
   * is logged and skipped, so a broken socket can never fail the REST request that published the event.
   */
  publish(event: RealtimeEvent): void {
    if (this.listeners.size === 0) return;
    this.schedule(() => this.deliver(event));
  }

  private deliver(event: RealtimeEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (error) {
        console.error("[emulator] realtime listener failed", error);
      }
    }
  }

  /** True when someone listens (lets publishers skip building payloads nobody reads). */
  get active(): boolean {
    return this.listeners.size > 0;
  }
}
