import { readFileSync } from "node:fs";
import { createServer, request } from "node:http";
import type { AddressInfo } from "node:net";
import { Ajv } from "ajv";
import type { ValidateFunction } from "ajv";
import addFormats from "ajv-formats";

/** One response seen by the recording proxy. */
export interface Exchange {
  method: string;
  /** Path without the query string, e.g. `/v1/account`. */
  path: string;
  status: number;
  contentType: string;
  body: string;
  /** The request's body as sent (empty for none). */
  requestBody?: string;
}

/**
 * A loopback HTTP proxy in front of the emulator that records every response, so the suite can
 * validate what the unchanged SDKs received without importing emulator internals.
 */
export async function startRecorder(
  target: string,
): Promise<{ endpoint: string; log: Exchange[]; close(): Promise<void> }> {
  const upstream = new URL(target);
  const log: Exchange[] = [];
  const server = createServer((req, res) => {
    const sent: Buffer[] = [];
    req.on("data", (c: Buffer) => sent.push(c));
    const forward = request(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on("data", (c: Buffer) => chunks.push(c));
        answer.on("end", () => {
          const body = Buffer.concat(chunks);
          log.push({
            method: req.method ?? "GET",
            path: (req.url ?? "").split("?")[0] ?? "",
            status: answer.statusCode ?? 0,
            contentType: String(answer.headers["content-type"] ?? ""),
            body: body.toString("utf8"),
            requestBody: Buffer.concat(sent).toString("utf8"),
          });
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          res.end(body);
        });
      },
    );
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}/v1`,
    log,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

type Schema = Record<string, unknown>;

/** Whether `exchange` is a bulk create: a `POST …/rows|documents` whose body carries `rows`/`documents`. */
function isBulkCreate(exchange: Exchange): boolean {
  if (exchange.method !== "POST" || !/\/(rows|documents)$/.test(exchange.path)) return false;
  try {
    const body = JSON.parse(exchange.requestBody ?? "") as Record<string, unknown>;
    return body["rows"] !== undefined || body["documents"] !== undefined;
  } catch {
    return false;
  }
}
interface Spec {
  paths: Record<
    string,
    Record<string, { responses?: Record<string, { content?: Record<string, { schema?: Schema }> }> }>
  >;
  components: { schemas: Record<string, Schema> };
}

/**
 * Differences between the 1.8.x spec and what Appwrite 1.9 sends, allowed explicitly
 * (REFERENCE §3, §8): `$sequence` became a string in 1.9; error `code` is declared a string but
 * the server sends an integer. Also, the spec's `oneOf` lists of attribute models overlap (an
 * integer attribute also fits `attributeFloat`), so they are read as `anyOf`.
 */
function patch1_9(spec: Spec): void {
  const walk = (node: unknown): void => {
    if (node === null || typeof node !== "object") return;
    const record = node as Record<string, unknown>;
    if (Array.isArray(record["oneOf"])) {
      record["anyOf"] = record["oneOf"];
      delete record["oneOf"];
    }
    for (const value of Object.values(record)) walk(value);
  };
  walk(spec);
  const schemas = spec.components.schemas;
  for (const name of ["document", "row"]) {
    const properties = (schemas[name]?.["properties"] ?? {}) as Record<string, Schema>;
    if (properties["$sequence"]) properties["$sequence"] = { type: "string" };
  }
  const error = (schemas["error"]?.["properties"] ?? {}) as Record<string, Schema>;
  if (error["code"]) error["code"] = { type: "integer" };
}

/** Validates recorded responses against the response schemas of Appwrite's OpenAPI specs. */
export class SpecValidator {
  private readonly ajv = new Ajv({ strict: false, allErrors: true });
  private readonly operations: {
    method: string;
    pattern: RegExp;
    template: string;
    responses: Record<string, Schema | null>;
  }[] = [];
  private readonly cache = new Map<string, ValidateFunction>();
  private errorSchema: Schema | undefined;

  constructor(files: readonly string[]) {
    addFormats(this.ajv);
    const seen = new Set<string>();
    for (const file of files) {
      // Examples hold `$id` keys that Ajv would take for schema IDs; they carry no rules.
      const spec = JSON.parse(readFileSync(file, "utf8"), (key, value: unknown) =>
        key === "example" || key === "x-example" ? undefined : value,
      ) as Spec;
      patch1_9(spec);
      this.ajv.addSchema({ components: spec.components }, file);
      for (const [template, methods] of Object.entries(spec.paths)) {
        for (const [method, operation] of Object.entries(methods)) {
          const key = `${method} ${template}`;
          if (seen.has(key) || !operation.responses) continue;
          seen.add(key);
          const responses: Record<string, Schema | null> = {};
          for (const [status, response] of Object.entries(operation.responses)) {
            const schema = response.content?.["application/json"]?.schema;
            responses[status] = schema ? this.rebase(schema, file) : null;
          }
          const pattern = new RegExp(`^/v1${template.replace(/\{[^}]+\}/g, "[^/]+")}$`);
          this.operations.push({ method: method.toUpperCase(), pattern, template, responses });
        }
      }
      this.errorSchema ??= this.rebase({ $ref: "#/components/schemas/error" }, file);
    }
    // Literal paths (`/account/sessions/email`) before parameterised ones (`/account/sessions/{id}`).
    this.operations.sort((a, b) => a.template.split("{").length - b.template.split("{").length);
  }

  private rebase(schema: Schema, file: string): Schema {
    return JSON.parse(JSON.stringify(schema).replace(/"#\/components\//g, `"${file}#/components/`)) as Schema;
  }

  private compile(key: string, schema: Schema): ValidateFunction {
    let validate = this.cache.get(key);
    if (!validate) {
      validate = this.ajv.compile(schema);
      this.cache.set(key, validate);
    }
    return validate;
  }

  /**
   * Problems with one exchange: the operation is unknown to the spec, its status is not one the
   * spec lists, or the JSON body does not match the schema. Errors (≥ 400) are checked against
   * the `error` model. Returns an empty list when it conforms.
   */
  check(exchange: Exchange): string[] {
    const label = `${exchange.method} ${exchange.path} → ${exchange.status}`;
    // One path, two SDK methods: `POST …/rows` (`…/documents`) with `rows` (`documents`) is the bulk
    // `createRows` (`createDocuments`), typed `Models.RowList` by the SDKs; the spec lists only the single
    // create's `row` model, so its answer is checked against the bulk upsert's (`PUT`, 201) list model.
    const method = isBulkCreate(exchange) ? "PUT" : exchange.method;
    const operation = this.operations.find((o) => o.method === method && o.pattern.test(exchange.path));
    if (!operation) return [`${label}: no such operation in the spec`];
    const isJson = exchange.contentType.includes("application/json");
    let schema: Schema | null | undefined;
    if (exchange.status >= 400) schema = this.errorSchema;
    else if (String(exchange.status) in operation.responses) schema = operation.responses[String(exchange.status)];
    else return [`${label}: status not in spec (${Object.keys(operation.responses).join(", ")})`];
    if (!schema) return isJson && exchange.body !== "" ? [`${label}: JSON body where the spec has none`] : [];
    if (!isJson) return [`${label}: expected JSON, got ${exchange.contentType}`];
    const validate = this.compile(`${operation.method} ${operation.template} ${exchange.status}`, schema);
    if (validate(JSON.parse(exchange.body))) return [];
    return (validate.errors ?? []).map((e) => `${label}: ${e.instancePath || "/"} ${e.message ?? ""}`);
  }
}
