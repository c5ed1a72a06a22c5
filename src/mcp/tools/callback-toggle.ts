import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { isActive, readToggles, writeToggles } from "../../config/state.ts";
import { STATE, stateRelative } from "../../util/state-layout.ts";
import type { ToolContext } from "../tool-context.ts";
import { unusable } from "./callback-list.ts";

/** callback_toggle: pause or resume callbacks for this project (not the config). */
export function registerCallbackToggle(server: McpServer, ctx: ToolContext): void {
  server.registerTool(
    "callback_toggle",
    {
      description:
        `Turn callbacks on or off for this project only (kept in ${stateRelative(STATE.toggles)}; the config is not changed). ` +
        "Give name (one or several) or all: true.",
      inputSchema: {
        name: z
          .union([z.string(), z.array(z.string())])
          .optional()
          .describe("Callback name(s)"),
        all: z.boolean().optional().describe("Pause or resume every callback"),
        enabled: z.boolean().describe("true: run it; false: pause it"),
      },
    },
    async ({ name, all, enabled }) => {
      const state = await ctx.project.load();
      const problem = unusable(state);
      if (problem !== null || state.kind !== "ok") return ctx.reply(problem ?? "", true);
      const names = name === undefined ? [] : typeof name === "string" ? [name] : name;
      if (names.length === 0 && all !== true) {
        return ctx.reply("Cannot toggle: no callback named\nhint: pass name, or all: true", true);
      }
      const known = state.config.callbacks.map((c) => c.name);
      const unknown = names.filter((n) => !known.includes(n));
      if (unknown.length > 0) {
        return ctx.reply(
          `Cannot toggle ${unknown.map((n) => JSON.stringify(n)).join(", ")}: no callback has that name\nhint: callbacks: ${known.join(", ") || "(none)"}`,
          true,
        );
      }
      const toggles = readToggles(state.config.root);
      if (all === true) {
        toggles.allDisabled = !enabled;
        if (enabled) toggles.disabled = [];
      }
      for (const n of names) {
        toggles.disabled = toggles.disabled.filter((d) => d !== n);
        toggles.enabled = toggles.enabled.filter((e) => e !== n);
        (enabled ? toggles.enabled : toggles.disabled).push(n);
      }
      writeToggles(state.config.root, toggles);
      const now = state.config.callbacks.map(
        (cb) => `${cb.name}: ${isActive(cb, toggles) ? "on" : "off"}`,
      );
      const what =
        all === true
          ? `every callback ${enabled ? "resumed" : "paused"}`
          : `${enabled ? "enabled" : "disabled"}: ${names.join(", ")}`;
      return ctx.reply(`${what} (this project only)\nnow: ${now.join(", ")}`);
    },
  );
}
