import { nearest } from "./_similar.ts";
import { type Block, blockAt, blocksIn, sectionEnd } from "./blocks.ts";
import type { MdLine } from "./markdown.ts";

/** Lowercase, one space between words, no markdown prefix (`## `, `- [ ] `). */
export function normalizeLabel(text: string): string {
  return text
    .normalize("NFC")
    .replace(/^\s*#{1,6}\s+/, "")
    .replace(/^\s*(?:[-*+]|\d{1,9}[.)])\s+(?:\[[ xX]\]\s+)?/, "")
    .replace(/\s+/g, " ")
    .trim()
    .toLowerCase();
}

/** Partial matches never split a word ("use" ≠ "because"). */
function words(label: string): string {
  return ` ${label.replace(/[^\p{L}\p{N}]+/gu, " ").trim()} `;
}

export type Lookup<T> =
  | { kind: "found"; match: T; partial: boolean }
  | { kind: "none"; suggestions: string[] }
  | { kind: "ambiguous"; matches: T[] };

/** `line 12: ## Title`. */
export function describe(lines: readonly MdLine[], block: { start: number }): string {
  return `line ${block.start + 1}: ${(lines[block.start]?.text ?? "").trim()}`;
}

/** An exact (normalized) match wins, else a unique whole-word match. None or several is reported, never guessed. */
export function findBlock(
  lines: readonly MdLine[],
  id: string,
  options: {
    from?: number;
    to?: number;
    accept?: (block: Block) => boolean;
    labelled?: (wanted: string) => readonly number[];
  } = {},
): Lookup<Block> {
  const wanted = normalizeLabel(id);
  const from = options.from ?? 0;
  const to = options.to ?? lines.length;
  const accept = options.accept ?? (() => true);
  if (options.labelled !== undefined) {
    // An exact match needs only the lines of that label; the rest is read only without one.
    const exact: Block[] = [];
    for (const i of options.labelled(wanted)) {
      if (i < from || i >= to) continue;
      const block = blockAt(lines, i, from, to);
      if (block !== undefined && accept(block)) exact.push(block);
    }
    if (exact.length === 1) return { kind: "found", match: exact[0] as Block, partial: false };
    if (exact.length > 1) return { kind: "ambiguous", matches: exact };
  }
  const blocks = blocksIn(lines, from, to).filter(accept);
  const exact = blocks.filter((block) => normalizeLabel(block.label) === wanted);
  const wantedWords = words(wanted);
  const partial =
    exact.length > 0 || wantedWords.trim() === ""
      ? []
      : blocks.filter((block) => words(normalizeLabel(block.label)).includes(wantedWords));
  const matches = exact.length > 0 ? exact : partial;
  if (matches.length === 1) {
    return { kind: "found", match: matches[0] as Block, partial: exact.length === 0 };
  }
  if (matches.length > 1) return { kind: "ambiguous", matches };
  const near = nearest(wanted, blocks, (block) => normalizeLabel(block.label));
  return { kind: "none", suggestions: near.map((block) => describe(lines, block)) };
}

/** Exact after normalizing; `known`: the heading lines' indexes, when the caller keeps them. */
export function findSection(
  lines: readonly MdLine[],
  name: string,
  known?: readonly number[],
): Lookup<number> {
  const wanted = normalizeLabel(name);
  const headings: number[] = known === undefined ? [] : [...known];
  if (known === undefined)
    lines.forEach((line, index) => {
      if (line.heading) headings.push(index);
    });
  const label = (index: number) => normalizeLabel(lines[index]?.heading?.text ?? "");
  const matches = headings.filter((index) => label(index) === wanted);
  if (matches.length === 1) return { kind: "found", match: matches[0] as number, partial: false };
  if (matches.length > 1) return { kind: "ambiguous", matches };
  const near = nearest(wanted, headings, label);
  return { kind: "none", suggestions: near.map((index) => describe(lines, { start: index })) };
}

export function sectionBody(
  lines: readonly MdLine[],
  heading: number,
  headings?: readonly number[],
): { from: number; to: number } {
  return { from: heading + 1, to: sectionEnd(lines, heading, headings) };
}
