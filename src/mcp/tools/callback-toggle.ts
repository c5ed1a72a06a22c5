import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { isActive, readToggles } from "../../config/state.ts";
import type { ToolContext } from "../tool-context.ts";
import { unusable } from "./callback-list.ts";

/** For this agent session only: the person's commits, CI and hooks still run them. */
export function registerCallbackToggle(server: McpServer, ctx: ToolContext): void {
  server.registerTool(
    "callback_toggle",
    {
      description:
        "Pause or resume callbacks for this session only: your edits through these tools. " +
        "The person's commits and CI still run them, and the pause ends with the session. " +
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
      if (all === true) ctx.paused.setAll(!enabled);
      for (const n of names) ctx.paused.set(n, !enabled);
      const toggles = readToggles(state.config.root);
      const offByPerson = state.config.callbacks.filter((cb) => !isActive(cb, toggles));
      const now = state.config.callbacks.map((cb) => {
        const on = isActive(cb, toggles) && !ctx.paused.has(cb.name);
        return `${cb.name}: ${on ? "on" : "off"}`;
      });
      const what =
        all === true
          ? `every callback ${enabled ? "resumed" : "paused"}`
          : `${enabled ? "resumed" : "paused"}: ${names.join(", ")}`;
      const lines = [
        `${what} for this session only (the person's commits and CI still run every callback)`,
        `now: ${now.join(", ")}`,
      ];
      if (enabled && offByPerson.length > 0) {
        lines.push(
          `still off, as the person set: ${offByPerson.map((cb) => cb.name).join(", ")} (only they turn those on)`,
        );
      }
      return ctx.reply(lines.join("\n"));
    },
  );
}
