import type { z } from "zod";
import { configSchema } from "./schema.ts";

type Loose = {
  def?: { type?: string; innerType?: unknown; element?: unknown; out?: unknown; in?: unknown };
  shape?: Record<string, unknown>;
};

function unwrap(schema: unknown): Loose | undefined {
  let s = schema as Loose | undefined;
  for (let i = 0; i < 10 && s?.def; i++) {
    const t = s.def.type;
    if (t === "optional" || t === "default" || t === "nullable" || t === "readonly")
      s = s.def.innerType as Loose;
    else if (t === "pipe")
      s = ((s.def.out as Loose)?.def?.type === "transform" ? s.def.in : s.def.out) as Loose;
    else return s;
  }
  return s;
}

/** The keys the schema allows at a key path, for "did you mean"; empty where it is not an object. */
export function keysAt(path: readonly PropertyKey[], root: z.ZodType = configSchema): string[] {
  let s = unwrap(root);
  for (const key of path) {
    if (s === undefined) return [];
    if (typeof key === "number") s = unwrap(s.def?.type === "array" ? s.def.element : undefined);
    else s = unwrap(s.shape?.[key as string]);
  }
  return s?.shape ? Object.keys(s.shape) : [];
}
