/**
 * Patch shapes for the differential tests: a fixed corpus of the whitespace and marker
 * shapes agents read differently, and a fast-check generator of more. Paths name what an
 * attacker wants (a secret, .git/hooks, outside the root, through a link); `/ABS/` stands
 * for an absolute folder outside the project, filled in by the harness.
 */
import fc from "fast-check";

const P = (...lines: string[]) => ["*** Begin Patch", ...lines, "*** End Patch"].join("\n");

export const CORPUS: Record<string, string> = {
  plain: P("*** Add File: new.txt", "+hi"),
  "leading space before Add": P(" *** Add File: .env", "+X=1"),
  "leading tab before Add": P("\t*** Add File: .env", "+X=1"),
  "leading no-break space before Add": P("\u00a0*** Add File: .env", "+X=1"),
  "leading em space before Update": P("\u2003*** Update File: u.txt", "@@", "-two", "+TWO"),
  "leading space before Delete": P(" *** Delete File: d.txt"),
  "two spaces after the colon": P("*** Add File:  .env", "+X=1"),
  "tab after the colon": P("*** Add File:\t.env", "+X=1"),
  "no space after the colon": P("*** Add File:.env", "+X=1"),
  "form feed around the path": P("*** Add File: \f.env\f", "+X=1"),
  "trailing spaces after the path": P("*** Add File: .env  ", "+X=1"),
  "trailing tab after a move path": P(
    "*** Update File: u.txt",
    "*** Move to: moved.txt\t",
    "@@",
    "-two",
    "+TWO",
  ),
  "leading space before Move to": P(
    "*** Update File: u.txt",
    " *** Move to: .env",
    "@@",
    "-two",
    "+TWO",
  ),
  "move without a space": P("*** Update File: u.txt", "*** Move to:.env", "@@", "-two", "+TWO"),
  "a context line that trims to End Patch, then a header": P(
    "*** Update File: u.txt",
    "@@",
    " one",
    " *** End Patch",
    "*** Add File: .git/hooks/pre-commit",
    "+#!/bin/sh",
  ),
  "an Add line after a fake End Patch": [
    "*** Begin Patch",
    "*** Add File: a.txt",
    "+a",
    " *** End Patch",
    "*** Add File: .env",
    "+X=1",
    "*** End Patch",
  ].join("\n"),
  "End Patch in the middle": [
    "*** Begin Patch",
    "*** Add File: a.txt",
    "+a",
    "*** End Patch",
    "*** Add File: .env",
    "+X=1",
    "*** End Patch",
  ].join("\n"),
  "two Begin blocks": `${P("*** Add File: a.txt", "+a")}\n${P("*** Add File: .env", "+X=1")}`,
  "Begin Patch with trailing text": [
    "*** Begin Patch extra",
    "*** Add File: .env",
    "+X=1",
    "*** End Patch",
  ].join("\n"),
  "text after End Patch": `${P("*** Add File: a.txt", "+a")}\n*** Add File: .env\n+X=1`,
  "CRLF line ends": P("*** Add File: crlf.txt", "+a", "*** Add File: .env", "+X=1").replace(
    /\n/g,
    "\r\n",
  ),
  "CR only": P("*** Add File: a.txt", "+a").replace(/\n/g, "\r"),
  "a BOM first": `\ufeff${P("*** Add File: .env", "+X=1")}`,
  "NEL after Begin": P("*** Add File: a.txt", "+a").replace("Patch\n", "Patch\u0085\n"),
  "heredoc <<EOF": `<<EOF\n${P("*** Add File: .env", "+X=1")}\nEOF`,
  "heredoc <<'EOF'": `<<'EOF'\n${P("*** Add File: .env", "+X=1")}\nEOF`,
  'heredoc <<"EOF"': `<<"EOF"\n${P("*** Add File: .env", "+X=1")}\nEOF`,
  "heredoc <<-EOF": `<<-EOF\n${P("*** Add File: .env", "+X=1")}\nEOF`,
  "cat heredoc": `cat <<'EOF'\n${P("*** Add File: .env", "+X=1")}\nEOF`,
  "apply_patch heredoc as the text": `apply_patch <<'EOF'\n${P("*** Add File: .env", "+X=1")}\nEOF`,
  "outside the root": P("*** Add File: ../outside.txt", "+x"),
  "absolute outside": P("*** Add File: /ABS/abs.txt", "+x"),
  "through a link and ..": P("*** Add File: lnk/../../escape.txt", "+x"),
  "link to .git/hooks and ..": P("*** Add File: hk/../hooks/x", "+x"),
  "into .git/hooks": P("*** Add File: .git/hooks/pre-commit", "+#!/bin/sh"),
  tilde: P("*** Add File: ~/h.txt", "+x"),
  "a tab inside the path": P("*** Add File: .e\tnv", "+X=1", "*** Delete File: d\t.txt"),
  "a carriage return inside a move path": P(
    "*** Update File: u.txt",
    "*** Move to: .git/hoo\rks/x",
    "@@",
    "-two",
    "+TWO",
  ),
  "lowercase marker": P("*** add file: .env", "+X=1"),
  "update with a header after a blank line": P(
    "*** Update File: u.txt",
    "@@",
    "-two",
    "+TWO",
    "",
    "*** Add File: .env",
    "+X=1",
  ),
  "update then a tab-led header": P(
    "*** Update File: u.txt",
    "@@",
    "-two",
    "+TWO",
    "\t*** Add File: .env",
    "+X=1",
  ),
  "delete then a space-led header": P("*** Delete File: d.txt", " *** Add File: .env", "+X=1"),
  "add then a no-break-space-led header": P(
    "*** Add File: a.txt",
    "+a",
    "\u00a0*** Add File: .env",
    "+X=1",
  ),
  "an empty Move to": P("*** Update File: u.txt", "*** Move to:   ", "@@", "-two", "+TWO"),
  "a header with no path": P("*** Add File: ", "+x"),
  "no End Patch": "*** Begin Patch\n*** Add File: .env\n+X=1",
  "End of File marker": P(
    "*** Update File: u.txt",
    "@@",
    " two",
    "-three",
    "+3",
    "*** End of File",
  ),
};

const ws = fc.constantFrom(
  "",
  "",
  " ",
  "  ",
  "\t",
  "\u00a0",
  "\f",
  "\v",
  "\u2003",
  "\u3000",
  "\ufeff",
  "\u0085",
  "\r",
);
const plainPath = fc.constantFrom(
  "new.txt",
  ".env",
  ".git/hooks/pre-commit",
  "../outside.txt",
  "hk/x",
  "lnk/../../escape.txt",
  "sub/n.txt",
  "u.txt",
  "d.txt",
  "a b.txt",
  "/ABS/abs.txt",
  "~/h.txt",
  "./.env",
  "\u2003.env",
  "sub/../.git/config",
);
/** A path with, sometimes, one odd character put in it (the agent's file layer may drop it). */
const path = fc
  .tuple(
    plainPath,
    fc.constantFrom("", "", "", "\t", "\r", "\v", "\f", "\u00a0", "\u2028", "\\", "//", "/./", "/"),
    fc.nat(),
  )
  .map(([p, c, at]) => {
    const i = at % (p.length + 1);
    return `${p.slice(0, i)}${c}${p.slice(i)}`;
  });
const marker = fc.constantFrom(
  "*** Add File:",
  "*** Add File:",
  "*** Delete File:",
  "*** Update File:",
  "*** Update File:",
  "*** Move to:",
  "*** End Patch",
  "*** Begin Patch",
  "*** End of File",
  "***Add File:",
);
const sep = fc.constantFrom(" ", " ", "", "  ", "\t", "\f", " \u00a0", "\u2003", " \r");
const header = fc
  .tuple(ws, marker, sep, path, ws)
  .map(([a, m, s, p, b]) =>
    /Patch|End of File/.test(m) ? `${a}${m}${b}` : `${a}${m}${s}${p}${b}`,
  );
const bodyLine = fc.constantFrom(
  "+x",
  "+",
  " one",
  "-two",
  "+TWO",
  "@@",
  "@@ one",
  "",
  " ",
  " *** End Patch",
  " *** Add File: sneaky.txt",
  "\t*** Add File: tab.txt",
  "x",
);
const section = fc.tuple(header, fc.array(bodyLine, { maxLength: 3 })).map(([h, b]) => [h, ...b]);

/** A generated patch: markers, whitespace, line ends and wrappers mixed. */
export const patchShape = fc
  .record({
    begin: fc
      .tuple(ws, ws, fc.constantFrom("", "", "", " x", "\n*** Begin Patch"))
      .map(([a, b, c]) => `${a}*** Begin Patch${b}${c}`),
    sections: fc.array(section, { minLength: 1, maxLength: 4 }),
    end: fc
      .tuple(
        ws,
        ws,
        fc.constantFrom("", "", "", " x", "\n*** End Patch", "\n\n*** Add File: z.txt\n+z"),
      )
      .map(([a, b, c]) => `${a}*** End Patch${b}${c}`),
    after: fc.constantFrom("", "", "\n", "\n*** Add File: after.txt\n+x", "\nEOF"),
    crlf: fc.boolean(),
    wrap: fc.constantFrom("", "", "", "<<EOF", "<<'EOF'", '<<"EOF"', "<<-EOF", "cat <<'EOF'"),
  })
  .map(({ begin, sections, end, after, crlf, wrap }) => {
    let text = [begin, ...sections.flat(), end].join("\n") + after;
    if (wrap !== "") text = `${wrap}\n${text}\nEOF`;
    return crlf ? text.replace(/\n/g, "\r\n") : text;
  });
