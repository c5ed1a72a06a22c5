import type * as NodeCrypto from "node:crypto";
import { nodeBuiltin } from "../platform/builtin.ts";

/** As Turborepo computes it: HMAC-SHA256 over the fixed-length hex hash, the team and the body, base64. */
export function artifactTag(key: string, hash: string, team: string, body: Uint8Array): string {
  const { createHmac } = nodeBuiltin<typeof NodeCrypto>("node:crypto");
  return createHmac("sha256", key).update(hash).update(team).update(body).digest("base64");
}

/** Compared in constant time. */
export function tagVerifies(
  key: string,
  hash: string,
  team: string,
  body: Uint8Array,
  tag: string | null,
): boolean {
  if (tag === null || !/^[A-Za-z0-9+/]{43}=?$/.test(tag.trim())) return false;
  const { timingSafeEqual } = nodeBuiltin<typeof NodeCrypto>("node:crypto");
  const want = Buffer.from(artifactTag(key, hash, team, body), "base64");
  const got = Buffer.from(tag.trim(), "base64");
  return got.length === want.length && timingSafeEqual(got, want);
}
