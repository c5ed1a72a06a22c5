// Terminal escape sequences, as Node's `stripVTControlCharacters` matches them. Not imported
// from node:util: in Bun its first use loads the whole inspect module, slow in a hook process.
const ANSI =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: escape sequences are what it finds
  /[\u001B\u009B][[\]()#;?]*(?:(?:(?:(?:;[-a-zA-Z\d/#&.:=?%@~_]+)*|[a-zA-Z\d]+(?:;[-a-zA-Z\d/#&.:=?%@~_]*)*)?(?:\u0007|\u001B\u005C|\u009C))|(?:(?:\d{1,4}(?:;\d{0,4})*)?[\dA-PR-TZcf-ntqry=><~]))/g;

export function stripAnsi(text: string): string {
  return text.includes("\u001B") || text.includes("\u009B") ? text.replace(ANSI, "") : text;
}
