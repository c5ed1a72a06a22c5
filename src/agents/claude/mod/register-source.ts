/**
 * The mod's hooks module, run inside Claude Code: it holds each Write and Edit the model
 * streams until its arguments are whole, asks cpilot to format them, and lets the result
 * through in their place. Whenever cpilot fails or is late the call passes as written:
 * the hooks check the edit after it runs either way.
 */

export function registerSource(argv: readonly string[], budgetMs: number): string {
  return `// cpilot's format-on-save for Claude Code, written by cpilot: rewrite it with cpilot, not by hand.
// A Write or Edit the model streams is held until its arguments are whole, then cpilot
// answers with them formatted by the project's fixers, or with nothing: then the call goes
// on as the model wrote it.
const CPILOT = ${JSON.stringify([...argv, "_format-call", "claude"])};
const BUDGET_MS = ${budgetMs};
const FILE_TOOLS = ["Write", "Edit"];

async function formatted($, call, earlier) {
  try {
    const run = await $.process.run(CPILOT, {
      stdin: JSON.stringify({ call, earlier, budgetMs: BUDGET_MS }),
      timeoutMs: BUDGET_MS + 1000,
    });
    if (run.exitCode !== 0) return null;
    const reply = JSON.parse(run.stdout);
    const input = reply === null || typeof reply !== "object" ? null : reply.input;
    return input !== null && typeof input === "object" && !Array.isArray(input) ? input : null;
  } catch {
    return null;
  }
}

export const register = (on) => {
  on("turn.step", async function* ($, e, next) {
    const steps = next(e);
    // index of a held Write or Edit block -> its tool name and the input chunks held
    const held = new Map();
    // the Writes and Edits of this response so far, as they will run
    const earlier = [];
    async function* release() {
      for (const [index, block] of held) {
        let input = null;
        try {
          input = JSON.parse(block.pieces.map((piece) => piece.json).join(""));
        } catch {}
        const call = { tool: block.tool, input };
        const better = input === null ? null : await formatted($, call, earlier);
        if (better === null) {
          if (input !== null) earlier.push(call);
          yield* block.pieces;
        } else {
          earlier.push({ tool: block.tool, input: better });
          yield { kind: "input", index, json: JSON.stringify(better) };
        }
      }
      held.clear();
    }
    let step = await steps.next();
    while (!step.done) {
      const chunk = step.value;
      if (chunk.kind === "tool" && FILE_TOOLS.includes(chunk.name)) {
        held.set(chunk.index, { tool: chunk.name, pieces: [] });
        yield chunk;
      } else if (chunk.kind === "input" && held.has(chunk.index)) {
        held.get(chunk.index).pieces.push(chunk);
      } else {
        yield* release();
        yield chunk;
      }
      step = await steps.next();
    }
    yield* release();
    return step.value;
  });
};
`;
}
