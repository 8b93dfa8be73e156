/**
 * The MIME type of an uploaded file, from its content only, as Appwrite decides it: `Files/Create.php`
 * stores `getFileMimeType($path)`, PHP's `mime_content_type`, which is libmagic (REFERENCE §1 "Multipart";
 * SECURITY C61). The file's name and the part's `Content-Type` are never consulted, so HTML or SVG named
 * `.png` is stored as `text/html` / `image/svg+xml`, never `image/png`.
 *
 * Binary formats come from `file-type` (magic numbers). Text is classified with the rules of libmagic's
 * `Magdir/sgml` and `is_json.c` (file 5.44): SVG, HTML, XML, JSON, else `text/plain`; content that is not
 * text is `application/octet-stream` ("data").
 */
import { fileTypeFromBuffer } from "file-type";
import { open } from "node:fs/promises";

/** Bytes read from the file (libmagic reads up to 7 MiB; JSON longer than this counts as plain text). */
const READ_BYTES = 1024 * 1024;
/** Bytes libmagic scans to decide whether content is text (`-P encoding`). */
const ENCODING_BYTES = 64 * 1024;
/** Bytes the `search/4096` rules of `Magdir/sgml` look at. */
const SEARCH_BYTES = 4096;

/**
 * Bytes that never appear in text (libmagic `encoding.c` `text_chars`, `F`): NUL–ACK, SO–SUB, FS–US.
 * BEL, BS, HT, LF, VT, FF, CR and ESC are text; so are bytes ≥ 0x80 (UTF-8, ISO-8859 or extended ASCII).
 */
function isBinaryByte(byte: number): boolean {
  return byte <= 0x06 || (byte >= 0x0e && byte <= 0x1a) || (byte >= 0x1c && byte <= 0x1f);
}

const HTML_PATTERNS = [/<!doctype\s+html/i, /<(?:head|title|html|script|style|table)[\s>]/i, /<a\s*href=/i];

/** The text's type by libmagic's SGML/XML/JSON rules (its SVG rules first: they are the strongest). */
function textType(text: string): string {
  const head = text.slice(0, SEARCH_BYTES);
  if (/^<\?xml/i.test(head)) {
    if (/<svg/.test(head.slice(19)) || /<!doctype\s+svg/i.test(head)) return "image/svg+xml";
    return "text/xml";
  }
  if (head.startsWith("<svg") || /<!doctype\s+svg/i.test(head)) return "image/svg+xml";
  if (HTML_PATTERNS.some((pattern) => pattern.test(head))) return "text/html";
  if (/^\s*[[{]/.test(text)) {
    try {
      JSON.parse(text);
      return "application/json";
    } catch {
      // not JSON: plain text
    }
  }
  return "text/plain";
}

/**
 * Classifies `bytes`, the start of a file (libmagic's order: magic numbers, then text rules).
 * @returns a MIME type: `file-type`'s for a binary format it knows, else `image/svg+xml`, `text/html`,
 * `text/xml`, `application/json` or `text/plain` for text, else `application/octet-stream`.
 */
export async function sniffBytes(bytes: Uint8Array): Promise<string> {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const utf16 = utf16Text(buffer);
  if (utf16 !== undefined) return textType(utf16);
  const detected = await fileTypeFromBuffer(bytes);
  // file-type calls anything starting `<?xml ` XML; libmagic looks further (an SVG is an image).
  if (detected && detected.mime !== "application/xml") return detected.mime;
  if (buffer.subarray(0, ENCODING_BYTES).some(isBinaryByte)) return "application/octet-stream";
  return textType(buffer.toString("latin1"));
}

/** The text of UTF-16 content with a byte-order mark (libmagic reads it as text), else undefined. */
function utf16Text(buffer: Buffer): string | undefined {
  const little = buffer[0] === 0xff && buffer[1] === 0xfe;
  if (!little && !(buffer[0] === 0xfe && buffer[1] === 0xff)) return undefined;
  const units = Buffer.from(buffer.subarray(2, 2 + ((buffer.length - 2) & ~1)));
  const text = (little ? units : units.swap16()).toString("utf16le");
  for (let i = 0; i < Math.min(text.length, ENCODING_BYTES / 2); i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 && isBinaryByte(code)) return undefined;
  }
  return text;
}

/**
 * The MIME type of the file at `path`, from its first megabyte (see `sniffBytes`).
 * @throws {NodeJS.ErrnoException} when the file cannot be read.
 */
export async function sniffMimeType(path: string): Promise<string> {
  const handle = await open(path, "r");
  try {
    const buffer = Buffer.alloc(READ_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, READ_BYTES, 0);
    return await sniffBytes(buffer.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}
