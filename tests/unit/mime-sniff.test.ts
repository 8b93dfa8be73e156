/**
 * The embedded server's MIME sniffing (SECURITY C61) against what libmagic (`file --mime-type`, file 5.44)
 * reports for the same bytes: each expectation below was recorded from `file` on this machine.
 */
import { describe, expect, it } from "vitest";
import { sniffBytes } from "../../embedded-appwrite/services/mime-sniff.ts";

const PNG_HEAD = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex");
const SAMPLES: [string, string | Buffer, string][] = [
  ["HTML", "<html><body><script>alert(1)</script></body></html>", "text/html"],
  ["a doctype after blank lines", "  \n<!DOCTYPE html><p>x", "text/html"],
  ["a lone script tag", "<script>alert(1)</script>", "text/html"],
  ["a link inside text", 'hello <b>x</b> <a href="x">y</a>', "text/html"],
  ["a table further in", "text then <TABLE border=1>", "text/html"],
  ["SVG", '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>', "image/svg+xml"],
  ["SVG with an XML declaration", '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"/>', "image/svg+xml"],
  ["an SVG doctype", '<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "x">\n<svg/>', "image/svg+xml"],
  ["SVG after blank lines", "\n\n   <svg>", "text/plain"],
  ["SVG after a UTF-8 BOM", "\ufeff<svg/>", "text/plain"],
  ["XML", '<?xml version="1.0"?>\n<note/>', "text/xml"],
  [
    "XHTML with a declaration",
    '<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><body/></html>',
    "text/xml",
  ],
  ["JSON", '  [1, {"a": "b"}]\n', "application/json"],
  ["a JSON number", "123", "text/plain"],
  ["unclosed JSON", "[1,2", "text/plain"],
  ["an event handler without a known tag", "<img src=x onerror=alert(1)>", "text/plain"],
  ["plain text", "hello", "text/plain"],
  ["ISO-8859 text", Buffer.from("caf\xe9 latin1", "latin1"), "text/plain"],
  ["text with escape sequences", "\x1b[31mred", "text/plain"],
  ["UTF-16 HTML", Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("<html>", "utf16le")]), "text/html"],
  ["binary", Buffer.from([0, 1, 2, 0x62, 0x69, 0x6e]), "application/octet-stream"],
  ["a shift-out byte", "ab\x0ecd", "application/octet-stream"],
  ["a GIF header with a script", "GIF89a<script>", "image/gif"],
  ["a PNG header", PNG_HEAD, "image/png"],
];

describe("sniffBytes (C61)", () => {
  it.each(SAMPLES)("types %s as libmagic does", async (_, content, expected) => {
    const bytes = typeof content === "string" ? Buffer.from(content, "utf8") : content;
    expect(await sniffBytes(bytes)).toBe(expected);
  });
});
