/**
 * Appwrite error catalogue (subset) and the error class every handler throws.
 *
 * Types, HTTP codes and default messages are copied from Appwrite's `app/config/errors.php`
 * (REFERENCE §7, `errors.json`). A `%s` in a message is filled from `params`, as
 * `Appwrite\Extend\Exception`'s constructor does.
 */

/** Version reported in error bodies and `/health/version` (AW `APP_VERSION_STABLE`). */
export const APPWRITE_VERSION = "1.9.6";

const CATALOGUE = {
  general_unknown: [500, "An unknown error has occurred. Please check the logs for more information."],
  general_access_forbidden: [401, "Access to this API is forbidden."],
  general_unauthorized_scope: [
    401,
    "The current user or API key does not have the required scopes to access the requested resource.",
  ],
  general_argument_invalid: [
    400,
    "The request contains one or more invalid arguments. Please refer to the endpoint documentation.",
  ],
  general_route_not_found: [
    404,
    "Route not found. Please ensure the endpoint is configured correctly and that the API route is valid for this SDK version. Refer to the API docs for more details.",
  ],
  general_query_invalid: [400, "The query's syntax is invalid. Please check the query and try again."],
  general_cursor_not_found: [
    400,
    "The cursor is invalid. This can happen if the item represented by the cursor has been deleted.",
  ],
  general_not_implemented: [
    405,
    "This method was not fully implemented yet. If you believe this is a mistake, please upgrade your Appwrite server version.",
  ],
  general_bad_request: [400, "There was an error processing your request. Please check the inputs and try again."],
  general_server_error: [500, "An internal server error occurred."],
  general_rate_limit_exceeded: [
    429,
    "Rate limit for the current endpoint has been exceeded. Please try again after some time.",
  ],
  general_unknown_origin: [
    403,
    "The request originated from an unknown origin. If you trust this domain, please list it as a trusted platform in the Appwrite console.",
  ],
  project_not_found: [
    404,
    "Project with the requested ID could not be found. Please check the value of the X-Appwrite-Project header to ensure the correct project ID is being used.",
  ],
  user_unauthorized: [401, "The current user is not authorized to perform the requested action."],
  user_already_exists: [409, "A user with the same id, email, or phone already exists in this project."],
  user_not_found: [404, "User with the requested ID could not be found."],
  user_invalid_credentials: [401, "Invalid credentials. Please check the email and password."],
  user_blocked: [403, "The current user has been blocked."],
  user_session_already_exists: [401, "Creation of a session is prohibited when a session is active."],
  user_session_not_found: [404, "The current user session could not be found."],
  user_email_already_exists: [409, "A user with the same email already exists in the current project."],
  user_phone_already_exists: [409, "A user with the same phone number already exists in the current project."],
  user_jwt_invalid: [
    401,
    "The JWT token is invalid. Please check the value of the X-Appwrite-JWT header to ensure the correct token is being used.",
  ],
  user_jwt_and_cookie_set: [
    403,
    "JWT and cookie used in the same request. Use either `setJWT` or `setCookie`. Learn about which authentication method to use in the SSR docs: https://appwrite.io/docs/products/auth/server-side-rendering",
  ],
  user_jwt_creation_denied: [
    403,
    "A JWT cannot be created from a request authorized with a JWT. Authenticate with a session cookie or session header instead.",
  ],
  database_not_found: [404, "Database with the requested ID '%s' could not be found."],
  database_already_exists: [
    409,
    "Database with the requested ID '%s' already exists. Try again with a different ID or use ID.unique() to generate a unique ID.",
  ],
  database_query_order_null: [
    400,
    "The order attribute/column had a null value. Cursor pagination requires all documents/rows order attribute/column values are non-null.",
  ],
  collection_not_found: [404, "Collection with the requested ID '%s' could not be found."],
  collection_already_exists: [
    409,
    "A collection with the requested ID '%s' already exists. Try again with a different ID or use ID.unique() to generate a unique ID.",
  ],
  document_not_found: [404, "Document with the requested ID '%s' could not be found."],
  document_already_exists: [
    409,
    "Document with the requested ID '%s' already exists. Try again with a different ID or use ID.unique() to generate a unique ID.",
  ],
  document_unique_constraint_violation: [
    409,
    "Document violates a unique attribute constraint. Try again with different value(s).",
  ],
  document_invalid_structure: [
    400,
    "The document structure is invalid. Please ensure the attributes match the collection definition.",
  ],
  document_missing_data: [400, "The document data is missing. Try again with document data populated"],
  document_missing_payload: [
    400,
    "The document data and permissions are missing. You must provide either document data or permissions to be updated.",
  ],
  attribute_not_found: [404, "Attribute with the requested key '%s' could not be found."],
  attribute_already_exists: [
    409,
    "Attribute with the requested key '%s' already exists. Attribute keys must be unique, try again with a different key.",
  ],
  attribute_default_unsupported: [400, "Default values cannot be set for array or required attributes."],
  attribute_value_invalid: [
    400,
    "The attribute value is invalid. Please check the type, range and value of the attribute.",
  ],
  attribute_unknown: [
    400,
    "The attribute '%s' required for the index could not be found. Please confirm all your attributes are in the available state.",
  ],
  attribute_type_invalid: [400, "The attribute '%s' type is invalid."],
  index_not_found: [404, "Index with the requested key '%s' could not be found."],
  index_already_exists: [409, "Index with the requested key '%s' already exists. Try again with a different key."],
  index_invalid: [400, "Index invalid."],
  storage_bucket_not_found: [404, "Storage bucket with the requested ID could not be found."],
  storage_bucket_already_exists: [
    409,
    "A storage bucket with the requested ID already exists. Try again with a different ID or use ID.unique() to generate a unique ID.",
  ],
  storage_file_not_found: [404, "The requested file could not be found."],
  storage_file_already_exists: [409, "A storage file with the requested ID already exists."],
  storage_file_empty: [400, "Empty file passed to the endpoint."],
  storage_file_type_unsupported: [400, "The given file extension is not supported."],
  storage_invalid_file_size: [
    400,
    "The file size is either not valid or exceeds the maximum allowed size. Please check the file or the value of the _APP_STORAGE_LIMIT environment variable.",
  ],
  storage_invalid_content_range: [
    400,
    "The content range is invalid. Please check the value of the Content-Range header.",
  ],
  storage_invalid_appwrite_id: [
    400,
    "The value for x-appwrite-id header is invalid. Please check the value of the x-appwrite-id header is a valid id and not unique().",
  ],
  storage_bucket_transformations_disabled: [403, "Image transformations are disabled for the requested bucket."],
  storage_image_resolution_exceeded: [400, "The image resolution exceeds the maximum allowed for processing."],
  attribute_not_available: [400, "The requested attribute '%s' is not yet available. Please try again later."],
  attribute_invalid_resize: [
    400,
    "Existing data is too large for new size, truncate your existing data then try again.",
  ],
  index_dependency: [409, "Attribute '%s' cannot be renamed or deleted. Please remove the associated index first."],
  storage_invalid_range: [416, "The requested range is not satisfiable. Please check the value of the Range header."],
  // TablesDB names of the errors above (services/tables-db.ts) and health.
  table_not_found: [404, "Table with the requested ID '%s' could not be found."],
  table_already_exists: [
    409,
    "A table with the requested ID '%s' already exists. Try again with a different ID or use ID.unique() to generate a unique ID.",
  ],
  row_not_found: [404, "Row with the requested ID '%s' could not be found."],
  row_already_exists: [
    409,
    "Row with the requested ID '%s' already exists. Try again with a different ID or use ID.unique() to generate a unique ID.",
  ],
  row_unique_constraint_violation: [409, "Row violates a unique column constraint. Try again with different value(s)."],
  row_invalid_structure: [400, "The row structure is invalid. Please ensure the columns match the table definition."],
  row_missing_data: [400, "The row data is missing. Try again with row data populated."],
  row_missing_payload: [
    400,
    "The row data and permissions are missing. You must provide either row data or permissions to be updated.",
  ],
  column_not_found: [404, "Column with the requested key '%s' could not be found."],
  column_already_exists: [
    409,
    "Column with the requested key '%s' already exists. Column keys must be unique, try again with a different key.",
  ],
  column_default_unsupported: [400, "Default values cannot be set for array or required columns."],
  column_value_invalid: [400, "The column value is invalid. Please check the type, range and value of the column."],
  column_unknown: [
    400,
    "The column '%s' required for the index could not be found. Please confirm all your columns are in the available state.",
  ],
  column_type_invalid: [400, "The column '%s' type is invalid."],
  column_not_available: [400, "The requested column '%s' is not yet available. Please try again later."],
  column_invalid_resize: [400, "Existing data is too large for new size, truncate your existing data then try again."],
  column_index_not_found: [404, "Index with the requested key '%s' could not be found."],
  column_index_already_exists: [
    409,
    "Index with the requested key '%s' already exists. Try again with a different key.",
  ],
  column_index_invalid: [400, "Index invalid."],
  column_index_dependency: [409, "Column '%s' cannot be renamed or deleted. Please remove the associated index first."],
  attribute_limit_exceeded: [400, "The maximum number or size of attributes for collection '%s' has been reached."],
  column_limit_exceeded: [400, "The maximum number or size of columns for table '%s' has been reached."],
  health_queue_size_exceeded: [503, "Queue size threshold hit."],
  // Messaging (errors.json).
  user_target_not_found: [404, "The target could not be found."],
  user_target_already_exists: [409, "A target with the same ID already exists."],
  provider_not_found: [404, "Provider with the requested ID could not be found."],
  provider_already_exists: [409, "Provider with the requested ID already exists."],
  provider_incorrect_type: [400, "Provider with the requested ID is of the incorrect type."],
  provider_missing_credentials: [400, "Provider with the requested ID is missing credentials."],
  general_invalid_email: [400, "Value must be a valid email address."],
  general_invalid_phone: [
    400,
    "Value must be a valid phone number. Format this number with a leading '+' and a country code, e.g., +16175551212.",
  ],
  message_not_found: [404, "Message with the requested ID could not be found."],
  message_already_exists: [
    409,
    "Message with the requested ID already exists. Try again with a different ID or use ID.unique() to generate a unique ID.",
  ],
  message_missing_target: [400, "Message with the requested ID has no recipients (topics or users or targets)."],
  message_already_sent: [400, "Message with the requested ID has already been sent."],
  message_already_processing: [400, "Message with the requested ID is already being processed."],
  message_already_failed: [400, "Message with the requested ID has already failed."],
  message_already_scheduled: [400, "Message with the requested ID has already been scheduled for delivery."],
  message_target_not_email: [400, "Message with the target ID is not an email target."],
  message_missing_schedule: [400, "Message can not have status "],
  topic_not_found: [404, "Topic with the request ID could not be found."],
  // Teams and memberships (errors.json).
  team_not_found: [404, "Team with the requested ID could not be found."],
  team_already_exists: [409, "Team with requested ID already exists. Please choose a different ID and try again."],
  team_invalid_secret: [401, "The team invitation secret is invalid. Please request a new invitation and try again."],
  team_membership_mismatch: [404, "The membership ID does not belong to the team ID."],
  team_invite_mismatch: [401, "The invite does not belong to the current user."],
  team_invite_not_found: [404, "The requested team invitation could not be found."],
  membership_not_found: [404, "Membership with the requested ID could not be found."],
  membership_already_confirmed: [409, "Membership is already confirmed."],
  // Transactions (1.8+, errors.json).
  transaction_not_found: [404, "Transaction with the requested ID '%s' could not be found."],
  transaction_invalid: [400, "The transaction is invalid. Please check the transaction state and try again."],
  transaction_failed: [400, "The transaction has errored. Please check the transaction data and try again."],
  transaction_expired: [410, "The transaction has expired. Please create a new transaction and try again."],
  transaction_conflict: [409, "The transaction has a conflict. Please resolve the conflict and try again."],
  transaction_limit_exceeded: [400, "The maximum number of operations per transaction has been exceeded."],
  transaction_not_ready: [400, "The transaction is not ready yet. Please try again later."],
} as const satisfies Record<string, readonly [number, string]>;

/** An error type known to the emulator's catalogue. */
export type ErrorType = keyof typeof CATALOGUE;

/** Whether `type` is in the emulator's catalogue. */
export function isErrorType(type: string): type is ErrorType {
  return Object.hasOwn(CATALOGUE, type);
}

/** Body Appwrite sends for every error (REFERENCE §3 "Error"). */
export interface ErrorBody {
  message: string;
  code: number;
  type: string;
  version: string;
}

/**
 * An error with an Appwrite type. `message` defaults to the catalogue text with each `%s`
 * replaced, in order, by `params`; `code` is the catalogue's HTTP status.
 */
export class AppwriteError extends Error {
  readonly type: ErrorType;
  readonly code: number;

  constructor(type: ErrorType, message?: string, params: readonly string[] = []) {
    const [code, template] = CATALOGUE[type];
    let text = message ?? template;
    if (message === undefined) {
      for (const param of params) text = text.replace("%s", param);
    }
    super(text);
    this.type = type;
    this.code = code;
  }

  /** The JSON body Appwrite would send for this error. */
  toBody(): ErrorBody {
    return { message: this.message, code: this.code, type: this.type, version: APPWRITE_VERSION };
  }
}

/**
 * Shorthand for a 400 `general_argument_invalid` error with utopia-php/http's wording:
 * ``Invalid `<param>` param: <description>`` (REFERENCE §7).
 */
export function invalidParam(param: string, description: string): AppwriteError {
  return new AppwriteError("general_argument_invalid", `Invalid \`${param}\` param: ${description}`);
}

/** 400 `general_argument_invalid` for a missing required parameter: `Param "<param>" is not optional.` */
export function missingParam(param: string): AppwriteError {
  return new AppwriteError("general_argument_invalid", `Param "${param}" is not optional.`);
}
