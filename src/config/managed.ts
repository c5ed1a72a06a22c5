import { writeFileAtomic } from "../util/atomic-write.ts";
import { CpilotError } from "../util/errors.ts";
import {
  MANAGED_NAME,
  type ManagedFile,
  managedPath,
  readManaged,
  readManagedFile,
} from "./managed-file.ts";

export { MANAGED_NAME, managedPath, readManaged, readManagedFile };

import type { CallbackDef } from "./types.ts";
import { validateConfig } from "./validate.ts";

// Callbacks created by tools (an agent, `cpilot add`) live in `callbacks.managed.json`: plain
// JSON a person reviews in a diff, so a hand-written config is never rewritten by a program.
export type ManagedCallback = CallbackDef & { run: string | string[] };

export function writeManagedFile(root: string, file: ManagedFile): void {
  const value = file.proposed.length > 0 ? file : { callbacks: file.callbacks };
  writeFileAtomic(managedPath(root), `${JSON.stringify(value, null, 2)}\n`);
}

function writeManaged(root: string, callbacks: unknown[]): void {
  writeManagedFile(root, { ...readManagedFile(root), callbacks });
}

/** Create or replace a managed callback, validated. Names defined in the hand-written config are refused. */
export function upsertManaged(
  root: string,
  callback: ManagedCallback,
  configNames: readonly string[],
): "created" | "updated" {
  if (configNames.includes(callback.name)) {
    throw new CpilotError(
      `Cannot change callback "${callback.name}": it is defined in the config file`,
      {
        hint: "edit callbacks.config.ts by hand, or pick another name",
      },
    );
  }
  const current = readManaged(root);
  const next = withCallback(current, callback, configNames);
  writeManaged(root, next);
  return next.length === current.length ? "updated" : "created";
}

/** `callbacks` with `callback` in place of the one of its name (or added), validated; throws naming each bad field. */
export function withCallback(
  callbacks: readonly unknown[],
  callback: ManagedCallback,
  configNames: readonly string[],
): unknown[] {
  const index = callbacks.findIndex((c) => (c as { name?: unknown })?.name === callback.name);
  const next = [...callbacks];
  if (index >= 0) next[index] = callback;
  else next.push(callback);
  const check = validateConfig({ callbacks: next }, { knownNames: configNames });
  if (!check.ok) {
    const lines = check.problems.map((p) => `${p.path}: ${p.message}`).join("; ");
    throw new CpilotError(`Cannot save callback "${callback.name}": ${lines}`, {
      hint: "fix the fields named above",
    });
  }
  return next;
}

export function deleteManaged(root: string, name: string): boolean {
  const current = readManaged(root);
  const next = current.filter((c) => (c as { name?: unknown })?.name !== name);
  if (next.length === current.length) return false;
  writeManaged(root, next);
  return true;
}
