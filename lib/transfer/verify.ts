/**
 * The verify step of a transfer (issue #32 item 4): both sides read in full and compared record by record
 * (rows, files, users, team members), in the forms of `canonical.ts`. Any record missing, different or extra
 * on the target is a difference. Reads only.
 */
import { canonicalFile, canonicalMembership, canonicalRow, canonicalUser } from "./canonical.ts";
import { filePages } from "./files.ts";
import { hasTable, rowPages, type TransferSide } from "./side.ts";
import { isNotFound } from "../appwrite/client.ts";
import { allMemberships, allTeams } from "./teams.ts";
import { userPages } from "./users.ts";

/** One record that is not the same on both sides. */
export interface TransferDifference {
  /** `rows:<table>`, `files:<bucket>`, `users`, `teams`, `members:<team>` */
  scope: string;
  id: string;
  problem: "missing on the target" | "different on the target" | "only on the target";
}

/** What is to be compared: the tables (with their database) and buckets that were transferred. */
export interface TransferScope {
  tables: { databaseId: string; tableId: string }[];
  buckets: string[];
}

async function collect<T>(pages: AsyncIterable<T[]>, key: (item: T) => string, form: (item: T) => string) {
  const map = new Map<string, string>();
  for await (const page of pages) for (const item of page) map.set(key(item), form(item));
  return map;
}

async function* once<T>(items: Promise<T[]>): AsyncGenerator<T[]> {
  yield await items;
}

function compare(scope: string, source: Map<string, string>, target: Map<string, string>, out: TransferDifference[]) {
  for (const [id, form] of source) {
    const there = target.get(id);
    if (there === undefined) out.push({ scope, id, problem: "missing on the target" });
    else if (there !== form) out.push({ scope, id, problem: "different on the target" });
  }
  for (const id of target.keys()) if (!source.has(id)) out.push({ scope, id, problem: "only on the target" });
}

/**
 * Compares `source` and `target` over `scope`, the users and the teams.
 * @returns every difference (empty when the target holds exactly what the source holds).
 * @throws {AppwriteException} when a side refuses a read.
 */
export async function verifyTransfer(
  source: TransferSide,
  target: TransferSide,
  scope: TransferScope,
): Promise<TransferDifference[]> {
  const out: TransferDifference[] = [];
  for (const { databaseId, tableId } of scope.tables) {
    const read = async (side: TransferSide) =>
      (await hasTable(side, databaseId, tableId))
        ? collect(rowPages(side, databaseId, tableId), (row) => row.$id, canonicalRow)
        : new Map<string, string>();
    compare(`rows:${tableId}`, await read(source), await read(target), out);
  }
  for (const bucketId of scope.buckets) {
    const read = (side: TransferSide) =>
      collect(filePages(side, bucketId), (file) => file.$id, canonicalFile).catch((error: unknown) => {
        if (isNotFound(error)) return new Map<string, string>(); // no such bucket on that side
        throw error;
      });
    compare(`files:${bucketId}`, await read(source), await read(target), out);
  }
  const users = (side: TransferSide) => collect(userPages(side), (user) => user.$id, canonicalUser);
  compare("users", await users(source), await users(target), out);
  const teams = (side: TransferSide) =>
    collect(
      once(allTeams(side)),
      (team) => team.$id,
      (team) => team.name,
    );
  const sourceTeams = await teams(source);
  compare("teams", sourceTeams, await teams(target), out);
  for (const teamId of sourceTeams.keys()) {
    const members = async (side: TransferSide) =>
      collect(
        once(allMemberships(side, teamId).then((all) => all.filter((m) => m.confirm))),
        (m) => m.userId,
        canonicalMembership,
      );
    compare(`members:${teamId}`, await members(source), await members(target), out);
  }
  return out;
}
