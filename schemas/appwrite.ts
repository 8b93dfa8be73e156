/**
 * The Appwrite schema of the content model (ARCHITECTURE decision 4): database, collections with their
 * attributes and indexes, and the images bucket, derived from `schemas/model.ts` in exactly the shape and
 * key order `appwrite pull collections` (appwrite-cli 12) writes, so the committed `schemas/appwrite.json`
 * round-trips through the official CLI (SECURITY C60). `npm run schema` regenerates the file;
 * `tests/unit/appwrite-schema.test.ts` checks the committed file equals it.
 */
import { DATABASE_ID, IMAGE_EXTENSIONS, IMAGES_BUCKET_ID, MAX_IMAGE_BYTES } from "./content.ts";
import {
  CONTENT_LOCALES,
  CONTENT_MODEL,
  DEFAULT_CONTENT_LOCALE,
  HISTORY_MODEL,
  SERVICE_MODEL,
  SUBMISSION_MODEL,
  fieldsOf,
  type FieldSpec,
  type KindSpec,
} from "./model.ts";
import { LIMITS } from "./limits.ts";
import { LIFECYCLE_ATTRIBUTES, LIFECYCLE_INDEX } from "./lifecycle.ts";

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
 * (ventures and posts, `schemas/lifecycle.ts`).
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
 * The whole `appwrite.json` of the project: database `main_db`, the collections of `CONTENT_MODEL`,
 * `SUBMISSION_MODEL`, `SERVICE_MODEL` and `HISTORY_MODEL` in that order, and the images bucket (public read, file security, 5 MB, image types only:
 * SECURITY C30, C31, C61).
 */
export function appwriteSchema(): Record<string, unknown> {
  return {
    projectId: "venture-studio",
    projectName: "Venture Studio",
    databases: [{ $id: DATABASE_ID, name: "Main", enabled: true }],
    collections: [
      ...Object.values(CONTENT_MODEL).map((spec) => collection(spec, true)),
      ...[...Object.values(SUBMISSION_MODEL), ...Object.values(SERVICE_MODEL), ...Object.values(HISTORY_MODEL)].map(
        (spec) => collection(spec),
      ),
    ],
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
  };
}
