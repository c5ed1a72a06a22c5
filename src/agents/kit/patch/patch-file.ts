/** One file section of an apply_patch patch, as the agent that applies it reads it. */
export interface PatchFile {
  readonly op: "add" | "update" | "delete";
  /** As the agent reads it from the patch (relative to the agent's folder, or absolute). */
  readonly path: string;
  /** Update with `*** Move to:`: where the file ends up. */
  readonly moveTo?: string;
  /** Add: the new file's text. */
  readonly content?: string;
}

/**
 * A patch read by one agent's rules: its files in order, or why the agent would refuse it
 * (cpilot then refuses it too, so the two never differ on what a patch writes).
 */
export type PatchReading =
  | { readonly ok: true; readonly files: readonly PatchFile[] }
  | { readonly ok: false; readonly error: string };
