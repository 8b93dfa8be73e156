/**
 * The Appwrite schema of the content model (ARCHITECTURE decision 4): database, collections with their
 * attributes and indexes, and the images bucket, derived from `model/model.ts` in exactly the shape and
 * key order `appwrite pull collections` and then `appwrite pull tables` (appwrite-cli 12) write, so the
 * committed `model/appwrite.json` round-trips through the official CLI with either command (SECURITY C60,
 * C75). Both forms are in the file: `databases`/`collections` for the deprecated `push collections`, and
 * `tablesDB`/`tables` (the same database and tables) for `push tables`, which deletes every database the file
 * has no `tablesDB` entry for. `npm run schema` regenerates the file; `tests/unit/appwrite-schema.test.ts`
 * checks the committed file equals it.
 */
import { DATABASE_ID, IMAGE_EXTENSIONS, IMAGES_BUCKET_ID, MAX_IMAGE_BYTES, PROJECT_ID } from "./content.ts";
import {
  CONTENT_LOCALES,
  CONTENT_MODEL,
  DEFAULT_CONTENT_LOCALE,
  HISTORY_MODEL,
  MEDIA_MODEL,
  SERVICE_MODEL,
  SUBMISSION_MODEL,
  fieldsOf,
  type FieldSpec,
  type KindSpec,
} from "./model.ts";
import { LIMITS } from "./limits.ts";
import { LIFECYCLE_ATTRIBUTES, LIFECYCLE_INDEX } from "./lifecycle.ts";

/** The largest `size` of Appwrite 1.9's `varchar` column (its reference: "Maximum size is 16381"). */
export const VARCHAR_MAX_SIZE = 16381;

/** An attribute as `appwrite pull` writes it: plain strings carry `size` and `encrypt`, formatted ones `format`. */
function attribute(key: string, field: FieldSpec): Record<string, unknown> {
  // Appwrite refuses a default on a required attribute: the locale is optional with default `en`.
  const required = !field.optional && !["image", "owner", "locale"].includes(field.type);
  const type = field.type === "date" ? "datetime" : field.type === "boolean" ? "boolean" : "string";
  const head = { key, type, required, array: false };
  switch (field.type) {
    case "url":
    case "image":
      return { ...head, format: "url", default: null };
    case "email":
      return { ...head, format: "email", default: null };
    case "date":
      return { ...head, format: "datetime", default: null };
    case "slug":
      return { ...head, size: 128, default: null, encrypt: false };
    case "owner":
      return { ...head, size: 36, default: null, encrypt: false };
    case "text":
    case "html":
      return { ...head, size: field.max ?? LIMITS.html, default: null, encrypt: false };
    case "locale":
      return {
        ...head,
        elements: [...CONTENT_LOCALES],
        format: "enum",
        default: field.optional ? null : DEFAULT_CONTENT_LOCALE,
      };
    case "boolean":
      return { ...head, default: null };
  }
}

/**
 * A collection of `spec`; `lifecycle`: with the lifecycle's `status`/`publishAt` columns and their index
 * (ventures and posts, `model/lifecycle.ts`).
 */
function collection(spec: KindSpec, lifecycle = false): Record<string, unknown> {
  const indexes = lifecycle ? [...spec.indexes, LIFECYCLE_INDEX] : spec.indexes;
  return {
    $id: spec.collectionId,
    $permissions: [...spec.permissions],
    databaseId: DATABASE_ID,
    name: spec.label,
    enabled: true,
    documentSecurity: true,
    attributes: [
      ...fieldsOf(spec).map(([key, field]) => attribute(key, field)),
      ...(lifecycle ? LIFECYCLE_ATTRIBUTES : []),
    ],
    indexes: indexes.map((index) => ({
      key: index.key,
      type: index.type,
      status: "available",
      attributes: [...index.attributes],
      orders: [...index.orders],
    })),
  };
}

/**
 * `collection` as `appwrite pull tables` (CLI 12, `KeysTable`) writes it once `studio setup` made it: `rowSecurity`
 * for `documentSecurity`, `columns` for `attributes`, each index's `columns` for its `attributes`, the other keys
 * in the same order; and a plain string of at most `VARCHAR_MAX_SIZE` characters is the `varchar` column
 * `studio setup` creates (lib/appwrite/setup.ts), which TablesDB reports as such: declared `string`, the CLI's
 * `push tables` would delete and recreate it, losing its data.
 */
function table(collection: Record<string, unknown>): Record<string, unknown> {
  const { documentSecurity, attributes, indexes, ...head } = collection as {
    documentSecurity: boolean;
    attributes: Record<string, unknown>[];
    indexes: ({ attributes: string[] } & Record<string, unknown>)[];
  } & Record<string, unknown>;
  return {
    ...head,
    rowSecurity: documentSecurity,
    columns: attributes.map((column) =>
      column["type"] === "string" && column["format"] === undefined && Number(column["size"]) <= VARCHAR_MAX_SIZE
        ? { ...column, type: "varchar" }
        : column,
    ),
    indexes: indexes.map(({ attributes: columns, ...index }) => {
      const { key, type, status, orders } = index;
      return { key, type, status, columns, orders };
    }),
  };
}

/**
 * The whole `appwrite.json` of the project: database `main_db`, the collections of `CONTENT_MODEL`,
 * `SUBMISSION_MODEL`, `SERVICE_MODEL`, `HISTORY_MODEL` and `MEDIA_MODEL` in that order, the images bucket (public read, file
 * security, 5 MB, image types only: SECURITY C30, C31, C61), then the same database and collections as
 * `tablesDB` and `tables` (SECURITY C75: without them `appwrite push tables --all --force` deletes `main_db`).
 * `projectId` is `PROJECT_ID`, the id the embedded server takes for a new data folder, so the CLI reaches it
 * with this file as it is (README "The official Appwrite CLI").
 */
export function appwriteSchema(): Record<string, unknown> {
  const databases = [{ $id: DATABASE_ID, name: "Main", enabled: true }];
  const collections = [
    ...Object.values(CONTENT_MODEL).map((spec) => collection(spec, true)),
    ...[
      ...Object.values(SUBMISSION_MODEL),
      ...Object.values(SERVICE_MODEL),
      ...Object.values(HISTORY_MODEL),
      ...Object.values(MEDIA_MODEL),
    ].map((spec) => collection(spec)),
  ];
  return {
    projectId: PROJECT_ID,
    projectName: "Venture Studio",
    databases,
    collections,
    buckets: [
      {
        $id: IMAGES_BUCKET_ID,
        $permissions: ['read("any")'],
        fileSecurity: true,
        name: "Images",
        enabled: true,
        maximumFileSize: MAX_IMAGE_BYTES,
        allowedFileExtensions: [...IMAGE_EXTENSIONS],
        compression: "none",
        encryption: false,
        antivirus: false,
      },
    ],
    tablesDB: databases.map((database) => ({ ...database })),
    tables: collections.map(table),
  };
}
