import * as node from "node-appwrite";
import { startTestEmulator } from "./helpers.ts";
import type { TestEmulator } from "./helpers.ts";
import { SpecValidator, startRecorder } from "./openapi.ts";

const SPECS = [
  "/work/shared/appwrite/openapi/open-api3-1.8.x-server.json",
  "/work/shared/appwrite/openapi/open-api3-1.8.x-client.json",
];
const { Permission, Role } = node;

/** The table the bulk and transaction suites write to. */
export const STOCK = { databaseId: "shop", tableId: "stock" };

/** An emulator behind a recording proxy, with SDK clients (API key) that go through the proxy. */
export interface StockFixture {
  env: TestEmulator;
  /** The proxy's endpoint (`…/v1`), for further clients. */
  endpoint: string;
  tables: node.TablesDB;
  databases: node.Databases;
  /** Stops everything; resolves with every response that does not match the 1.8.x OpenAPI models. */
  stop(): Promise<string[]>;
}

/**
 * Starts an emulator and a recording proxy in front of it, and creates table `shop/stock`: anyone reads, users
 * create and update; `name` (required string), `count` (integer 0–100, default 0), `sku` (string, unique).
 */
export async function startStock(): Promise<StockFixture> {
  const env = await startTestEmulator();
  const recorder = await startRecorder(env.emulator.endpoint);
  const admin = new node.Client()
    .setEndpoint(recorder.endpoint)
    .setProject(env.emulator.projectId)
    .setKey(env.emulator.apiKey);
  const tables = new node.TablesDB(admin);
  const T = STOCK;
  await tables.create({ databaseId: T.databaseId, name: "Shop" });
  await tables.createTable({
    ...T,
    name: "Stock",
    permissions: [Permission.read(Role.any()), Permission.create(Role.users()), Permission.update(Role.users())],
  });
  await tables.createStringColumn({ ...T, key: "name", size: 64, required: true });
  await tables.createIntegerColumn({ ...T, key: "count", required: false, min: 0, max: 100, xdefault: 0 });
  await tables.createStringColumn({ ...T, key: "sku", size: 16, required: false });
  await tables.createIndex({ ...T, key: "sku_unique", type: node.TablesDBIndexType.Unique, columns: ["sku"] });
  return {
    env,
    endpoint: recorder.endpoint,
    tables,
    databases: new node.Databases(admin),
    stop: async () => {
      const validator = new SpecValidator(SPECS);
      const problems = recorder.log.flatMap((exchange) => validator.check(exchange));
      await recorder.close();
      await env.stop();
      return problems;
    },
  };
}
