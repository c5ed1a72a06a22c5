/**
 * The strict subset of node:util's parseArgs the commands use. Errors start with node's own
 * first sentence. Not parseArgs itself: loading node:util under Bun slows every start.
 */
export interface FlagSpec {
  readonly type: "boolean" | "string";
  readonly short?: string | undefined;
  readonly multiple?: boolean | undefined;
}

export type FlagValues = Record<string, string | boolean | (string | boolean)[] | undefined>;

export function parseArgsStrict(
  args: readonly string[],
  options: Readonly<Record<string, FlagSpec>>,
): { values: FlagValues; positionals: string[] } {
  const values: FlagValues = Object.create(null);
  const positionals: string[] = [];
  const byShort = new Map<string, string>();
  for (const [name, o] of Object.entries(options)) if (o.short) byShort.set(o.short, name);
  const store = (name: string, value: string | boolean): void => {
    if (options[name]?.multiple) {
      const list = values[name];
      if (Array.isArray(list)) list.push(value);
      else values[name] = [value];
    } else values[name] = value;
  };
  // A string option's value is the next argument, unless that looks like an option.
  const takeValue = (missing: string, ambiguous: string, i: number): string => {
    const next = args[i + 1];
    if (next === undefined) throw new Error(`Option '${missing} <value>' argument missing`);
    if (next.startsWith("-")) throw new Error(`Option '${ambiguous}' argument is ambiguous.`);
    return next;
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "--") {
      positionals.push(...args.slice(i + 1));
      break;
    }
    if (arg.startsWith("--")) {
      const eq = arg.indexOf("=");
      const name = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
      const spec = Object.hasOwn(options, name) ? options[name] : undefined;
      if (spec === undefined) throw new Error(`Unknown option '--${name}'.`);
      if (spec.type === "boolean") {
        if (eq !== -1) throw new Error(`Option '--${name}' does not take an argument.`);
        store(name, true);
      } else if (eq !== -1) store(name, arg.slice(eq + 1));
      else {
        store(name, takeValue(`--${name}`, `--${name}`, i));
        i++;
      }
      continue;
    }
    if (arg.startsWith("-") && arg.length > 1) {
      // -abc: boolean shorts together; a string short takes the rest, or the next argument
      for (let k = 1; k < arg.length; k++) {
        const letter = arg[k]!;
        const name = byShort.get(letter);
        if (name === undefined) throw new Error(`Unknown option '-${letter}'.`);
        if (options[name]!.type === "boolean") {
          store(name, true);
          continue;
        }
        if (k + 1 < arg.length) store(name, arg.slice(k + 1));
        else {
          store(name, takeValue(`-${letter}, --${name}`, `-${letter}`, i));
          i++;
        }
        break;
      }
      continue;
    }
    positionals.push(arg);
  }
  return { values, positionals };
}
