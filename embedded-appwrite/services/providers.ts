import { emailParam } from "../auth/new-user.ts";
import { nowDatetime } from "../datetime.ts";
import { runList } from "../db/list.ts";
import { findProvider, providerModel, saveProvider, toProvider } from "../db/messaging.ts";
import type { ProviderRecord } from "../db/messaging.ts";
import { AppwriteError, invalidParam } from "../errors.ts";
import type { RequestContext } from "../http/context.ts";
import {
  boolParam,
  customIdParam,
  intParam,
  pathParam,
  queriesParam,
  searchParam,
  stringParam,
  totalParam,
} from "../http/params.ts";
import type { Reply, Router } from "../http/router.ts";
import { compileQueries, SYSTEM_QUERY_FIELDS } from "../queries.ts";
import type { QuerySchema } from "../queries.ts";

/** Fields `Query` may use on providers (AW `Validator/Queries/Providers`). */
const PROVIDER_QUERIES: QuerySchema = {
  fields: new Map([
    ...SYSTEM_QUERY_FIELDS,
    ["name", { column: "name", type: "string" }],
    ["provider", { column: "provider", type: "string" }],
    ["type", { column: "type", type: "string" }],
    ["enabled", { column: "enabled", type: "boolean" }],
  ]),
  selectable: false,
};

type Body = Record<string, unknown>;

function loadProvider(ctx: RequestContext): ProviderRecord {
  const provider = findProvider(ctx.app.store, pathParam(ctx, "providerId"));
  if (!provider) throw new AppwriteError("provider_not_found");
  return provider;
}

/** `encryption`: `none` (stored as `""`), `ssl` or `tls` (AW `WhiteList(['none', 'ssl', 'tls'])`). */
function encryptionParam(body: Body): string | undefined {
  const value = stringParam(body, "encryption", { max: 4 });
  if (value === undefined) return undefined;
  if (!["none", "ssl", "tls"].includes(value))
    throw invalidParam("encryption", "Value must be one of (none, ssl, tls)");
  return value === "none" ? "" : value;
}

/** The SMTP fields present in `body`, split into Appwrite's `credentials` and `options`. */
function smtpFields(body: Body): { credentials: Body; options: Body } {
  const credentials: Body = {};
  const options: Body = {};
  const host = stringParam(body, "host", { max: 2048 });
  if (host !== undefined && host !== "") credentials["host"] = host;
  const port = intParam(body, "port", undefined, { min: 1, max: 65535 });
  if (port !== undefined) credentials["port"] = port;
  for (const key of ["username", "password"]) {
    const value = stringParam(body, key, { max: 2048 });
    if (value !== undefined) credentials[key] = value;
  }
  for (const key of ["mailer", "fromName", "replyToName"]) {
    const value = stringParam(body, key, { max: 256 });
    if (value !== undefined) options[key] = value;
  }
  const encryption = encryptionParam(body);
  if (encryption !== undefined) options["encryption"] = encryption;
  if (body["autoTLS"] !== undefined && body["autoTLS"] !== null) options["autoTLS"] = boolParam(body, "autoTLS", true);
  for (const key of ["fromEmail", "replyToEmail"]) {
    const email = emailParam(body, key);
    if (email !== null) options[key] = email;
  }
  return { credentials, options };
}

/** True when an SMTP provider has what it needs to send: a host and a sender address (AW Create/UpdateSmtp). */
export function smtpComplete(p: Pick<ProviderRecord, "credentials" | "options">): boolean {
  return typeof p.credentials["host"] === "string" && typeof p.options["fromEmail"] === "string";
}

/**
 * `POST /messaging/providers/smtp`: 201 Provider. Port defaults to 587, encryption to none, autoTLS
 * to true. `enabled` is kept only when `host` and `fromEmail` are set (AW `Providers/SMTP/Create.php`).
 * A taken ID → 409 `provider_already_exists`.
 */
async function createSmtp(ctx: RequestContext): Promise<Reply> {
  const body = await ctx.body();
  const id = customIdParam(body, "providerId");
  const name = stringParam(body, "name", { required: true, max: 128 });
  stringParam(body, "host", { required: true, max: 2048 });
  const fields = smtpFields(body);
  const credentials = { port: 587, username: "", password: "", ...fields.credentials };
  const options = {
    fromName: "",
    replyToName: "",
    replyToEmail: "",
    encryption: "",
    autoTLS: true,
    mailer: "",
    ...fields.options,
  };
  const enabled = boolParam(body, "enabled", false) && smtpComplete({ credentials, options });
  if (findProvider(ctx.app.store, id)) throw new AppwriteError("provider_already_exists");
  const now = nowDatetime();
  saveProvider(ctx.app.store, {
    id,
    name,
    provider: "smtp",
    type: "email",
    enabled,
    credentials,
    options,
    createdAt: now,
    updatedAt: now,
  });
  return { status: 201, json: providerModel(findProvider(ctx.app.store, id) as ProviderRecord) };
}

/**
 * `PATCH /messaging/providers/smtp/{providerId}`: 200 Provider. A provider of another kind → 400
 * `provider_incorrect_type`; `enabled: true` without host and sender → 400 `provider_missing_credentials`.
 */
async function updateSmtp(ctx: RequestContext): Promise<Reply> {
  const body = await ctx.body();
  const provider = loadProvider(ctx);
  if (provider.provider !== "smtp") throw new AppwriteError("provider_incorrect_type");
  const name = stringParam(body, "name", { max: 128 });
  const fields = smtpFields(body);
  const next: ProviderRecord = {
    ...provider,
    name: name !== undefined && name !== "" ? name : provider.name,
    credentials: { ...provider.credentials, ...fields.credentials },
    options: { ...provider.options, ...fields.options },
    updatedAt: nowDatetime(),
  };
  if (body["enabled"] !== undefined && body["enabled"] !== null) {
    const enabled = boolParam(body, "enabled", false);
    if (enabled && !smtpComplete(next)) throw new AppwriteError("provider_missing_credentials");
    next.enabled = enabled;
  }
  saveProvider(ctx.app.store, next);
  return { status: 200, json: providerModel(findProvider(ctx.app.store, next.id) as ProviderRecord) };
}

function listProviders(ctx: RequestContext): Reply {
  const q = compileQueries(queriesParam(ctx), PROVIDER_QUERIES);
  const search = searchParam(ctx);
  const like = search === undefined ? null : `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const scope =
    like === null
      ? []
      : [
          {
            sql: `id LIKE ? ESCAPE '\\' OR name LIKE ? ESCAPE '\\' OR provider LIKE ? ESCAPE '\\' OR type LIKE ? ESCAPE '\\'`,
            params: [like, like, like, like],
          },
        ];
  const { rows, total } = runList<Record<string, unknown>>(
    ctx.app.store,
    { table: "providers", columns: "*", idColumn: "id", seqColumn: "seq", scope, noun: "Provider" },
    q,
    totalParam(ctx),
  );
  return { status: 200, json: { total, providers: rows.map((r) => providerModel(toProvider(r))) } };
}

function getProvider(ctx: RequestContext): Reply {
  return { status: 200, json: providerModel(loadProvider(ctx)) };
}

function deleteProvider(ctx: RequestContext): Reply {
  const provider = loadProvider(ctx);
  ctx.app.store.stmt("DELETE FROM providers WHERE seq = ?").run(provider.seq);
  return { status: 204, empty: true };
}

/**
 * Messaging providers (OpenAPI `messagingCreateSmtpProvider`, `messagingListProviders`, …; API key,
 * scopes `providers.read`/`providers.write`). Only SMTP can be created or updated here: the other
 * providers' routes answer 405 `general_not_implemented`.
 */
export function register(router: Router): void {
  router.add("POST", "/messaging/providers/smtp", "providers.write", createSmtp);
  router.add("PATCH", "/messaging/providers/smtp/:providerId", "providers.write", updateSmtp);
  router.add("GET", "/messaging/providers", "providers.read", listProviders);
  router.add("GET", "/messaging/providers/:providerId", "providers.read", getProvider);
  router.add("DELETE", "/messaging/providers/:providerId", "providers.write", deleteProvider);
}
