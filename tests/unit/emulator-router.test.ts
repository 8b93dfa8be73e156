import { describe, expect, it } from "vitest";
import { Router, type Handler } from "../../embedded-appwrite/http/router.ts";

// Issue #33 item 4: routing checks static segments before decoding parameters; what it matches must not change.
const named =
  (name: string): Handler =>
  () => ({ status: 200, json: name });

function router(): Router {
  const r = new Router();
  r.add("GET", "/tablesdb/:databaseId/tables/:tableId/rows/:rowId", "rows.read", named("getRow"));
  r.add("GET", "/tablesdb/:databaseId/tables/:tableId/columns/:key", "tables.read", named("getColumn"));
  r.add(
    "GET",
    "/databases/:databaseId/collections/:collectionId/documents/:documentId",
    "documents.read",
    named("getDocument"),
  );
  return r;
}

describe("embedded server routing", () => {
  it("picks the route whose static segments match and decodes its parameters", async () => {
    const match = router().match("GET", "/databases/db%201/collections/posts/documents/a%2Fb");
    expect(await match.handler({} as never)).toMatchObject({ json: "getDocument" });
    expect(match.params).toEqual({ databaseId: "db 1", collectionId: "posts", documentId: "a/b" });
    expect(router().match("GET", "/tablesdb/db/tables/t/columns/title").params).toEqual({
      databaseId: "db",
      tableId: "t",
      key: "title",
    });
  });

  it("answers a parameter that is not valid percent-encoding as a route Appwrite has but is not served here", () => {
    expect(() => router().match("GET", "/tablesdb/db/tables/t/rows/%E0%A4%A")).toThrow(
      expect.objectContaining({ type: "general_not_implemented" }),
    );
  });

  it("answers an unknown path as route not found", () => {
    expect(() => router().match("GET", "/tablesdb/db/tables/t/nothing/x")).toThrow(
      expect.objectContaining({ type: "general_route_not_found" }),
    );
  });
});
