export interface Position {
  readonly line: number;
  readonly column: number;
}

export function positionAt(text: string, offset: number): Position {
  const before = text.slice(0, offset).split("\n");
  return { line: before.length, column: (before[before.length - 1]?.length ?? 0) + 1 };
}

/**
 * The lines up to `at`, numbered, with a caret under the column.
 *
 * @example
 *   3 |   callbacks: [
 * > 4 |     { name: "a" pattern: "*" },
 *     |                 ^
 */
export function codeFrame(text: string, at: Position): string {
  const lines = text.split("\n");
  const first = Math.max(1, at.line - 2);
  const width = String(at.line).length;
  const out: string[] = [];
  for (let n = first; n <= Math.min(at.line, lines.length); n++) {
    out.push(`${n === at.line ? ">" : " "} ${String(n).padStart(width)} | ${lines[n - 1] ?? ""}`);
  }
  const lineText = lines[at.line - 1] ?? "";
  // Keep tabs so the caret lines up under tab-indented code.
  const pad = lineText.slice(0, Math.max(0, at.column - 1)).replace(/[^\t]/g, " ");
  out.push(`  ${" ".repeat(width)} | ${pad}^`);
  return out.join("\n");
}

/** JSON.parse's message has no position in every runtime (Bun's has none), so this scans the text. */
export function jsonSyntaxError(text: string): { offset: number; message: string } | null {
  let i = 0;
  const fail = (message: string): never => {
    throw { offset: i, message };
  };
  const ws = (): void => {
    while (i < text.length && " \t\n\r".includes(text[i]!)) i++;
  };
  const describe = (): string => (i >= text.length ? "the end of the file" : `"${text[i]}"`);
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === "{") {
      i++;
      ws();
      if (text[i] === "}") return void i++;
      for (;;) {
        ws();
        if (text[i] !== '"') fail(`expected a "quoted" key, found ${describe()}`);
        string();
        ws();
        if (text[i] !== ":") fail(`expected ":" after the key, found ${describe()}`);
        i++;
        value();
        ws();
        if (text[i] === ",") {
          i++;
          ws();
          if (text[i] === "}") fail('a comma before "}": JSON allows no trailing comma');
          continue;
        }
        if (text[i] === "}") return void i++;
        fail(`expected "," or "}", found ${describe()}`);
      }
    }
    if (c === "[") {
      i++;
      ws();
      if (text[i] === "]") return void i++;
      for (;;) {
        value();
        ws();
        if (text[i] === ",") {
          i++;
          ws();
          if (text[i] === "]") fail('a comma before "]": JSON allows no trailing comma');
          continue;
        }
        if (text[i] === "]") return void i++;
        fail(`expected "," or "]", found ${describe()}`);
      }
    }
    if (c === '"') {
      string();
      return;
    }
    const literal = /^(true|false|null|-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?)/.exec(
      text.slice(i, i + 400),
    );
    if (literal) {
      i += literal[0].length;
      return;
    }
    fail(`expected a value, found ${describe()}`);
  };
  const string = (): void => {
    i++;
    while (i < text.length && text[i] !== '"') {
      if (text[i] === "\n") fail("a string runs past the end of its line");
      i += text[i] === "\\" ? 2 : 1;
    }
    if (i >= text.length) fail("a string is not closed");
    i++;
  };
  try {
    value();
    ws();
    if (i < text.length) fail(`expected the end of the file, found ${describe()}`);
    return null;
  } catch (err) {
    if (typeof err === "object" && err !== null && "offset" in err)
      return err as { offset: number; message: string };
    throw err;
  }
}

export function scriptErrorPosition(
  err: unknown,
  path: string,
): { at: Position; message: string; file?: string } | null {
  const errors = (err as { errors?: unknown[] } | null)?.errors;
  const first = Array.isArray(errors) ? errors[0] : err;
  const position = (
    first as { position?: { line?: number; column?: number; file?: unknown } } | null
  )?.position;
  if (position && typeof position.line === "number" && typeof position.column === "number") {
    const file = typeof position.file === "string" && position.file !== "" ? position.file : null;
    return {
      at: { line: position.line, column: position.column },
      message: (first as Error).message ?? String(first),
      ...(file !== null && file !== path ? { file } : {}),
    };
  }
  const stack = err instanceof Error ? (err.stack ?? "") : "";
  const escaped = path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const frame = new RegExp(`${escaped}(?:\\?[^:\\s)]*)?:(\\d+):(\\d+)`).exec(stack);
  if (frame) {
    return {
      at: { line: Number(frame[1]), column: Number(frame[2]) },
      message: err instanceof Error ? err.message : String(err),
    };
  }
  return null;
}
