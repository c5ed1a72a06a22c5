import { expect, test } from "bun:test";
import fc from "fast-check";
import { applyAction, parseUpdates, type UpdateCommand } from "../../src/context/index.ts";

// A document of "## Section-i …" sections whose bodies hold paragraphs, task lists,
// subsections and code fences with heading- and task-looking lines (fence content is not
// markdown structure). Applying one action to one section must leave every other byte alone.

const word = fc.constantFrom("alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta");
const words = fc.array(word, { minLength: 1, maxLength: 5 }).map((w) => w.join(" "));

const bodyBlock = fc.oneof(
  fc.array(words, { minLength: 1, maxLength: 3 }).map((lines) => lines.join("\n")),
  fc
    .array(words, { minLength: 1, maxLength: 3 })
    .map((items) => items.map((t) => `- [ ] ${t}`).join("\n")),
  words.map((t) => `### Sub ${t}\n\n${t} body`),
  fc
    .tuple(fc.nat(9), words)
    .map(([n, t]) => `\`\`\`md\n## Section-${n} title\n- [ ] ${t}\n# top\n\`\`\``),
  words.map((t) => `\t- tabbed ${t}\n    indented ${t}  `),
);

const doc = fc
  .record({
    preamble: fc.option(
      words.map((t) => `# Title\n\n${t}\n\n`),
      { nil: "" },
    ),
    bodies: fc.array(fc.array(bodyBlock, { minLength: 1, maxLength: 4 }), {
      minLength: 1,
      maxLength: 6,
    }),
    crlf: fc.boolean(),
  })
  .map(({ preamble, bodies, crlf }) => ({
    preamble,
    crlf,
    sections: bodies.map((blocks, i) => `## Section-${i} title\n\n${blocks.join("\n\n")}\n`),
  }));

const assemble = (preamble: string, sections: readonly string[], crlf: boolean) => {
  const text = preamble + sections.join("\n");
  return crlf ? text.replace(/\n/g, "\r\n") : text;
};

function apply(text: string, command: Omit<UpdateCommand, "file">): string {
  const out = applyAction(
    text,
    { file: "DOC.md", ...command },
    {
      file: "DOC.md",
      moveCompleted: false,
      now: new Date(0),
    },
  );
  if (!out.ok) throw new Error(out.error);
  return out.text;
}

test("update replaces one section and leaves every other byte alone", () => {
  fc.assert(
    fc.property(doc, fc.nat(), words, ({ preamble, sections, crlf }, pick, replacement) => {
      const k = pick % sections.length;
      const content = `## Section-${k} title\n\n${replacement} (new)`;
      const out = apply(assemble(preamble, sections, crlf), {
        action: "update",
        id: `Section-${k} title`,
        content,
      });
      const expected = sections.map((s, i) => (i === k ? `${content}\n` : s));
      expect(out).toBe(assemble(preamble, expected, crlf));
    }),
    { numRuns: 300 },
  );
});

test("remove deletes one section and leaves every other byte alone", () => {
  fc.assert(
    fc.property(doc, fc.nat(), ({ preamble, sections, crlf }, pick) => {
      const k = pick % sections.length;
      const out = apply(assemble(preamble, sections, crlf), {
        action: "remove",
        id: `section-${k} TITLE`,
        content: "",
      });
      const rest = sections.filter((_, i) => i !== k);
      const expected =
        rest.length === 0 ? preamble.replace(/\n\n$/, "\n") : assemble(preamble, rest, false);
      expect(out).toBe(crlf ? expected.replace(/\n/g, "\r\n") : expected);
    }),
    { numRuns: 300 },
  );
});

test("add appends to one section and leaves every other byte alone", () => {
  fc.assert(
    fc.property(doc, fc.nat(), words, ({ preamble, sections, crlf }, pick, added) => {
      const k = pick % sections.length;
      const content = `Added: ${added}`;
      const out = apply(assemble(preamble, sections, crlf), {
        action: "add",
        section: `Section-${k} title`,
        content,
      });
      const expected = sections.map((s, i) => (i === k ? `${s}\n${content}\n` : s));
      expect(out).toBe(assemble(preamble, expected, crlf));
    }),
    { numRuns: 300 },
  );
});

// Parsing: any command, written as a block inside arbitrary surrounding text, comes back.

const attrValue = fc
  .string({ minLength: 1, maxLength: 20 })
  .filter((s) => !/[\r\n]/.test(s) && s.trim() !== "");
const contentLine = fc
  .string({ maxLength: 30 })
  .filter((s) => !/[\r\n]/.test(s) && !/<\/?context-update/i.test(s) && !/^\s*(```|~~~)/.test(s));
const content = fc
  .array(contentLine, { maxLength: 5 })
  .map((lines) =>
    lines
      .join("\n")
      .replace(/^(\s*\n)+/, "")
      .replace(/(\n\s*)+$/, ""),
  )
  .map((text) => (text.trim() === "" ? "" : text));
const noise = fc.string({ maxLength: 40 }).filter((s) => !/<\/?context-update/i.test(s));

function quote(value: string): string {
  const escaped = value.replace(/&/g, "&amp;");
  return escaped.includes('"') ? `'${escaped.replace(/'/g, "&apos;")}'` : `"${escaped}"`;
}

test("any block inside any surrounding text parses back to the same command", () => {
  fc.assert(
    fc.property(
      fc.array(
        fc.record({
          file: attrValue,
          action: fc.constantFrom("add", "update", "remove", "complete"),
          id: fc.option(attrValue, { nil: undefined }),
          content,
          multiline: fc.boolean(),
        }),
        { maxLength: 4 },
      ),
      fc.array(noise, { minLength: 5, maxLength: 5 }),
      (commands, noises) => {
        let text = "";
        commands.forEach((c, i) => {
          const sep = c.multiline ? "\n  " : " ";
          const id = c.id === undefined ? "" : `${sep}id=${quote(c.id)}`;
          text += `${noises[i]}\n<context-update file=${quote(c.file)}${sep}action=${quote(c.action)}${id}>\n${c.content}\n</context-update>`;
        });
        text += noises[4];
        const { updates, errors } = parseUpdates(text);
        expect(errors).toEqual([]);
        expect(updates.map(({ line: _, ...u }) => u)).toEqual(
          commands.map((c) => ({
            file: c.file,
            action: c.action,
            content: c.content,
            ...(c.id === undefined ? {} : { id: c.id }),
          })),
        );
      },
    ),
    { numRuns: 300 },
  );
});
