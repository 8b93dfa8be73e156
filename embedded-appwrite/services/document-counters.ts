import { pathParam } from "../http/params.ts";
import type { RequestContext } from "../http/context.ts";
import type { Reply, Router } from "../http/router.ts";
import { collectionFor } from "./document-input.ts";
import { execute } from "./transactions.ts";

/**
 * `PATCH …/documents/{documentId}/{attribute}/increment|decrement`: the rules are `document-write.ts`
 * `countOne`'s; with `transactionId` the change is staged (`transactions.ts`).
 */
function counter(action: "increment" | "decrement") {
  return async (ctx: RequestContext): Promise<Reply> => {
    collectionFor(ctx);
    const body = await ctx.body();
    const { value, min, max } = body;
    return execute(
      ctx,
      {
        action,
        databaseId: pathParam(ctx, "databaseId"),
        collectionId: pathParam(ctx, "collectionId"),
        documentId: pathParam(ctx, "documentId"),
        key: pathParam(ctx, "attribute"),
        body: { value, min, max },
      },
      body,
    );
  };
}

/** Increment and decrement of a numeric document attribute (any caller, permission-checked). */
export function register(router: Router): void {
  const base = "/databases/:databaseId/collections/:collectionId/documents/:documentId/:attribute";
  router.add("PATCH", `${base}/increment`, "documents.write", counter("increment"));
  router.add("PATCH", `${base}/decrement`, "documents.write", counter("decrement"));
}
