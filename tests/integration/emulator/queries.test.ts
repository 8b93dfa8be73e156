import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Databases, Query } from "node-appwrite";
import { rejection, startTestEmulator } from "./helpers.ts";
import type { TestEmulator } from "./helpers.ts";

let env: TestEmulator;
let db: Databases;
const where = { databaseId: "films", collectionId: "movies" };

beforeAll(async () => {
  env = await startTestEmulator();
  db = new Databases(env.admin);
  await db.create({ databaseId: "films", name: "Films" });
  await db.createCollection({ ...where, name: "Movies" });
  await db.createStringAttribute({ ...where, key: "title", size: 100, required: true });
  await db.createStringAttribute({ ...where, key: "plot", size: 500, required: false });
  await db.createIntegerAttribute({ ...where, key: "year", required: false });
  await db.createStringAttribute({ ...where, key: "actors", size: 50, required: false, array: true });
  await db.createIndex({ ...where, key: "plot_ft", type: "fulltext" as never, attributes: ["plot"] });
  const movies = [
    ["m1", "Captain America", "A super soldier fights in the war", 1944, ["Chris Evans", "Samuel Jackson"]],
    ["m2", "Spider-Man: Far From Home", "Peter travels across Europe", 2019, ["Tom Holland", "Zendaya"]],
    ["m3", "Spider-Man: Homecoming", "Peter balances school and heroics", 2017, ["Tom Holland", "Zendaya"]],
    ["m4", "Untitled", null, null, []],
  ] as const;
  for (const [documentId, title, plot, year, actors] of movies) {
    await db.createDocument({ ...where, documentId, data: { title, plot, year, actors: [...actors] } });
  }
});

afterAll(async () => {
  await env.stop();
});

async function ids(queries: string[]): Promise<string[]> {
  return (await db.listDocuments({ ...where, queries })).documents.map((d) => d.$id);
}

describe("query methods (REFERENCE §2)", () => {
  it("given string filters, then contains is a substring match and the others follow their names", async () => {
    expect(await ids([Query.contains("title", ["spi"])])).toEqual(["m2", "m3"]);
    expect(await ids([Query.containsAny("title", ["Captain", "Home"])])).toEqual(["m1", "m2", "m3"]);
    expect(await ids([Query.containsAll("title", ["Spider", "coming"])])).toEqual(["m3"]);
    expect(await ids([Query.notContains("title", ["Spider"])])).toEqual(["m1", "m4"]);
    expect(await ids([Query.startsWith("title", "Spider")])).toEqual(["m2", "m3"]);
    expect(await ids([Query.notStartsWith("title", "Spider")])).toEqual(["m1", "m4"]);
    expect(await ids([Query.endsWith("title", "Home")])).toEqual(["m2"]);
    expect(await ids([Query.notEndsWith("title", "Home")])).toEqual(["m1", "m3", "m4"]);
    expect(await ids([Query.regex("title", "^Spider-Man: H")])).toEqual(["m3"]);
  });

  it("given array attributes, then contains matches whole elements only", async () => {
    expect(await ids([Query.contains("actors", ["Tom"])])).toEqual([]);
    expect(await ids([Query.contains("actors", ["Tom Holland"])])).toEqual(["m2", "m3"]);
    expect(await ids([Query.containsAny("actors", ["Chris Evans", "Zendaya"])])).toEqual(["m1", "m2", "m3"]);
    expect(await ids([Query.containsAll("actors", ["Chris Evans", "Zendaya"])])).toEqual([]);
    expect(await ids([Query.notContains("actors", ["Zendaya"])])).toEqual(["m1", "m4"]);
    const equal = await rejection(db.listDocuments({ ...where, queries: [Query.equal("actors", ["Zendaya"])] }));
    expect(equal.type).toBe("general_query_invalid");
  });

  it("given comparisons, nulls and logic, then the matches are Appwrite's", async () => {
    expect(await ids([Query.equal("year", [1944, 2017])])).toEqual(["m1", "m3"]);
    expect(await ids([Query.notEqual("year", 1944)])).toEqual(["m2", "m3", "m4"]);
    expect(await ids([Query.greaterThan("year", 2017)])).toEqual(["m2"]);
    expect(await ids([Query.greaterThanEqual("year", 2017)])).toEqual(["m2", "m3"]);
    expect(await ids([Query.lessThan("year", 2017)])).toEqual(["m1"]);
    expect(await ids([Query.lessThanEqual("year", 2017)])).toEqual(["m1", "m3"]);
    expect(await ids([Query.between("year", 2000, 2018)])).toEqual(["m3"]);
    expect(await ids([Query.notBetween("year", 2000, 2018)])).toEqual(["m1", "m2"]);
    expect(await ids([Query.isNull("year")])).toEqual(["m4"]);
    expect(await ids([Query.isNotNull("plot")])).toEqual(["m1", "m2", "m3"]);
    expect(await ids([Query.exists(["plot", "year"])])).toEqual(["m1", "m2", "m3"]);
    expect(await ids([Query.notExists(["plot"])])).toEqual(["m4"]);
    expect(await ids([Query.or([Query.equal("year", 1944), Query.isNull("year")])])).toEqual(["m1", "m4"]);
    expect(
      await ids([
        Query.and([Query.startsWith("title", "Spider"), Query.or([Query.equal("year", 2019), Query.equal("year", 1)])]),
      ]),
    ).toEqual(["m2"]);
    expect(await ids([Query.createdBefore("2000-01-01")])).toEqual([]);
    expect(await ids([Query.createdAfter("2000-01-01"), Query.limit(2)])).toEqual(["m1", "m2"]);
  });

  it("given a fulltext index, then search matches words and word prefixes; without one, 400", async () => {
    expect(await ids([Query.search("plot", "peter")])).toEqual(["m2", "m3"]);
    expect(await ids([Query.search("plot", "soldier travels")])).toEqual(["m1", "m2"]);
    expect(await ids([Query.search("plot", "hero")])).toEqual(["m3"]);
    expect(await ids([Query.notSearch("plot", "peter")])).toEqual(["m1", "m4"]);
    await db.updateDocument({ ...where, documentId: "m1", data: { plot: "Steve Rogers in the war" } });
    expect(await ids([Query.search("plot", "rogers")])).toEqual(["m1"]);
    expect(await ids([Query.search("plot", "soldier")])).toEqual([]);
    const error = await rejection(db.listDocuments({ ...where, queries: [Query.search("title", "spider")] }));
    expect([error.code, error.type, error.message]).toEqual([
      400,
      "general_query_invalid",
      'Searching by attribute "title" requires a fulltext index.',
    ]);
  });

  it("given orders, select and pagination, then pages and cursors follow Appwrite", async () => {
    expect(await ids([Query.orderDesc("year"), Query.limit(2)])).toEqual(["m2", "m3"]);
    expect(await ids([Query.orderAsc("title"), Query.offset(2), Query.limit(1)])).toEqual(["m3"]);
    expect(await ids([Query.orderAsc("year"), Query.cursorAfter("m1"), Query.limit(1)])).toEqual(["m3"]);
    expect(await ids([Query.cursorBefore("m3")])).toEqual(["m1", "m2"]);
    expect((await ids([Query.orderRandom()])).sort()).toEqual(["m1", "m2", "m3", "m4"]);
    const [selected] = (await db.listDocuments({ ...where, queries: [Query.select(["year"]), Query.limit(1)] }))
      .documents;
    expect(Object.keys(selected ?? {}).sort()).toEqual(
      ["$collectionId", "$createdAt", "$databaseId", "$id", "$permissions", "$sequence", "$updatedAt", "year"].sort(),
    );
    const cursor = await rejection(db.listDocuments({ ...where, queries: [Query.cursorAfter("nope")] }));
    expect([cursor.code, cursor.type, cursor.message]).toEqual([
      400,
      "general_cursor_not_found",
      "Document 'nope' for the 'cursor' value not found.",
    ]);
    const nullOrder = await rejection(
      db.listDocuments({ ...where, queries: [Query.orderAsc("year"), Query.cursorAfter("m4")] }),
    );
    expect([nullOrder.code, nullOrder.type]).toEqual([400, "database_query_order_null"]);
    const noTotal = await db.listDocuments({ ...where, total: false });
    expect([noTotal.total, noTotal.documents.length]).toEqual([0, 4]);
  });

  it("given too many queries, malformed or logical misuse, then 400 with Appwrite's messages", async () => {
    const hundredOne = Array.from({ length: 101 }, () => Query.limit(1));
    const tooMany = await rejection(db.listDocuments({ ...where, queries: hundredOne }));
    expect([tooMany.code, tooMany.type]).toEqual([400, "general_argument_invalid"]);
    expect(await ids(Array.from({ length: 100 }, () => Query.limit(1)))).toEqual(["m1"]);
    const single = await rejection(db.listDocuments({ ...where, queries: [Query.or([Query.equal("year", 1)])] }));
    expect(single.message).toBe("Invalid query: Or queries require at least two queries");
    const nested = await rejection(
      db.listDocuments({ ...where, queries: [Query.or([Query.limit(1), Query.equal("year", 1)])] }),
    );
    expect(nested.message).toBe("Invalid query: Or queries can only contain filter queries");
    const typed = await rejection(db.listDocuments({ ...where, queries: [Query.equal("year", "x")] }));
    expect(typed.message).toBe('Invalid query: Query value is invalid for attribute "year"');
    const regex = await rejection(db.listDocuments({ ...where, queries: [Query.regex("title", "(")] }));
    expect(regex.type).toBe("general_query_invalid");
  });
});
