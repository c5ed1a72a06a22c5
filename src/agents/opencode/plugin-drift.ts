import { opencodePluginSource, pluginArgvOf, pluginSeal } from "./plugin-source.ts";

const INSTALL = "`cpilot install opencode`";

/**
 * Why the plugin differs from what install writes now, with the step that fixes it (CRLF counts
 * as LF); null when current. Judged for the cpilot the plugin names, so another copy's own
 * plugin passes. The step never replaces an edited plugin.
 */
export function pluginDrift(path: string, text: string, argv: readonly string[]): string | null {
  const source = opencodePluginSource(pluginArgvOf(text) ?? argv);
  if (text.replaceAll("\r\n", "\n") === source) return null;
  switch (pluginSeal(text)) {
    case "intact":
      return `the plugin ${path} is from an older cpilot: run ${INSTALL} again`;
    case "edited":
      return `the plugin ${path} was edited since cpilot wrote it and is not what ${INSTALL} writes now: move your changes to a plugin of your own, remove this file, then run ${INSTALL} again`;
    case "unsealed":
      return `the plugin ${path} is not what ${INSTALL} writes now (an older cpilot's, or edited): run ${INSTALL} again, which replaces it (copy out any change of yours first)`;
  }
}
