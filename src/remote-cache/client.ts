import { type Answer, NoAnswer, request } from "./_http.ts";
import { remoteCacheText } from "./messages.ts";
import type { RemoteCacheSettings } from "./settings.ts";
import { artifactTag, tagVerifies } from "./signature.ts";

/** The record when it has a cpilot result's shape and belongs to `key`. */
export type RecordShape<T> = (value: unknown, key: string) => T | undefined;

/** Lowercase hex: a safe URL segment and file name. */
export const REMOTE_KEY = /^[0-9a-f]{16,128}$/;

/** For all lookups of one process together. */
export const LOOKUP_BUDGET_MS = 400;
/** Writes come from trusted CI only; a slow server never holds a check for long. */
export const WRITE_TIMEOUT_MS = 3_000;
/** An entry is results, never files: anything larger is not one of cpilot's. */
export const MAX_ENTRY_BYTES = 4 << 20;
const QUERY_CHUNK = 1_000;
const CONCURRENCY = 8;

export interface RemoteCacheOptions<T> {
  readonly settings: RemoteCacheSettings;
  readonly shape: RecordShape<T>;
  /** Decided by writeRefusal (trust.ts): false means put() never sends anything. */
  readonly write: boolean;
  readonly duration?: (record: T) => number;
  readonly lookupBudgetMs?: number;
  readonly writeTimeoutMs?: number;
}

/**
 * A client of a Turborepo remote cache (`/v8/artifacts`) holding one JSON record per key. It
 * never throws and never waits past its budget: a bad server is a miss, told once.
 */
export class RemoteCache<T> {
  readonly origin: string;
  private readonly base: string;
  private readonly query: string;
  private readonly headers: Record<string, string>;
  private lookupSpentMs = 0;
  private batchQuery: boolean | undefined;
  private down = false;
  /** No more lookups; writes still go (they have their own timeout). */
  private outOfTime = false;
  private trouble: string | null = null;
  private unsigned = 0;
  private invalid = 0;
  private readonly pending = new Set<Promise<unknown>>();

  constructor(private readonly options: RemoteCacheOptions<T>) {
    const { url, team, token } = options.settings;
    this.origin = new URL(url).origin;
    this.base = `${url}/v8/artifacts`;
    this.query = `?${team.startsWith("team_") ? "teamId" : "slug"}=${encodeURIComponent(team)}`;
    this.headers = { authorization: `Bearer ${token}` };
  }

  async getMany(keys: readonly string[]): Promise<Map<string, T>> {
    const found = new Map<string, T>();
    const wanted = [...new Set(keys)].filter((k) => REMOTE_KEY.test(k));
    if (wanted.length === 0 || this.down || this.outOfTime) return found;
    await this.lookingUp(async (signal) => {
      const present = wanted.length > 1 ? await this.query_(wanted, signal) : wanted;
      await eachLimited(present ?? wanted, async (key) => {
        const record = await this.fetchOne(key, signal);
        if (record !== undefined) found.set(key, record);
      });
    });
    return found;
  }

  async get(key: string): Promise<T | undefined> {
    return (await this.getMany([key])).get(key);
  }

  /** Not verified: a read still checks each entry. */
  async hasMany(keys: readonly string[]): Promise<Set<string>> {
    const wanted = [...new Set(keys)].filter((k) => REMOTE_KEY.test(k));
    const has = new Set<string>();
    if (wanted.length === 0 || this.down || this.outOfTime) return has;
    await this.lookingUp(async (signal) => {
      const present = await this.query_(wanted, signal);
      if (present !== null) for (const key of present) has.add(key);
      else
        await eachLimited(wanted, async (key) => {
          const a = await this.send("HEAD", key, "a lookup", signal);
          if (a?.status === 200) has.add(key);
        });
    });
    return has;
  }

  /** Signed when a signature key is set; nothing is sent unless this process may write. */
  async put(key: string, record: T): Promise<boolean> {
    if (!this.options.write || this.down || !REMOTE_KEY.test(key)) return false;
    const body = new TextEncoder().encode(JSON.stringify(record));
    if (body.byteLength > MAX_ENTRY_BYTES) return false;
    const { signatureKey, team } = this.options.settings;
    const headers: Record<string, string> = { "content-type": "application/octet-stream" };
    const ms = this.options.duration?.(record);
    if (ms !== undefined && Number.isFinite(ms))
      headers["x-artifact-duration"] = String(Math.max(0, Math.round(ms)));
    if (signatureKey !== null)
      headers["x-artifact-tag"] = artifactTag(signatureKey, key, team, body);
    const timeout = AbortSignal.timeout(this.options.writeTimeoutMs ?? WRITE_TIMEOUT_MS);
    const sent = this.send("PUT", key, "a write", timeout, { headers, body });
    this.pending.add(sent);
    const answer = await sent.finally(() => this.pending.delete(sent));
    return answer !== null && answer.status >= 200 && answer.status < 300;
  }

  async flush(): Promise<void> {
    await Promise.allSettled([...this.pending]);
  }

  notices(): string[] {
    const out = this.trouble === null ? [] : [this.trouble];
    if (this.unsigned > 0) out.push(remoteCacheText.unsigned(this.unsigned));
    if (this.invalid > 0) out.push(remoteCacheText.invalid(this.invalid));
    return out;
  }

  /** Null when the server has no batch query (each key is then asked alone) or it failed. */
  private async query_(keys: readonly string[], signal: AbortSignal): Promise<string[] | null> {
    if (keys.length <= QUERY_CHUNK) return this.queryChunk(keys, signal);
    const present: string[] = [];
    for (let at = 0; at < keys.length; at += QUERY_CHUNK) {
      const part = await this.queryChunk(keys.slice(at, at + QUERY_CHUNK), signal);
      if (part === null) return null;
      present.push(...part);
    }
    return present;
  }

  private async queryChunk(keys: readonly string[], signal: AbortSignal): Promise<string[] | null> {
    if (this.batchQuery === false) return null;
    const answer = await this.send("POST", "", "the batch query", signal, {
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ hashes: keys }),
      miss: [404, 405, 501],
    });
    if (answer === null) return []; // the server is down: nothing to ask for
    if (answer.status !== 200) {
      this.batchQuery = false;
      return null;
    }
    const value = parseJson(answer.body);
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      this.garbage("the batch query", "not a JSON object");
      return [];
    }
    this.batchQuery = true;
    const entries = value as Record<string, unknown>;
    return keys.filter((k) => {
      const e = Object.hasOwn(entries, k) ? entries[k] : null;
      if (typeof e !== "object" || e === null) return false;
      const size = (e as { size?: unknown }).size;
      return typeof size === "number" && size >= 0 && size <= MAX_ENTRY_BYTES;
    });
  }

  private async fetchOne(key: string, signal: AbortSignal): Promise<T | undefined> {
    const answer = await this.send("GET", key, "a lookup", signal);
    if (answer === null || answer.status !== 200) return undefined;
    const body = answer.body;
    if (body === null) {
      this.invalid++;
      return undefined;
    }
    const { signatureKey, team } = this.options.settings;
    if (
      signatureKey !== null &&
      !tagVerifies(signatureKey, key, team, body, answer.headers.get("x-artifact-tag"))
    ) {
      this.unsigned++;
      return undefined;
    }
    const record = this.options.shape(parseJson(body), key);
    if (record === undefined) this.invalid++;
    return record;
  }

  /** A 404 is a miss; no answer in time, a refusal or an error status, and the server is not asked again. */
  private async send(
    method: "GET" | "HEAD" | "PUT" | "POST",
    key: string,
    what: string,
    signal: AbortSignal,
    extra: {
      headers?: Record<string, string>;
      body?: Uint8Array | string;
      miss?: readonly number[];
    } = {},
  ): Promise<Answer | null> {
    if (this.down || (method !== "PUT" && this.outOfTime)) return null;
    const url = `${this.base}${key === "" ? "" : `/${key}`}${this.query}`;
    let answer: Answer;
    try {
      answer = await request(url, {
        method,
        headers: { ...this.headers, ...extra.headers },
        ...(extra.body !== undefined ? { body: extra.body } : {}),
        signal,
        maxBody: method === "POST" ? QUERY_CHUNK * 1024 : MAX_ENTRY_BYTES,
      });
    } catch (err) {
      if (err instanceof NoAnswer) this.fail(err, method === "PUT");
      else this.garbage(what, (err as Error).message);
      return null;
    }
    const ok = answer.status >= 200 && answer.status < 300;
    if (ok || answer.status === 404 || extra.miss?.includes(answer.status)) return answer;
    this.down = true;
    this.say(remoteCacheText.refused(this.origin, answer.status, what));
    return null;
  }

  private fail(err: NoAnswer, writing: boolean): void {
    if (err.why === "budget" && !writing) this.outOfTime = true;
    else this.down = true;
    const ms = writing
      ? (this.options.writeTimeoutMs ?? WRITE_TIMEOUT_MS)
      : (this.options.lookupBudgetMs ?? this.options.settings.lookupBudgetMs ?? LOOKUP_BUDGET_MS);
    this.say(
      err.why === "budget"
        ? remoteCacheText.tooSlow(this.origin, ms)
        : remoteCacheText.unreachable(this.origin, err.message),
    );
  }

  private garbage(what: string, why: string): void {
    this.down = true;
    this.say(remoteCacheText.unreachable(this.origin, `${what}: ${why}`));
  }

  private say(text: string): void {
    this.trouble ??= text;
  }

  private async lookingUp(work: (signal: AbortSignal) => Promise<void>): Promise<void> {
    const budget =
      this.options.lookupBudgetMs ?? this.options.settings.lookupBudgetMs ?? LOOKUP_BUDGET_MS;
    const left = budget - this.lookupSpentMs;
    if (left <= 0) {
      this.fail(new NoAnswer("budget", "no time left"), false);
      return;
    }
    const started = performance.now();
    try {
      await work(AbortSignal.timeout(left));
    } finally {
      this.lookupSpentMs += performance.now() - started;
    }
  }
}

function parseJson(body: Uint8Array | null): unknown {
  if (body === null) return undefined;
  try {
    return JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(body));
  } catch {
    return undefined;
  }
}

async function eachLimited<I>(
  items: readonly I[],
  work: (item: I) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) await work(items[next++] as I);
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, items.length) }, worker));
}
