import busboy from "busboy";
import { createHash, randomBytes } from "node:crypto";
import { createWriteStream, rmSync } from "node:fs";
import type { IncomingMessage } from "node:http";
import { join } from "node:path";
import { AppwriteError } from "../errors.ts";
import { makePrivateDir } from "../private-data.ts";

/** The `file` part of an upload, streamed to a temporary file. */
export interface UploadedPart {
  tempPath: string;
  filename: string;
  size: number;
  md5: string;
  /** True when the part was larger than `maxFileBytes` (the temp file is then incomplete). */
  truncated: boolean;
}

/** Form fields (`name[]` fields collected into arrays under `name`) and the file part. */
export interface MultipartBody {
  fields: Record<string, string | string[]>;
  file?: UploadedPart;
}

/**
 * Read a `multipart/form-data` upload (REFERENCE §1 "Multipart"): text fields plus one `file`
 * part, streamed to `tempDir/<random>` while its MD5 is computed; at most `maxFileBytes` are
 * written. The caller owns (and must delete or rename) `file.tempPath`.
 * Throws 400 `general_bad_request` when the body is not valid multipart.
 */
export function readMultipart(req: IncomingMessage, tempDir: string, maxFileBytes: number): Promise<MultipartBody> {
  makePrivateDir(tempDir);
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        defParamCharset: "utf8",
        limits: { files: 1, fields: 200, fieldSize: 65536, fileSize: maxFileBytes },
      });
    } catch {
      reject(new AppwriteError("general_bad_request", "The request body must be multipart/form-data."));
      return;
    }
    const fields: Record<string, string | string[]> = {};
    let file: UploadedPart | undefined;
    let pending: Promise<void> = Promise.resolve();
    parser.on("field", (name, value) => {
      if (name.endsWith("[]")) {
        const key = name.slice(0, -2);
        const list = fields[key];
        fields[key] = Array.isArray(list) ? [...list, value] : [value];
      } else {
        fields[name] = value;
      }
    });
    parser.on("file", (name, stream, info) => {
      if (name !== "file" || file) {
        stream.resume();
        return;
      }
      const tempPath = join(tempDir, `${randomBytes(16).toString("hex")}.part`);
      const hash = createHash("md5");
      const part: UploadedPart = { tempPath, filename: info.filename ?? "", size: 0, md5: "", truncated: false };
      file = part;
      const out = createWriteStream(tempPath, { flags: "wx", mode: 0o600 });
      stream.on("data", (chunk: Buffer) => {
        part.size += chunk.length;
        hash.update(chunk);
      });
      stream.on("limit", () => {
        part.truncated = true;
      });
      pending = new Promise<void>((done, fail) => {
        out.on("finish", () => {
          part.md5 = hash.digest("hex");
          done();
        });
        out.on("error", fail);
      });
      stream.pipe(out);
    });
    parser.on("error", () => {
      if (file) rmSync(file.tempPath, { force: true });
      reject(new AppwriteError("general_bad_request", "Invalid multipart body."));
    });
    parser.on("close", () => {
      pending.then(
        () => resolve({ fields, file }),
        (error: unknown) => {
          if (file) rmSync(file.tempPath, { force: true });
          reject(error);
        },
      );
    });
    req.pipe(parser);
  });
}
