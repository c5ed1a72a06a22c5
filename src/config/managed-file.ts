import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { CpilotError } from "../util/errors.ts";

export const MANAGED_NAME = "callbacks.managed.json";

export function managedPath(root: string): string {
  return join(root, MANAGED_NAME);
}

/**
 * `callbacks` (the person's: they run) and `proposed` (an agent's: they run only once the
 * person moved them into `callbacks`). Both [] when the file does not exist.
 */
export interface ManagedFile {
  callbacks: unknown[];
  proposed: unknown[];
}

export function readManagedFile(root: string): ManagedFile {
  const path = managedPath(root);
  if (!existsSync(path)) return { callbacks: [], proposed: [] };
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, "utf8"));
  } catch (err) {
    throw new CpilotError(`Cannot parse "${MANAGED_NAME}": ${(err as Error).message}`, {
      hint: "fix the JSON, or delete the file to drop the callbacks tools created",
    });
  }
  const callbacks = (value as { callbacks?: unknown })?.callbacks;
  const proposed = (value as { proposed?: unknown })?.proposed;
  if (!Array.isArray(callbacks) || (proposed !== undefined && !Array.isArray(proposed))) {
    throw new CpilotError(
      `Cannot use "${MANAGED_NAME}": expected { "callbacks": [...] } (and "proposed": [...])`,
      { hint: "fix the file, or delete it" },
    );
  }
  return { callbacks, proposed: proposed ?? [] };
}

/** The managed callbacks that run, unvalidated. */
export function readManaged(root: string): unknown[] {
  return readManagedFile(root).callbacks;
}
