import { runList } from "../db/list.ts";
import type { RequestContext } from "../http/context.ts";
import { queriesParam } from "../http/params.ts";
import type { Reply } from "../http/router.ts";
import { compileQueries, SYSTEM_QUERY_FIELDS } from "../queries.ts";
import type { FieldSpec, QuerySchema } from "../queries.ts";
import { TRANSACTION_COLUMNS, transactionModel, transactionTables } from "./transaction-store.ts";
import type { TransactionRecord } from "./transaction-store.ts";

const SCHEMA: QuerySchema = {
  fields: new Map<string, FieldSpec>([
    ...SYSTEM_QUERY_FIELDS,
    ["status", { column: "status", type: "string" }],
    ["operations", { column: "operations", type: "integer" }],
    ["expiresAt", { column: "expires_at", type: "datetime" }],
  ]),
  selectable: false,
};

/**
 * `GET …/transactions` (AW `Transactions/XList.php`): `{total, transactions}` with every query method on
 * `$id`, `$createdAt`, `$updatedAt`, `status`, `operations`, `expiresAt`; API keys list every transaction,
 * users their own, guests none.
 */
export function listTransactions(ctx: RequestContext): Reply {
  const q = compileQueries(queriesParam(ctx), SCHEMA);
  const owner = ctx.caller.isKey
    ? []
    : [{ sql: "owner IS NOT NULL AND owner = ?", params: [ctx.caller.user?.id ?? null] }];
  const { rows, total } = runList<TransactionRecord>(
    transactionTables(ctx.app.store),
    {
      table: "transactions",
      columns: TRANSACTION_COLUMNS,
      idColumn: "id",
      seqColumn: "seq",
      scope: owner,
      noun: "Transaction",
    },
    q,
    true,
  );
  return { status: 200, json: { total, transactions: rows.map(transactionModel) } };
}
