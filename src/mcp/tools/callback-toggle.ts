import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { isActive, readToggles } from "../../config/state.ts";
import { callbackScopes, packageFolder, type Scope, scopeName } from "../callback-scopes.ts";
import type { SessionPause } from "../session-pause.ts";
import type { ToolContext } from "../tool-context.ts";
import { unusable } from "./callback-list.ts";

/** Configs whose callbacks' state a reply shows; callback_list shows every one. */
const MAX_SCOPES_SHOWN = 10;

/** For this agent session only: the person's commits, CI and hooks still run them. */
export function registerCallbackToggle(server: McpServer, ctx: ToolContext): void {
  server.registerTool(
    "callback_toggle",
    {
      description:
        "Pause or resume callbacks for this session only: your edits through these tools. " +
        "The person's commits and CI still run them, and the pause ends with the session. " +
        "Give name (one or several) or all: true; package picks a package's own config, as callback_list names it.",
      inputSchema: {
        name: z
          .union([z.string(), z.array(z.string())])
          .optional()
          .describe("Callback name(s)"),
        all: z.boolean().optional().describe("Pause or resume every callback"),
        enabled: z.boolean().describe("true: run it; false: pause it"),
        package: z
          .string()
          .optional()
          .describe(
            'The package folder whose callbacks these are (e.g. "packages/web"); "." for the project\'s own. Needed only when several configs have the name',
          ),
      },
    },
    async ({ name, all, enabled, package: pkg }) => {
      const names = name === undefined ? [] : typeof name === "string" ? [name] : name;
      if (names.length === 0 && all !== true) {
        return ctx.reply("Cannot toggle: no callback named\nhint: pass name, or all: true", true);
      }
      const state = await ctx.project.load();
      const only = pkg === undefined ? undefined : packageFolder(pkg);
      const found = await callbackScopes(ctx.project.root, state, only);
      if (typeof found === "string") return ctx.reply(found, true);
      if (found.length === 0)
        return ctx.reply(unusable(state) ?? "Cannot toggle: no callbacks here", true);
      const targets: { name: string; scope: Scope }[] = [];
      for (const n of names) {
        const holders = found.filter((s) => s.config.callbacks.some((cb) => cb.name === n));
        if (holders.length === 0) return ctx.reply(unknownName(n, found), true);
        if (holders.length > 1) {
          return ctx.reply(
            `Cannot toggle ${JSON.stringify(n)}: ${holders.length} configs have a callback of that name (${holders.map((s) => scopeName(s.folder)).join(", ")})\nhint: pass package: ${holders.map((s) => JSON.stringify(s.folder === "" ? "." : s.folder)).join(" or ")}`,
            true,
          );
        }
        targets.push({ name: n, scope: holders[0] as Scope });
      }
      if (all === true) ctx.paused.setAll(!enabled, only);
      for (const t of targets) ctx.paused.set(t.name, !enabled, t.scope.folder);
      const what =
        all === true
          ? `every callback${only === undefined ? "" : ` of ${scopeName(only)}`} ${enabled ? "resumed" : "paused"}`
          : `${enabled ? "resumed" : "paused"}: ${names.join(", ")}`;
      const lines = [
        `${what} for this session only (the person's commits and CI still run every callback)`,
      ];
      const touched =
        all === true ? found : found.filter((s) => targets.some((t) => t.scope === s));
      for (const scope of touched.slice(0, MAX_SCOPES_SHOWN))
        lines.push(...nowLines(scope, ctx.paused, enabled, found));
      if (touched.length > MAX_SCOPES_SHOWN)
        lines.push(
          `… and ${touched.length - MAX_SCOPES_SHOWN} more configs: callback_list shows them`,
        );
      return ctx.reply(lines.join("\n"));
    },
  );
}

/** Each callback of the scope on or off now, and the ones only the person turns on. */
function nowLines(scope: Scope, paused: SessionPause, enabled: boolean, all: Scope[]): string[] {
  const toggles = readToggles(scope.config.root);
  const where = all.length > 1 ? ` in ${scopeName(scope.folder)}` : "";
  const now = scope.config.callbacks.map((cb) => {
    const on = isActive(cb, toggles) && !paused.has(cb.name, scope.folder);
    return `${cb.name}: ${on ? "on" : "off"}`;
  });
  const lines = [`now${where}: ${now.join(", ")}`];
  const offByPerson = scope.config.callbacks.filter((cb) => !isActive(cb, toggles));
  if (enabled && offByPerson.length > 0)
    lines.push(
      `still off${where}, as the person set: ${offByPerson.map((cb) => cb.name).join(", ")} (only they turn those on)`,
    );
  return lines;
}

function unknownName(name: string, scopes: Scope[]): string {
  const known = scopes.flatMap((s) =>
    s.config.callbacks.map((cb) =>
      s.folder === "" ? cb.name : `${cb.name} (${scopeName(s.folder)})`,
    ),
  );
  return `Cannot toggle ${JSON.stringify(name)}: no callback has that name\nhint: callbacks: ${known.join(", ") || "(none)"}`;
}
