/**
 * The remote result cache client against the real Turborepo remote cache server
 * (turborepo-remote-cache on 127.0.0.1, local storage in a temp folder), and against
 * servers that are down, never answer or talk nonsense.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { MAX_ENTRY_BYTES, type RecordShape, RemoteCache } from "../../src/remote-cache/client.ts";
import { type RemoteCacheSettings, remoteCacheSettings } from "../../src/remote-cache/settings.ts";
import { artifactTag, tagVerifies } from "../../src/remote-cache/signature.ts";
import {
  closedPortUrl,
  nonsenseServer,
  type RemoteCacheServer,
  recordingProxy,
  silentServer,
  startRemoteCacheServer,
} from "../support/remote-cache-server.ts";

interface Result {
  readonly key: string;
  readonly status: "passed" | "failed";
  readonly exitCode: number;
  readonly durationMs: number;
  readonly diagnostics: readonly { file: string; line: number; message: string }[];
}

const shape: RecordShape<Result> = (value, key) => {
  if (typeof value !== "object" || value === null) return undefined;
  const r = value as Record<string, unknown>;
  if (r.key !== key || (r.status !== "passed" && r.status !== "failed")) return undefined;
  if (typeof r.exitCode !== "number" || typeof r.durationMs !== "number") return undefined;
  if (!Array.isArray(r.diagnostics)) return undefined;
  return value as Result;
};

const key = (n: number) => n.toString(16).padStart(40, "a");
const result = (k: string, status: "passed" | "failed" = "passed"): Result => ({
  key: k,
  status,
  exitCode: status === "passed" ? 0 : 1,
  durationMs: 1234,
  diagnostics: status === "passed" ? [] : [{ file: "a.ts", line: 3, message: "bad" }],
});

function settings(url: string, extra: Partial<RemoteCacheSettings> = {}): RemoteCacheSettings {
  return {
    url,
    token: server.token,
    team: server.team,
    signatureKey: null,
    writeAsked: true,
    ...extra,
  };
}

function client(url: string, options: { write?: boolean; key?: string; budget?: number } = {}) {
  return new RemoteCache<Result>({
    settings: settings(url, { signatureKey: options.key ?? null }),
    shape,
    write: options.write ?? false,
    duration: (r) => r.durationMs,
    // what is tested here is not the time: a busy machine may take long to answer
    lookupBudgetMs: options.budget ?? 60_000,
  });
}

let server: RemoteCacheServer;
let signing: RemoteCacheServer;

beforeAll(async () => {
  [server, signing] = await Promise.all([
    startRemoteCacheServer(),
    startRemoteCacheServer({ storeTags: true }),
  ]);
}, 120_000); // the server takes a second to start, much longer on a busy machine
afterAll(() => {
  server?.stop();
  signing?.stop();
});

describe("against the real server", () => {
  test("a record written by a writer is read back whole by a reader; a miss is absent", async () => {
    const writer = client(server.url, { write: true });
    expect(await writer.put(key(1), result(key(1), "failed"))).toBe(true);
    expect(existsSync(server.entryPath(key(1)))).toBe(true);
    const reader = client(server.url);
    const got = await reader.getMany([key(1), key(2)]);
    expect([...got.keys()]).toEqual([key(1)]);
    expect(got.get(key(1))).toEqual(result(key(1), "failed"));
    expect(await reader.get(key(2))).toBeUndefined();
    expect(reader.notices()).toEqual([]);
  });

  test("a reader never writes: put sends nothing and nothing lands on the server", async () => {
    const proxy = recordingProxy(server.url);
    try {
      const reader = client(proxy.url, { write: false });
      expect(await reader.put(key(3), result(key(3)))).toBe(false);
      expect(proxy.seen).toEqual([]);
      expect(existsSync(server.entryPath(key(3)))).toBe(false);
    } finally {
      proxy.stop();
    }
  });

  test("without a batch query on the server, each key is asked for by itself", async () => {
    await client(server.url, { write: true }).put(key(4), result(key(4)));
    const proxy = recordingProxy(server.url);
    try {
      const reader = client(proxy.url);
      const got = await reader.getMany([key(4), key(5), key(6)]);
      expect([...got.keys()]).toEqual([key(4)]);
      // the batch query once (404 here), then one GET per key
      expect(proxy.seen.filter((r) => r.method === "POST")).toHaveLength(1);
      expect(
        proxy.seen
          .filter((r) => r.method === "GET")
          .map((r) => r.path)
          .sort(),
      ).toEqual([key(4), key(5), key(6)].map((k) => `/v8/artifacts/${k}`));
      // the next lookup does not ask for the batch query again
      await reader.getMany([key(5), key(6)]);
      expect(proxy.seen.filter((r) => r.method === "POST")).toHaveLength(1);
      expect(await reader.hasMany([key(4), key(5)])).toEqual(new Set([key(4)]));
      expect(proxy.seen.filter((r) => r.method === "HEAD")).toHaveLength(2);
    } finally {
      proxy.stop();
    }
  });

  test("with a batch query, one query finds what is there and only the hits are fetched", async () => {
    await client(server.url, { write: true }).put(key(7), result(key(7)));
    const proxy = recordingProxy(server.url, { batch: true });
    try {
      const reader = client(proxy.url);
      const got = await reader.getMany([key(7), key(8), key(9)]);
      expect([...got.keys()]).toEqual([key(7)]);
      expect(proxy.seen).toEqual([
        { method: "POST", path: "/v8/artifacts" },
        { method: "GET", path: `/v8/artifacts/${key(7)}` },
      ]);
      expect(await reader.hasMany([key(7), key(8)])).toEqual(new Set([key(7)]));
      expect(proxy.seen.filter((r) => r.method === "HEAD")).toHaveLength(0);
    } finally {
      proxy.stop();
    }
  });

  test("many keys go to the batch query a thousand at a time", async () => {
    const proxy = recordingProxy(server.url, {
      batch: true,
      exists: (hash) => existsSync(server.entryPath(hash)),
    });
    try {
      const keys = Array.from({ length: 1_500 }, (_, i) => key(100_000 + i));
      const got = await client(proxy.url, { budget: 60_000 }).getMany([key(7), ...keys]);
      expect([...got.keys()]).toEqual([key(7)]);
      expect(proxy.seen.filter((r) => r.method === "POST")).toHaveLength(2);
    } finally {
      proxy.stop();
    }
  });

  test("a signed entry verifies; one edited on the server, or read with another key, is ignored and said", async () => {
    const writer = client(signing.url, { write: true, key: "k1" });
    expect(await writer.put(key(10), result(key(10)))).toBe(true);
    expect(await writer.put(key(11), result(key(11)))).toBe(true);
    expect(readFileSync(`${signing.entryPath(key(10))}.tag`, "utf8")).not.toBe("");
    expect((await client(signing.url, { key: "k1" }).getMany([key(10)])).size).toBe(1);

    // tamper: a failed check turned into a pass, still valid JSON of the right shape
    const path = signing.entryPath(key(11));
    writeFileSync(path, readFileSync(path, "utf8").replace('"passed"', '"failed"'));
    const reader = client(signing.url, { key: "k1" });
    const got = await reader.getMany([key(10), key(11)]);
    expect([...got.keys()]).toEqual([key(10)]);
    expect(reader.notices()).toEqual([
      expect.stringContaining("1 remote cache entry ignored: the signature did not verify"),
    ]);

    const otherKey = client(signing.url, { key: "k2" });
    expect((await otherKey.getMany([key(10)])).size).toBe(0);
    expect(otherKey.notices()).toHaveLength(1);
  });

  test("with a signature key, an unsigned entry is not trusted", async () => {
    // written without a key to a server that keeps no tags: read with a key, it has none
    await client(server.url, { write: true }).put(key(12), result(key(12)));
    const reader = client(server.url, { key: "k1" });
    expect(await reader.get(key(12))).toBeUndefined();
    expect(reader.notices()).toEqual([expect.stringContaining("signature did not verify")]);
  });

  test("an entry that is not a cpilot result (its shape, another key's record, JSON at all) is ignored", async () => {
    const writer = client(server.url, { write: true });
    await writer.put(key(13), result(key(13)));
    writeFileSync(server.entryPath(key(13)), JSON.stringify({ ...result(key(13)), exitCode: "0" }));
    await writer.put(key(14), result(key(15))); // a record of another key
    await writer.put(key(16), result(key(16)));
    writeFileSync(server.entryPath(key(16)), Buffer.from([0x1f, 0x8b, 0x08, 0, 0xff, 0xfe]));
    const reader = client(server.url);
    expect((await reader.getMany([key(13), key(14), key(16)])).size).toBe(0);
    expect(reader.notices()).toEqual([
      expect.stringContaining("3 remote cache entries ignored: not a cpilot result"),
    ]);
  });

  test("an entry larger than the bound is not read", async () => {
    const writer = client(server.url, { write: true });
    await writer.put(key(17), result(key(17)));
    // still the record, valid JSON, only too long
    writeFileSync(
      server.entryPath(key(17)),
      JSON.stringify(result(key(17))) + " ".repeat(MAX_ENTRY_BYTES),
    );
    const reader = client(server.url);
    expect(await reader.get(key(17))).toBeUndefined();
    expect(reader.notices()).toEqual([expect.stringContaining("1 remote cache entry ignored")]);
  });

  test("lookups out of time stop, and writes still go: a cold CI run of many files fills the cache", async () => {
    const writer = client(server.url, { write: true, budget: 0 });
    expect((await writer.getMany([key(20), key(21)])).size).toBe(0);
    expect(writer.notices()).toEqual([expect.stringContaining("did not answer within 0 ms")]);
    expect(await writer.put(key(20), result(key(20)))).toBe(true);
    expect(existsSync(server.entryPath(key(20)))).toBe(true);
  });

  test("a wrong token is said once and the server is not asked again", async () => {
    const proxy = recordingProxy(server.url);
    try {
      const reader = new RemoteCache<Result>({
        settings: { ...settings(proxy.url), token: "wrong" },
        shape,
        write: false,
      });
      expect((await reader.getMany([key(1), key(4)])).size).toBe(0);
      expect(reader.notices()).toEqual([
        expect.stringContaining("HTTP 401 (the token is refused)"),
      ]);
      const asked = proxy.seen.length;
      await reader.getMany([key(1)]);
      expect(proxy.seen.length).toBe(asked);
    } finally {
      proxy.stop();
    }
  });
});

describe("a remote that is down, slow or talks nonsense is a miss, said once", () => {
  test("down: nothing listens", async () => {
    const reader = client(await closedPortUrl());
    expect((await reader.getMany([key(1), key(2)])).size).toBe(0);
    expect(await reader.get(key(1))).toBeUndefined();
    expect(reader.notices()).toEqual([
      expect.stringMatching(/unreachable \(.+\): checks ran without it$/),
    ]);
  });

  test("slow: a server that accepts and never answers is given up on at the budget, once", async () => {
    const silent = await silentServer();
    try {
      const reader = client(silent.url, { budget: 300 });
      expect((await reader.getMany([key(1), key(2), key(3)])).size).toBe(0);
      expect(reader.notices()).toEqual([
        expect.stringContaining("did not answer within 300 ms: checks ran without it"),
      ]);
      const connections = silent.connections();
      expect(await reader.get(key(4))).toBeUndefined();
      expect(await reader.hasMany([key(4)])).toEqual(new Set());
      expect(silent.connections()).toBe(connections);
      expect(reader.notices()).toHaveLength(1);
    } finally {
      silent.stop();
    }
  });

  test("slow: a server that answers a byte at a time is given up on at the budget too", async () => {
    let timer: ReturnType<typeof setInterval> | undefined;
    const drip = nonsenseServer((method) => {
      if (method === "POST") return new Response("", { status: 404 });
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(new TextEncoder().encode("{"));
          timer = setInterval(() => {
            try {
              controller.enqueue(new TextEncoder().encode(" "));
            } catch {
              clearInterval(timer);
            }
          }, 50);
        },
        cancel: () => clearInterval(timer),
      });
      return new Response(body, { status: 200 });
    });
    try {
      const reader = client(drip.url, { budget: 300 });
      expect(await reader.get(key(1))).toBeUndefined();
      expect(reader.notices()).toEqual([expect.stringContaining("did not answer within 300 ms")]);
    } finally {
      clearInterval(timer);
      drip.stop();
    }
  });

  test("nonsense: a batch answer that is not JSON", async () => {
    const odd = nonsenseServer(() => new Response("<html>hello</html>", { status: 200 }));
    try {
      const reader = client(odd.url);
      expect((await reader.getMany([key(1), key(2)])).size).toBe(0);
      expect(reader.notices()).toHaveLength(1);
    } finally {
      odd.stop();
    }
  });

  test("nonsense: entries of random bytes, and a server error", async () => {
    const odd = nonsenseServer((method) =>
      method === "POST"
        ? new Response("", { status: 404 })
        : new Response(crypto.getRandomValues(new Uint8Array(512)), { status: 200 }),
    );
    const failing = nonsenseServer(() => new Response("oops", { status: 500 }));
    try {
      const reader = client(odd.url);
      expect((await reader.getMany([key(1), key(2)])).size).toBe(0);
      expect(reader.notices()).toEqual([expect.stringContaining("2 remote cache entries ignored")]);
      const broken = client(failing.url);
      expect(await broken.get(key(1))).toBeUndefined();
      expect(broken.notices()).toEqual([expect.stringContaining("answered HTTP 500")]);
    } finally {
      odd.stop();
      failing.stop();
    }
  });

  test("an entry streamed past the bound, without a length, is dropped as it comes", async () => {
    const chunk = new TextEncoder().encode(" ".repeat(64 << 10));
    const streaming = nonsenseServer((method) => {
      if (method === "POST") return new Response("", { status: 404 });
      let sent = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (sent === 0)
            controller.enqueue(new TextEncoder().encode(JSON.stringify(result(key(1)))));
          else if (sent > 2 * (MAX_ENTRY_BYTES / chunk.length)) controller.close();
          else controller.enqueue(chunk);
          sent++;
        },
      });
      return new Response(body, { status: 200 });
    });
    try {
      const reader = client(streaming.url);
      expect(await reader.get(key(1))).toBeUndefined();
      expect(reader.notices()).toEqual([expect.stringContaining("1 remote cache entry ignored")]);
    } finally {
      streaming.stop();
    }
  });

  test("a redirect to another origin does not carry the token", async () => {
    const seen: (string | null)[] = [];
    const cdn = nonsenseServer(() => new Response("{}", { status: 200 }));
    const other = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch(req) {
        seen.push(req.headers.get("authorization"));
        return new Response(JSON.stringify(result(key(1))));
      },
    });
    const redirecting = nonsenseServer((method, path) =>
      method === "POST"
        ? new Response("", { status: 404 })
        : Response.redirect(`http://127.0.0.1:${other.port}${path}`, 302),
    );
    try {
      expect(await client(redirecting.url).get(key(1))).toEqual(result(key(1)));
      expect(seen).toEqual([null]);
    } finally {
      redirecting.stop();
      other.stop(true);
      cdn.stop();
    }
  });
});

describe("settings and signature", () => {
  test("the environment configures it; a bad value turns it off with the reason", () => {
    expect(remoteCacheSettings({})).toEqual({ kind: "off" });
    const on = remoteCacheSettings({
      CPILOT_REMOTE_CACHE_URL: "https://cache.example.invalid/base/",
      CPILOT_REMOTE_CACHE_TOKEN: "t",
      CPILOT_REMOTE_CACHE_TEAM: "team_x",
      CPILOT_REMOTE_CACHE_WRITE: "1",
    });
    expect(on).toEqual({
      kind: "on",
      settings: {
        url: "https://cache.example.invalid/base",
        token: "t",
        team: "team_x",
        signatureKey: null,
        writeAsked: true,
      },
    });
    const base = { CPILOT_REMOTE_CACHE_TOKEN: "t", CPILOT_REMOTE_CACHE_TEAM: "x" };
    for (const [env, problem] of [
      [{ ...base, CPILOT_REMOTE_CACHE_URL: "cache" }, "is not a URL"],
      [{ ...base, CPILOT_REMOTE_CACHE_URL: "ftp://h" }, "not an http(s) URL"],
      [{ ...base, CPILOT_REMOTE_CACHE_URL: "https://u:p@h" }, "carries credentials"],
      [{ CPILOT_REMOTE_CACHE_URL: "https://h", CPILOT_REMOTE_CACHE_TEAM: "x" }, "TOKEN is not set"],
      [
        { ...base, CPILOT_REMOTE_CACHE_URL: "https://h", CPILOT_REMOTE_CACHE_TOKEN: "a\nb" },
        "line break",
      ],
      [
        { ...base, CPILOT_REMOTE_CACHE_URL: "https://h", CPILOT_REMOTE_CACHE_TEAM: "a/../b" },
        "not a team name",
      ],
    ] as const) {
      const got = remoteCacheSettings(env);
      expect(got.kind).toBe("bad");
      expect(got.kind === "bad" ? got.problem : "").toContain(problem);
    }
  });

  test("the tag is Turborepo's: HMAC-SHA256 over hash, team and body, base64, padded or not", () => {
    const body = new TextEncoder().encode("body");
    const tag = artifactTag("secret", "abc", "team_t", body);
    const { createHmac } = require("node:crypto") as typeof import("node:crypto");
    expect(tag).toBe(createHmac("sha256", "secret").update("abcteam_tbody").digest("base64"));
    expect(tagVerifies("secret", "abc", "team_t", body, tag)).toBe(true);
    expect(tagVerifies("secret", "abc", "team_t", body, tag.replace(/=$/, ""))).toBe(true);
    expect(tagVerifies("secret", "abc", "team_u", body, tag)).toBe(false);
    expect(tagVerifies("other", "abc", "team_t", body, tag)).toBe(false);
    expect(tagVerifies("secret", "abc", "team_t", body, null)).toBe(false);
    expect(tagVerifies("secret", "abc", "team_t", body, "not base64!")).toBe(false);
  });
});
