// The layer order of cpilot's source, in one place. tests/layers.test.ts runs
// dependency-cruiser with this file and fails on a file-level import cycle or on an import
// from a lower layer up into a higher one, type-only imports included (they are
// dependencies too). Known violations are listed, with why, in that test (a ratchet).
//
// LAYERS goes from the bottom up; each entry is a folder under src/ (or a file: src/x.ts,
// main.ts). A module may import its own folder and any folder BELOW it, never one above.
// Every folder has its own rank, so two folders cannot import each other either.
// Roughly: platform/util/model, then match/config, an agent session's state, the engine and
// what runs on it (diagnostics, stage, githook, gate), all rendering, the hook pipeline, then
// the agent-facing edges (context, agents, watch, mcp), the commands' helpers (init, add,
// doctor), cli, and main.ts on top.
const LAYERS = [
  "platform", // runtime adapter: spawn, process groups, a supervised child, Bun/Deno/Node differences
  "util", // small helpers, and the .cpilot/ layout
  "src/version.ts",
  "model", // the shapes every layer shares: batch, outcome, diagnostics, the gate's schema
  "match", // patterns, file sets from git and the tree
  "project", // the project's shape: its own files, packages and modules
  "config", // define, find, load, validate, resolve
  "cache", // check records by content key, and the stores that keep them
  "agent-session", // what cpilot keeps for one agent session: inbox, results, run log, counters
  "diagnostics", // parse tool output into diagnostics, baselines
  "remote-cache", // results shared through a Turborepo remote cache (/v8/artifacts)
  "engine", // plan, execute, resync, triggers
  "stage", // `check --staged`: set unstaged work aside and restore it
  "githook", // git hook scripts
  "gate", // the write gate: permission rules
  "ui", // all rendering: the terminal for people, hook replies (ui/agent/), MCP results (ui/mcp/)
  "hook", // the hook pipeline: one agent hook call from stdin to stdout, agent-neutral
  "proof", // what `doctor --prove` plays an agent with: the scripted model, its drivers' shape
  "context", // context updates
  "agents", // one adapter per agent, and their shared kit (agents/kit/)
  "watch", // `cpilot watch`
  "mcp", // the MCP server and its tools
  "init", // `cpilot init`: detect a project, propose a config
  "add", // `cpilot add`: a callback from a description
  "doctor", // `cpilot doctor` checks
  "cli", // one file per subcommand
  "src/index.ts", // the library entry
  "main.ts", // argv -> command; the only place that exits
];

const escapeDots = (text) => text.replace(/[.]/g, "\\.");
/** A path regex for one layer entry. */
const pathOf = (layer) =>
  layer.endsWith(".ts") ? `^${escapeDots(layer)}$` : `^src/${escapeDots(layer)}/`;

const upward = LAYERS.slice(0, -1).map((layer, i) => ({
  name: `layer:${layer}`,
  comment: `${layer} may import only the layers below it (see LAYERS)`,
  severity: "error",
  from: { path: pathOf(layer) },
  to: { path: LAYERS.slice(i + 1).map(pathOf) },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "a file may not reach itself through its imports",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    {
      name: "no-unlayered",
      comment: "every source folder has a place in LAYERS",
      severity: "error",
      from: { path: "^src/", pathNot: LAYERS.map(pathOf) },
      to: {},
    },
    {
      name: "no-private-import",
      comment:
        "a file whose name starts with _ is private to its folder: only files in that same folder may import it (CONTRIBUTING.md)",
      severity: "error",
      from: { path: "^(.+)/[^/]+$" },
      to: { path: "/_[^/]+$", pathNot: "^$1/_[^/]+$" },
    },
    {
      name: "agents-through-the-registry",
      comment:
        "an agent's folder and the agents' kit are theirs: outside src/agents/, code asks the registry (registry.ts, all-agents.ts, contract.ts) and the hook pipeline takes the agent it is given",
      severity: "error",
      from: { path: "^(src|main\\.ts)", pathNot: "^src/agents/" },
      to: { path: "^src/agents/[^/]+/" },
    },
    ...upward,
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    // TypeScript 7 has no compiler API for dependency-cruiser to use; swc parses the
    // sources and keeps type-only imports.
    parser: "swc",
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { extensions: [".ts", ".js", ".json"] },
  },
};
