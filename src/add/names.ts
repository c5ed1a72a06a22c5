import { NAME_PATTERN } from "../config/schema.ts";
import { CpilotError } from "../util/errors.ts";

export interface TakenNames {
  /** Never replaced by `cpilot add`. */
  readonly config: readonly string[];
  /** Replaced only with --replace. */
  readonly managed: readonly string[];
}

/** The first of `base`, `base-2`, `base-3` … that is free and still a valid slug. */
export function freeName(base: string, taken: readonly string[]): string {
  if (!taken.includes(base)) return base;
  for (let i = 2; ; i++) {
    const suffix = `-${i}`;
    const candidate = `${base.slice(0, 64 - suffix.length)}${suffix}`;
    if (!taken.includes(candidate)) return candidate;
  }
}

/**
 * A `--name` is used as is: a clash with the config is an error, with a managed callback it
 * needs `--replace`. A chosen name moves aside (`cargo-check-2`) unless `--replace` is given.
 */
export function chooseName(
  proposed: string,
  explicit: string | undefined,
  taken: TakenNames,
  replace: boolean,
): { name: string; renamed: boolean } {
  if (explicit !== undefined) {
    if (!NAME_PATTERN.test(explicit)) {
      throw new CpilotError(`Cannot use name "${explicit}": expected a slug`, {
        hint: "lowercase letters, digits, - and _, e.g. --name cargo-check",
      });
    }
    if (taken.config.includes(explicit)) {
      throw new CpilotError(
        `Cannot add callback "${explicit}": the config file already defines it`,
        {
          hint: "pick another --name, or edit that callback in callbacks.config.ts",
        },
      );
    }
    if (taken.managed.includes(explicit) && !replace) {
      throw new CpilotError(
        `Cannot add callback "${explicit}": callbacks.managed.json already has it`,
        {
          hint: "pass --replace to overwrite it, or pick another --name",
        },
      );
    }
    return { name: explicit, renamed: false };
  }
  if (replace && taken.managed.includes(proposed)) return { name: proposed, renamed: false };
  const name = freeName(proposed, [...taken.config, ...taken.managed]);
  return { name, renamed: name !== proposed };
}
