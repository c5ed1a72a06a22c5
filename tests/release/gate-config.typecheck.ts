// Checked by `npm run typecheck`, never run: the npm package's hand-written GateConfig must
// accept exactly what cpilot's zod schema accepts, so a new gate option cannot go missing
// (or a removed one linger) in the types users' editors see. When this fails after a
// change to src/model/gate-schema.ts, make the same change in npm/cpilot/gate-config.ts.
import type { GateConfig as Published } from "../../npm/cpilot/gate-config.ts";
import type { GateConfig as FromSchema } from "../../src/model/gate-schema.ts";

/** Every key on both sides, one level down too (optional keys escape plain assignability). */
type Keys<T> = {
  [K in keyof T]-?: keyof NonNullable<T[K]> extends never ? K : [K, KeysOf<NonNullable<T[K]>>];
}[keyof T];
type KeysOf<T> = T extends readonly unknown[] ? never : keyof T;
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

export const sameValues: Same<Published, FromSchema> = true;
export const sameKeys: Same<Keys<Published>, Keys<FromSchema>> = true;
