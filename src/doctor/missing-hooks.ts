/** What an installed hook file lacks of what install writes today; the person's own hooks never count. */
import type { HookPlace } from "../agents/contract.ts";
import { isObject, readJsonObject } from "../util/json-file.ts";

/** Every tool (or every source). */
function matchesAll(matcher: unknown): boolean {
  return matcher === undefined || matcher === "" || matcher === "*";
}

/** Whether a matcher takes one alternative of the install's matcher: as written, or as a regex. */
function takes(matcher: string, alternative: string): boolean {
  if (matcher.split("|").includes(alternative)) return true;
  try {
    return new RegExp(`^(?:${matcher})$`).test(alternative);
  } catch {
    return false;
  }
}

function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === "string") out.push(value);
  else if (Array.isArray(value)) for (const v of value) strings(v, out);
  else if (isObject(value)) for (const v of Object.values(value)) strings(v, out);
  return out;
}

/** As "Event" or "Event on tool|tool"; empty when nothing is missing or the file cannot be read. */
export function missingHooks(
  place: HookPlace,
  written: Readonly<Record<string, unknown>>,
): string[] {
  let hooks: unknown;
  try {
    hooks = readJsonObject(place.path).hooks;
  } catch {
    return [];
  }
  const ourCommands = new Set(place.commands);
  const missing: string[] = [];
  for (const [event, entries] of Object.entries(written)) {
    const present = isObject(hooks) && Array.isArray(hooks[event]) ? hooks[event] : [];
    const matchers = present
      .filter((entry) => strings(entry).some((s) => ourCommands.has(s)))
      .map((entry) => (isObject(entry) ? entry.matcher : undefined));
    for (const entry of Array.isArray(entries) ? entries : []) {
      const wanted = isObject(entry) ? entry.matcher : undefined;
      if (matchesAll(wanted) || typeof wanted !== "string") {
        if (!matchers.some(matchesAll)) missing.push(event);
        continue;
      }
      const lacking = wanted
        .split("|")
        .filter(
          (tool) =>
            !matchers.some((m) => matchesAll(m) || (typeof m === "string" && takes(m, tool))),
        );
      if (lacking.length > 0) missing.push(`${event} on ${lacking.join("|")}`);
    }
  }
  return [...new Set(missing)];
}
