import { CpilotError } from "../util/errors.ts";
import {
  type ManagedCallback,
  readManagedFile,
  withCallback,
  writeManagedFile,
} from "./managed.ts";

/**
 * What an agent proposed through MCP, kept in `callbacks.managed.json`'s `proposed` list: a
 * callback to create or replace, or (`delete: true`) the name of one to remove. A proposal
 * never runs; the person approves it (`cpilot approve NAME`, or by moving it into
 * `callbacks` by hand in review), and only then does it run, in their commits and CI too.
 */
export type Proposal = ManagedCallback | { name: string; delete: true };

const nameOf = (entry: unknown): unknown => (entry as { name?: unknown } | null)?.name;

/** Every proposal in the managed file (entries without a name are skipped). */
export function readProposals(root: string): Proposal[] {
  return readManagedFile(root).proposed.filter(
    (entry): entry is Proposal => typeof nameOf(entry) === "string",
  );
}

/** The proposal of that name, if any. */
export function findProposal(root: string, name: string): Proposal | undefined {
  return readProposals(root).find((p) => p.name === name);
}

/** Is it a proposal to remove a callback? */
export function isDeletion(proposal: Proposal): proposal is { name: string; delete: true } {
  return (proposal as { delete?: unknown }).delete === true;
}

/**
 * Keep `proposal` in place of the proposal of its name (or add it). A callback is validated
 * as it would be once approved, so what waits for approval can be approved.
 */
export function propose(root: string, proposal: Proposal, configNames: readonly string[]): void {
  const file = readManagedFile(root);
  if (!isDeletion(proposal)) withCallback(file.callbacks, proposal, configNames);
  const proposed = file.proposed.filter((p) => nameOf(p) !== proposal.name);
  writeManagedFile(root, { callbacks: file.callbacks, proposed: [...proposed, proposal] });
}

/** Drop the proposal of that name; false when there was none. */
export function dropProposal(root: string, name: string): boolean {
  const file = readManagedFile(root);
  const proposed = file.proposed.filter((p) => nameOf(p) !== name);
  if (proposed.length === file.proposed.length) return false;
  writeManagedFile(root, { callbacks: file.callbacks, proposed });
  return true;
}

/**
 * Make the proposal `shown` (as the person saw it) the callback that runs, and drop it from
 * the proposals. The file is read again first: a proposal that changed since it was shown
 * is not approved ("changed"), so an approval holds for the exact command the person read.
 */
export function approveProposal(
  root: string,
  shown: Proposal,
  configNames: readonly string[],
): "approved" | "changed" | "gone" {
  const file = readManagedFile(root);
  const now = file.proposed.find((p) => nameOf(p) === shown.name);
  if (now === undefined) return "gone";
  if (JSON.stringify(now) !== JSON.stringify(shown)) return "changed";
  if (configNames.includes(shown.name)) {
    throw new CpilotError(`Cannot approve "${shown.name}": the config file defines it`, {
      hint: "edit callbacks.config.ts by hand, then drop the proposal from callbacks.managed.json",
    });
  }
  const callbacks = isDeletion(shown)
    ? file.callbacks.filter((c) => nameOf(c) !== shown.name)
    : withCallback(file.callbacks, shown, configNames);
  const proposed = file.proposed.filter((p) => nameOf(p) !== shown.name);
  writeManagedFile(root, { callbacks, proposed });
  return "approved";
}
