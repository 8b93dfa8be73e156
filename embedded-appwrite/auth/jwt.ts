import { createHmac, timingSafeEqual } from "node:crypto";

/** Claims of an account JWT (AW `POST /account/jwts`: HS256, `{userId, sessionId}` plus `exp`/`iat`). */
export interface JwtClaims {
  userId: string;
  sessionId: string;
  exp: number;
  iat: number;
}

function base64url(input: Buffer | string): string {
  return Buffer.from(input).toString("base64url");
}

/** Sign `{userId, sessionId}` as an HS256 JWT valid for `durationSeconds` (REFERENCE §4 `createJWT`). */
export function signJwt(key: Buffer, userId: string, sessionId: string, durationSeconds: number): string {
  const iat = Math.floor(Date.now() / 1000);
  const claims: JwtClaims = { userId, sessionId, exp: iat + durationSeconds, iat };
  const head = `${base64url(JSON.stringify({ typ: "JWT", alg: "HS256" }))}.${base64url(JSON.stringify(claims))}`;
  return `${head}.${base64url(createHmac("sha256", key).update(head).digest())}`;
}

/**
 * Verify an HS256 JWT made by `signJwt`. Returns its claims, or a reason (`Signature verification
 * failed`, `Expired token`, …) used in AW's `Failed to verify JWT. <reason>` message.
 */
export function verifyJwt(key: Buffer, token: string): JwtClaims | { error: string } {
  const parts = token.split(".");
  if (parts.length !== 3) return { error: "Wrong number of segments" };
  const [head = "", body = "", signature = ""] = parts;
  const expected = createHmac("sha256", key).update(`${head}.${body}`).digest();
  const given = Buffer.from(signature, "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return { error: "Signature verification failed" };
  }
  let claims: Partial<JwtClaims>;
  try {
    claims = JSON.parse(Buffer.from(body, "base64url").toString("utf8")) as Partial<JwtClaims>;
  } catch {
    return { error: "Syntax error, malformed JSON" };
  }
  if (typeof claims.exp !== "number" || claims.exp <= Math.floor(Date.now() / 1000)) return { error: "Expired token" };
  if (typeof claims.userId !== "string" || typeof claims.sessionId !== "string") return { error: "Invalid claims" };
  return claims as JwtClaims;
}
