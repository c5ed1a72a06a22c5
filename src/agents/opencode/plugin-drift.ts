import { opencodePluginSource, pluginArgvOf, pluginSeal } from "./plugin-source.ts";

const INSTALL = "`cpilot install opencode`";

/**
 * Why the plugin at `path`, holding `text`, is not what `cpilot install opencode` writes now
 * (CRLF line ends count as LF), with the step that fixes it; null when it is. It is judged
 * for the cpilot it names, so a plugin another copy of cpilot wrote for itself passes
 * (whether that cpilot starts is checked apart); `argv` stands in when it names none. An
 * edited plugin is never replaced by the step: the person's changes go somewhere else first.
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
