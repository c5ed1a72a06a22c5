// Terminal escape sequences (colours, cursor moves, hyperlinks), as Node's own
// `stripVTControlCharacters` matches them. Not imported from node:util: in Bun, its first
// use loads the whole inspect module, slow in a fresh hook process, and an output
// without an escape character, the common case, needs no pass at all.
const ANSI =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: escape sequences are what it finds
  /[\u001B\u009B][[\]()#;?]*(?:(?:(?:(?:;[-a-zA-Z\d/#&.:=?%@~_]+)*|[a-zA-Z\d]+(?:;[-a-zA-Z\d/#&.:=?%@~_]*)*)?(?:\u0007|\u001B\u005C|\u009C))|(?:(?:\d{1,4}(?:;\d{0,4})*)?[\dA-PR-TZcf-ntqry=><~]))/g;

/** `text` without its terminal escape sequences. */
export function stripAnsi(text: string): string {
  return text.includes("\u001B") || text.includes("\u009B") ? text.replace(ANSI, "") : text;
}
