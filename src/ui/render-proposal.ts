import { isDeletion, type Proposal } from "../config/proposals.ts";

/**
 * Characters that would change what the terminal shows rather than show themselves (escape
 * sequences, carriage returns, bidirectional overrides, zero-width marks): a proposal could
 * use them to hide part of its command from the person approving it.
 */
const HIDING =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g;

function visible(line: string): string {
  return line.replace(HIDING, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** One field's value as indented JSON lines, each after `mark`. */
function shown(mark: string, key: string, value: unknown): string[] {
  if (typeof value === "string" && value.includes("\n")) {
    return [
      `${mark} ${key}: |`,
      ...value.split("\n").map((line) => `${mark}     ${visible(line)}`),
    ];
  }
  return `${key}: ${JSON.stringify(value, null, 2)}`
    .split("\n")
    .map((line) => `${mark} ${visible(line)}`);
}

/**
 * An agent's proposal as the person reads it before approving: the whole callback when it
 * is new, the fields that change (before `-`, after `+`) when it replaces one, or the
 * callback that goes when it deletes one. Every field is shown: the command above all.
 */
export function renderProposal(
  proposal: Proposal,
  approved: Record<string, unknown> | undefined,
): string {
  if (isDeletion(proposal)) {
    const lines = [visible(`delete callback "${proposal.name}"`)];
    if (approved !== undefined)
      for (const [key, value] of Object.entries(approved)) lines.push(...shown("-", key, value));
    return lines.join("\n");
  }
  const next = proposal as unknown as Record<string, unknown>;
  if (approved === undefined) {
    const lines = [visible(`new callback "${proposal.name}"`)];
    for (const [key, value] of Object.entries(next)) lines.push(...shown("+", key, value));
    return lines.join("\n");
  }
  const lines = [visible(`change callback "${proposal.name}"`)];
  for (const key of new Set([...Object.keys(approved), ...Object.keys(next)])) {
    const before = approved[key];
    const after = next[key];
    if (JSON.stringify(before) === JSON.stringify(after)) lines.push(...shown(" ", key, after));
    else {
      if (before !== undefined) lines.push(...shown("-", key, before));
      if (after !== undefined) lines.push(...shown("+", key, after));
    }
  }
  return lines.join("\n");
}
