import { nowDatetime } from "../datetime.ts";
import { runList } from "../db/list.ts";
import type { Condition } from "../db/list.ts";
import { findTeam, teamModel, toTeam } from "../db/teams.ts";
import type { TeamRecord, TeamRow } from "../db/teams.ts";
import { AppwriteError, invalidParam, missingParam } from "../errors.ts";
import type { RequestContext } from "../http/context.ts";
import {
  customIdParam,
  MAX_ARRAY_PARAMS,
  pathParam,
  queriesParam,
  searchParam,
  stringParam,
  totalParam,
} from "../http/params.ts";
import type { Reply, Router } from "../http/router.ts";
import { uniqueId } from "../ids.ts";
import { compileQueries, SYSTEM_QUERY_FIELDS } from "../queries.ts";
import type { QuerySchema } from "../queries.ts";
import { publishRolesChanged, publishTeam } from "../realtime/team-events.ts";

const TEAM_QUERIES: QuerySchema = {
  fields: new Map([
    ...SYSTEM_QUERY_FIELDS,
    ["name", { column: "name", type: "string" }],
    ["total", { column: "total", type: "integer" }],
  ]),
  selectable: false,
};

const ROLE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,80}$/;

/**
 * Read a team-roles array parameter (AW `ArrayList(new Key(maxLength: 81), 100)`): at most 100
 * strings of 1–81 characters from `a-z A-Z 0-9 . - _`, not starting with a symbol. `undefined` when
 * absent; 400 `general_argument_invalid` otherwise.
 */
export function rolesParam(body: Record<string, unknown>, name = "roles"): string[] | undefined {
  const value = body[name];
  if (value === undefined || value === null) return undefined;
  if (
    !Array.isArray(value) ||
    value.length > MAX_ARRAY_PARAMS ||
    value.some((role) => typeof role !== "string" || !ROLE.test(role))
  ) {
    throw invalidParam(
      name,
      `Value must a valid array no longer than ${MAX_ARRAY_PARAMS} items and Parameter must contain at most 81 chars. Valid chars are a-z, A-Z, 0-9, period, hyphen, and underscore. Can't start with a special char`,
    );
  }
  return value as string[];
}

/**
 * The team of path parameter `teamId` as the caller may see it: an API key sees every team, a user
 * only the teams they are a confirmed member of (`read("team:<id>")`). Otherwise 404 `team_not_found`
 * (AW `Teams/Get.php`: an unreadable team is not found).
 */
export function loadTeam(ctx: RequestContext): TeamRecord {
  const team = findTeam(ctx.app.store, pathParam(ctx, "teamId"));
  if (!team || !(ctx.caller.isKey || ctx.caller.roles.includes(`team:${team.id}`))) {
    throw new AppwriteError("team_not_found");
  }
  return team;
}

/** True when the caller may manage team `teamId`: an API key or a confirmed `owner` member. */
export function isTeamOwner(ctx: RequestContext, teamId: string): boolean {
  return ctx.caller.isKey || ctx.caller.roles.includes(`team:${teamId}/owner`);
}

/** 401 `user_unauthorized` unless the caller owns the team (its `update`/`delete` permissions are `team:<id>/owner`). */
function assertOwner(ctx: RequestContext, team: TeamRecord): void {
  if (!isTeamOwner(ctx, team.id)) throw new AppwriteError("user_unauthorized");
}

function reload(ctx: RequestContext, id: string): TeamRecord {
  return findTeam(ctx.app.store, id) as TeamRecord;
}

/**
 * `POST /teams`: 201 Team. A session or JWT user becomes a confirmed member with `roles` (default
 * `["owner"]`; `owner` is added when missing), so `total` is 1; with an API key nobody joins and
 * `total` is 0. A taken ID → 409 `team_already_exists` (AW `Teams/Create.php`).
 */
async function createTeam(ctx: RequestContext): Promise<Reply> {
  const body = await ctx.body();
  const id = customIdParam(body, "teamId");
  const name = stringParam(body, "name", { required: true, max: 128 });
  const roles = rolesParam(body) ?? ["owner"];
  if (!roles.includes("owner")) roles.push("owner");
  const store = ctx.app.store;
  const now = nowDatetime();
  const user = ctx.caller.isKey ? undefined : ctx.caller.user;
  store.transaction(() => {
    try {
      store
        .stmt("INSERT INTO teams (id, name, prefs, created_at, updated_at) VALUES (?, ?, '{}', ?, ?)")
        .run(id, name, now, now);
    } catch (error) {
      if ((error as { code?: string }).code === "SQLITE_CONSTRAINT_UNIQUE")
        throw new AppwriteError("team_already_exists");
      throw error;
    }
    if (user) {
      store
        .stmt(
          "INSERT INTO memberships (id, team_seq, user_seq, roles, invited, joined, confirm, secret_hash, created_at, updated_at) SELECT ?, seq, ?, ?, ?, ?, 1, '', ?, ? FROM teams WHERE id = ?",
        )
        .run(uniqueId(), user.seq, JSON.stringify(roles), now, now, now, now, id);
    }
  });
  const model = teamModel(reload(ctx, id));
  publishTeam(ctx.app.events, model, "create");
  return { status: 201, json: model };
}

/**
 * `GET /teams`: 200 TeamList of the teams the caller may read (every team for an API key, the
 * confirmed memberships' teams for a user); queries on `name`, `total` and the system attributes;
 * `search` matches ID or name (AW `Teams/XList.php`).
 */
function listTeams(ctx: RequestContext): Reply {
  const q = compileQueries(queriesParam(ctx), TEAM_QUERIES);
  const search = searchParam(ctx);
  const scope: Condition[] = (search ?? "")
    .split(/\s+/)
    .filter((word) => word !== "")
    .map((word) => {
      const like = `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      return { sql: `id LIKE ? ESCAPE '\\' OR name LIKE ? ESCAPE '\\'`, params: [like, like] };
    });
  if (!ctx.caller.isKey) {
    scope.push({
      sql: "EXISTS (SELECT 1 FROM memberships m WHERE m.team_seq = team_view.seq AND m.user_seq = ? AND m.confirm = 1)",
      params: [ctx.caller.user?.seq ?? -1],
    });
  }
  const { rows, total } = ctx.app.store.read(() =>
    runList<TeamRow>(
      ctx.app.store,
      { table: "team_view", columns: "*", idColumn: "id", seqColumn: "seq", scope, noun: "Team" },
      q,
      totalParam(ctx),
    ),
  );
  return { status: 200, json: { total, teams: rows.map((row) => teamModel(toTeam(row))) } };
}

function getTeam(ctx: RequestContext): Reply {
  return { status: 200, json: teamModel(loadTeam(ctx)) };
}

/** `PUT /teams/{teamId}`: rename; owners and API keys only (401 `user_unauthorized`). */
async function updateName(ctx: RequestContext): Promise<Reply> {
  const name = stringParam(await ctx.body(), "name", { required: true, max: 128 });
  const team = loadTeam(ctx);
  assertOwner(ctx, team);
  ctx.app.store.stmt("UPDATE teams SET name = ?, updated_at = ? WHERE seq = ?").run(name, nowDatetime(), team.seq);
  const model = teamModel(reload(ctx, team.id));
  publishTeam(ctx.app.events, model, "update");
  return { status: 200, json: model };
}

/**
 * `DELETE /teams/{teamId}`: 204; owners and API keys only. Its memberships go with it (AW deletes
 * them in its deletes worker), and its members' open realtime connections lose its roles.
 */
function deleteTeam(ctx: RequestContext): Reply {
  const team = loadTeam(ctx);
  assertOwner(ctx, team);
  const store = ctx.app.store;
  const members = store
    .stmt("SELECT user_id FROM membership_view WHERE team_seq = ?")
    .pluck()
    .all(team.seq) as string[];
  store.stmt("DELETE FROM teams WHERE seq = ?").run(team.seq);
  publishTeam(ctx.app.events, teamModel(team), "delete");
  for (const userId of members) publishRolesChanged(ctx.app.events, userId);
  return { status: 204, empty: true };
}

function getPrefs(ctx: RequestContext): Reply {
  return { status: 200, json: loadTeam(ctx).prefs };
}

/** `PUT /teams/{teamId}/prefs`: replace the prefs object (at most 65,535 chars of JSON); owners and API keys only. */
async function updatePrefs(ctx: RequestContext): Promise<Reply> {
  const prefs = (await ctx.body())["prefs"];
  if (prefs === undefined || prefs === null) throw missingParam("prefs");
  if (typeof prefs !== "object" || Array.isArray(prefs) || JSON.stringify(prefs).length > 65535) {
    throw invalidParam("prefs", "Value must be a valid object and no longer than 65535 chars");
  }
  const team = loadTeam(ctx);
  assertOwner(ctx, team);
  ctx.app.store
    .stmt("UPDATE teams SET prefs = ?, updated_at = ? WHERE seq = ?")
    .run(JSON.stringify(prefs), nowDatetime(), team.seq);
  publishTeam(ctx.app.events, teamModel(reload(ctx, team.id)), "update.prefs");
  return { status: 200, json: prefs };
}

/**
 * Teams (REFERENCE §4 "Teams"; AW `Modules/Teams`): create, list, get, rename, delete, prefs. Users
 * and API keys hold the `teams.*` scopes; guests get 401 `general_unauthorized_scope`.
 */
export function register(router: Router): void {
  router.add("POST", "/teams", "teams.write", createTeam);
  router.add("GET", "/teams", "teams.read", listTeams);
  router.add("GET", "/teams/:teamId", "teams.read", getTeam);
  router.add("PUT", "/teams/:teamId", "teams.write", updateName);
  router.add("DELETE", "/teams/:teamId", "teams.write", deleteTeam);
  router.add("GET", "/teams/:teamId/prefs", "teams.read", getPrefs);
  router.add("PUT", "/teams/:teamId/prefs", "teams.write", updatePrefs);
}
