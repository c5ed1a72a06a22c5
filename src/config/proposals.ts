import { CpilotError } from "../util/errors.ts";
import {
  type ManagedCallback,
  readManagedFile,
  withCallback,
  writeManagedFile,
} from "./managed.ts";

/**
 * What an agent proposed: a callback to create or replace, or a name to delete. A proposal
 * never runs until the person approves it (`cpilot approve NAME`, or by hand in review).
 */
export type Proposal = ManagedCallback | { name: string; delete: true };

const nameOf = (entry: unknown): unknown => (entry as { name?: unknown } | null)?.name;

export function readProposals(root: string): Proposal[] {
  return readManagedFile(root).proposed.filter(
    (entry): entry is Proposal => typeof nameOf(entry) === "string",
  );
}

export function findProposal(root: string, name: string): Proposal | undefined {
  return readProposals(root).find((p) => p.name === name);
}

export function isDeletion(proposal: Proposal): proposal is { name: string; delete: true } {
  return (proposal as { delete?: unknown }).delete === true;
}

/** A callback is validated as it would be once approved, so what waits can be approved. */
export function propose(root: string, proposal: Proposal, configNames: readonly string[]): void {
  const file = readManagedFile(root);
  if (!isDeletion(proposal)) withCallback(file.callbacks, proposal, configNames);
  const proposed = file.proposed.filter((p) => nameOf(p) !== proposal.name);
  writeManagedFile(root, { callbacks: file.callbacks, proposed: [...proposed, proposal] });
}

export function dropProposal(root: string, name: string): boolean {
  const file = readManagedFile(root);
  const proposed = file.proposed.filter((p) => nameOf(p) !== name);
  if (proposed.length === file.proposed.length) return false;
  writeManagedFile(root, { callbacks: file.callbacks, proposed });
  return true;
}

/**
 * Approve the proposal as `shown` to the person. The file is read again first: one that
 * changed since is not approved, so an approval holds for the exact command the person read.
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
