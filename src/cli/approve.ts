import { basename } from "node:path";
import { MANAGED_NAME, readManaged } from "../config/managed.ts";
import { approveProposal, readProposals } from "../config/proposals.ts";
import { loadProjectConfigSupervised } from "../config/supervised-load.ts";
import { promptOnTty } from "../gate/index.ts";
import { renderProposal } from "../ui/render-proposal.ts";
import { paint, say } from "../ui/style.ts";
import { CpilotError } from "../util/errors.ts";
import { parseFlags } from "./_common.ts";

const ANSWER_MS = 10 * 60_000;

/**
 * Shows what an agent proposed and, after the person says yes on the terminal, makes it a
 * callback. The answer comes from the terminal only (never stdin, never a flag), so an
 * agent's shell cannot approve its own proposal.
 */
export async function approveCommand(args: string[], options: { cwd: string }): Promise<number> {
  const usage = "cpilot approve [NAME...]";
  const { values, positionals } = parseFlags(args, { config: { type: "string" } }, usage, {});
  const config = await loadProjectConfigSupervised(options.cwd, values.config);
  const root = config.root;
  const managed = readManaged(root) as Record<string, unknown>[];
  const managedNames = new Set(managed.map((c) => c?.name));
  const configNames = config.callbacks.map((c) => c.name).filter((n) => !managedNames.has(n));
  const proposals = readProposals(root);
  const approvedOf = (name: string) => managed.find((c) => c?.name === name);
  if (positionals.length === 0) {
    if (proposals.length === 0) {
      say(`nothing to approve: no proposal in ${MANAGED_NAME}`);
      return 0;
    }
    for (const p of proposals) say(`${renderProposal(p, approvedOf(p.name))}\n`);
    say(`approve one with: cpilot approve ${proposals.map((p) => p.name).join(" | ")}`);
    return 0;
  }
  for (const name of positionals) {
    const proposal = proposals.find((p) => p.name === name);
    if (proposal === undefined) {
      throw new CpilotError(`Cannot approve "${name}": no agent proposed a callback by that name`, {
        hint:
          proposals.length === 0
            ? `${basename(MANAGED_NAME)} holds no proposal`
            : `proposals: ${proposals.map((p) => p.name).join(", ")}`,
      });
    }
  }
  let refused = 0;
  for (const name of positionals) {
    const shown = proposals.find((p) => p.name === name);
    if (shown === undefined) continue;
    say(renderProposal(shown, approvedOf(name)));
    const answer = await promptOnTty(
      `Approve "${name}"? It runs in your checks, commits and CI`,
      ANSWER_MS,
    );
    if (answer === null) {
      throw new CpilotError(`Cannot approve "${name}": no terminal to ask on`, {
        hint: `run \`cpilot approve ${name}\` in a terminal, or move it from "proposed" to "callbacks" in ${MANAGED_NAME} by hand`,
      });
    }
    if (!answer) {
      say(`not approved: "${name}" stays a proposal`);
      refused++;
      continue;
    }
    const result = approveProposal(root, shown, configNames);
    if (result !== "approved") {
      throw new CpilotError(
        `Cannot approve "${name}": the proposal ${result === "changed" ? "changed" : "was withdrawn"} while you read it`,
        { hint: `run \`cpilot approve ${name}\` again to see it as it is now` },
      );
    }
    say(`${paint("approved", "green")} "${name}": it runs from now on`);
  }
  return refused > 0 ? 1 : 0;
}
