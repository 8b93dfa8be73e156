/**
 * The site's first Express middleware (`server/serve-site.ts`), for every request that reaches Express: the
 * common headers (SECURITY C24), TRACE/TRACK refused (C27), `no-store` on the admin and sign-in pages (C25),
 * and for a mutation: same-origin only (C8, C9) and a body cap checked before a byte is read (C30).
 */
import type { Request, RequestHandler } from "express";
import { setCommonHeaders } from "./front-door.ts";

/** Largest request body accepted, in bytes: a 5 MB image plus the form's fields (SECURITY C30). */
export const MAX_BODY_BYTES = 6 * 1024 * 1024;
/** How long a connection whose body was refused stays open after the answer, in ms (a lingering close). */
const REFUSED_BODY_LINGER_MS = 500;
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
/** Admin mutations change what public pages show. */
const ADMIN_PATH = /^\/admin(\/|$)/;
/** Pages never stored by a browser or a shared cache (C25). */
const NO_STORE_PATH = /^\/(admin|[a-z]{2}\/login)(\/|$)/;

export interface RequestGuardOptions {
  /** The request's origin (`scheme://host[:port]`), as the host check found it. */
  originOf(req: Request): string;
  /** Called when an admin mutation's answer has gone out (cached pages and reads are dropped then). */
  onAdminWrite(): void;
}

/**
 * The guard as Express middleware. Answers 405 (TRACE/TRACK), 400 (a foreign `Origin`), 403 (a cross-site
 * request without `Origin`), 411 (a body without a length) or 413 (over `MAX_BODY_BYTES`; the body is never
 * read and the connection closed shortly after the answer); passes everything else on.
 */
export function requestGuard(options: RequestGuardOptions): RequestHandler {
  return (req, res, next) => {
    setCommonHeaders(res);
    if (req.method === "TRACE" || req.method === "TRACK") {
      res.status(405).setHeader("Allow", "GET, HEAD, POST").end(); // SECURITY C27
      return;
    }
    if (NO_STORE_PATH.test(req.path)) res.setHeader("Cache-Control", "no-store"); // C25
    if (SAFE_METHODS.has(req.method)) return next();
    if (ADMIN_PATH.test(req.path)) res.once("finish", options.onAdminWrite);
    // Every mutation, UI route or resource route, must come from this site (SECURITY C8, C9).
    const origin = req.get("origin");
    if (origin !== undefined && origin !== options.originOf(req)) {
      res.status(400).type("text/plain").send("Cross-origin requests are not accepted.");
      return;
    }
    if (origin === undefined && req.get("sec-fetch-site") === "cross-site") {
      res.status(403).type("text/plain").send("Cross-site requests are not accepted.");
      return;
    }
    // Bodies are capped before a byte is read, so a huge upload never reaches memory (C30).
    const length = Number(req.get("content-length") ?? "NaN");
    if (Number.isNaN(length) ? req.get("transfer-encoding") !== undefined : length > MAX_BODY_BYTES) {
      res
        .status(Number.isNaN(length) ? 411 : 413)
        .type("text/plain")
        .send("The request body is too large (at most 6 MB).");
      // The body is never read: once the answer is out, give the client a moment to read it, then hang up
      // (a 100 MB upload costs nothing; draining it would cost reading 100 MB).
      res.once("finish", () => setTimeout(() => req.socket.destroy(), REFUSED_BODY_LINGER_MS).unref());
      return;
    }
    next();
  };
}
