import qs from "qs";
import { describe, expect, it } from "vitest";
import { parseQueryString, splitTarget } from "../../embedded-appwrite/http/query-string.ts";

/** A small deterministic PRNG (mulberry32), so a failure names a reproducible seed. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ (t + t);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const pick = <T>(next: () => number, items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;

const NAMES = ["queries", "total", "search", "q", "constructor", "__proto__", "a b", "x.y", "", "1st"];
const SUFFIXES = ["", "", "[0]", "[1]", "[2]", "[]", "%5B0%5D", "%5b1%5D", "[00]", "[x]", "[0][1]", "[99]", "[100]"];
const VALUES = [
  "",
  "1",
  "false",
  "a+b",
  "%7B%22method%22%3A%22limit%22%7D",
  "%zz",
  "x]=y",
  "=",
  "%E2%9C%93",
  "é",
  "a%2Bb",
];

function randomQuery(next: () => number): string {
  const parts: string[] = [];
  const count = Math.floor(next() * 6);
  for (let i = 0; i < count; i++) {
    const key = pick(next, NAMES) + pick(next, SUFFIXES);
    parts.push(next() < 0.1 ? key : `${key}=${pick(next, VALUES)}`);
  }
  return parts.join(next() < 0.1 ? "&&" : "&");
}

const QS = { arrayLimit: 100, parameterLimit: 1000, depth: 5 };

describe("emulator query strings", () => {
  it("given what the SDKs send, then the result is qs's", () => {
    const query = ["limit", "offset"].map((m, i) => `queries%5B${i}%5D=${encodeURIComponent(`{"method":"${m}"}`)}`);
    const search = `${query.join("&")}&total=false`;
    expect(parseQueryString(search)).toStrictEqual(qs.parse(search, QS));
    expect(parseQueryString(search)).toStrictEqual({
      queries: ['{"method":"limit"}', '{"method":"offset"}'],
      total: "false",
    });
  });

  it("given 5,000 random query strings (odd keys, duplicates, gaps, bad escapes), then every result is qs's", () => {
    const next = random(18);
    for (let i = 0; i < 5000; i++) {
      const search = randomQuery(next);
      expect(parseQueryString(search), search).toStrictEqual(qs.parse(search, QS));
    }
  });

  it("given long lists and many parameters, then the result is still qs's", () => {
    for (const n of [49, 50, 51, 100, 101, 150]) {
      const search = Array.from({ length: n }, (_, i) => `queries[${i}]=${i}`).join("&");
      expect(parseQueryString(search), `${n} queries`).toStrictEqual(qs.parse(search, QS));
    }
    const many = Array.from({ length: 1200 }, (_, i) => `k${i}=${i}`).join("&");
    expect(parseQueryString(many)).toStrictEqual(qs.parse(many, QS));
  });

  it("given request targets, then path and query are those of new URL", () => {
    const targets = [
      "/v1/databases/db/collections/c/documents?queries%5B0%5D=%7B%7D",
      "/v1",
      "/v1?",
      "/v1/a/./b?x=1",
      "/v1/a/../b",
      "/v1/..",
      "//evil/v1/x",
      "/v1/a b?c=d e",
      "/v1/x?a='b'&c=\"d\"#frag",
      "/v1/x?a=<b>",
      "/v1/%2e%2e/x",
      "/v1/é?q=é",
      "/v1/a\\b",
      "http://host/v1/abs?x=1",
      "/v1/a.b/c..d/?x=y.z",
    ];
    for (const target of targets) {
      const url = new URL(target, "http://emulator.invalid");
      expect(splitTarget(target), target).toStrictEqual({ pathname: url.pathname, search: url.search.slice(1) });
    }
  });
});
