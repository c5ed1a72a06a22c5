import { isDeletion, type Proposal } from "../config/proposals.ts";

/**
 * Characters that change what the terminal shows rather than show themselves (escapes,
 * bidirectional marks, zero-width fillers, look-alike spaces): a proposal could use them to
 * hide part of its command from the person approving it.
 */
const HIDING =
  // biome-ignore lint/suspicious/noControlCharactersInRegex lint/suspicious/noMisleadingCharacterClass: control and combining characters, one by one, are what it finds
  /[\u0000-\u0008\u000b-\u001f\u007f-\u00a0\u00ad\u034f\u061c\u115f\u1160\u1680\u17b4\u17b5\u180b-\u180f\u2000-\u200f\u2028-\u202f\u205f-\u206f\u3000\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff9-\ufffb\u{1d173}-\u{1d17a}\u{e0000}-\u{e0fff}]/gu;

/** Shown as its count: padding could push the rest of a command out of sight. */
const PADDING = /[ \t]{17,}/g;

function escaped(c: string): string {
  const code = c.codePointAt(0) as number;
  return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, "0")}`;
}

function visible(line: string): string {
  return line.replace(HIDING, escaped).replace(PADDING, (run) => `[${run.length} spaces or tabs]`);
}

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

/** Every field is shown, the command above all: a new callback whole, a replacement's changes, a deletion. */
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
