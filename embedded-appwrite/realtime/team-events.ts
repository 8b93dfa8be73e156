import { nowDatetime } from "../datetime.ts";
import type { EventBus } from "./bus.ts";
import { eventNames } from "./events.ts";

/**
 * Publish a team change (AW `Messaging/Adapter/Realtime.php` `fromPayload`, `teams`): channels `teams`
 * and `teams.<id>`, events `teams.<id>.<action>` with their wildcards, readable by `team:<id>`.
 * `model` is the Team the REST answer carries.
 */
export function publishTeam(bus: EventBus, model: Record<string, unknown>, action: string): void {
  if (!bus.active) return;
  const id = String(model["$id"]);
  bus.publish({
    events: eventNames(["teams", id], action),
    channels: ["teams", `teams.${id}`],
    roles: [`team:${id}`],
    payload: model,
    timestamp: nowDatetime(),
  });
}

/**
 * Publish a membership change (AW `fromPayload`, `memberships`): channels `memberships` and
 * `memberships.<id>`, events `teams.<teamId>.memberships.<id>.<action>` with their wildcards,
 * readable by `team:<teamId>`. The member's open realtime connections reload their roles first
 * (AW `permissionsChanged`), so a new member receives what the team may read from then on.
 */
export function publishMembership(bus: EventBus, model: Record<string, unknown>, action: string): void {
  if (!bus.active) return;
  const id = String(model["$id"]);
  const teamId = String(model["teamId"]);
  bus.publish({
    events: eventNames(["teams", teamId, "memberships", id], action),
    channels: ["memberships", `memberships.${id}`],
    roles: [`team:${teamId}`],
    payload: model,
    timestamp: nowDatetime(),
    rolesChangedFor: String(model["userId"]),
  });
}

/**
 * Tell `userId`'s open realtime connections to reload their roles without delivering anything (no
 * channel, no role): used when a team is deleted with its memberships, so former members stop
 * receiving what only the team could read.
 */
export function publishRolesChanged(bus: EventBus, userId: string): void {
  if (!bus.active) return;
  bus.publish({ events: [], channels: [], roles: [], payload: {}, timestamp: nowDatetime(), rolesChangedFor: userId });
}
