export interface PatchFile {
  readonly op: "add" | "update" | "delete";
  /** Relative to the agent's folder, or absolute. */
  readonly path: string;
  readonly moveTo?: string;
  readonly content?: string;
}

/** Or why the agent would refuse it: cpilot then refuses it too, so the two never differ. */
export type PatchReading =
  | { readonly ok: true; readonly files: readonly PatchFile[] }
  | { readonly ok: false; readonly error: string };
