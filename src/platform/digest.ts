import type * as NodeCrypto from "node:crypto";
import { nodeBuiltin } from "./builtin.ts";
import { bun } from "./bun.ts";

export function sha1Hex(data: string | Uint8Array): string {
  if (bun) return new bun.CryptoHasher("sha1").update(data).digest("hex");
  const { createHash } = nodeBuiltin<typeof NodeCrypto>("node:crypto");
  return createHash("sha1").update(data).digest("hex");
}

/** Of `parts` one after the other (git's two object formats). */
export function digestHex(algorithm: "sha1" | "sha256", parts: readonly Uint8Array[]): string {
  if (bun) {
    const h = new bun.CryptoHasher(algorithm);
    for (const p of parts) h.update(p);
    return h.digest("hex");
  }
  const h = nodeBuiltin<typeof NodeCrypto>("node:crypto").createHash(algorithm);
  for (const p of parts) h.update(p);
  return h.digest("hex");
}

export function sha1Hasher(): { update(data: Uint8Array): void; digest(): string } {
  if (bun) {
    const h = new bun.CryptoHasher("sha1");
    return { update: (d) => void h.update(d), digest: () => h.digest("hex") };
  }
  const h = nodeBuiltin<typeof NodeCrypto>("node:crypto").createHash("sha1");
  return { update: (d) => void h.update(d), digest: () => h.digest("hex") };
}

export function randomHex(bytes: number): string {
  const buf = crypto.getRandomValues(new Uint8Array(bytes));
  let hex = "";
  for (const b of buf) hex += b.toString(16).padStart(2, "0");
  return hex;
}
