import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { CpilotError } from "../util/errors.ts";

/** The file beside the config where tools keep the callbacks they create. */
export const MANAGED_NAME = "callbacks.managed.json";

export function managedPath(root: string): string {
  return join(root, MANAGED_NAME);
}

/** The managed callbacks, unvalidated; [] when the file does not exist. */
export function readManaged(root: string): unknown[] {
  const path = managedPath(root);
  if (!existsSync(path)) return [];
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, "utf8"));
  } catch (err) {
    throw new CpilotError(`Cannot parse "${MANAGED_NAME}": ${(err as Error).message}`, {
      hint: "fix the JSON, or delete the file to drop the callbacks tools created",
    });
  }
  const callbacks = (value as { callbacks?: unknown })?.callbacks;
  if (!Array.isArray(callbacks)) {
    throw new CpilotError(`Cannot use "${MANAGED_NAME}": expected { "callbacks": [...] }`, {
      hint: "fix the file, or delete it",
    });
  }
  return callbacks;
}
