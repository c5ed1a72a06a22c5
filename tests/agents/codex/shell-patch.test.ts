/** Which shell commands Codex applies as a patch, as cpilot reads them (the real CLI: tests/attacks/codex-shell-patch.e2e.test.ts). */
import { describe, expect, test } from "bun:test";
import { argvPatch, shellPatch } from "../../../src/agents/codex/shell-patch.ts";

const PATCH = "*** Begin Patch\n*** Add File: a.txt\n+a\n*** End Patch";

describe("shellPatch", () => {
  test("the two forms Codex applies: the heredoc alone, or after `cd <dir> &&`", () => {
    expect(shellPatch(`apply_patch <<'EOF'\n${PATCH}\nEOF\n`)).toEqual({
      kind: "patch",
      text: PATCH,
    });
    expect(shellPatch(`applypatch <<"EOF"\n${PATCH}\nEOF`)).toEqual({ kind: "patch", text: PATCH });
    expect(shellPatch(`cd .git && apply_patch <<'EOF'\n${PATCH}\nEOF\n`)).toEqual({
      kind: "patch",
      text: PATCH,
      cd: ".git",
    });
    expect(shellPatch(`cd 'my dir' && apply_patch <<'P'\n${PATCH}\nP`)).toEqual({
      kind: "patch",
      text: PATCH,
      cd: "my dir",
    });
    expect(shellPatch(`cd "sub dir" && apply_patch <<EOF\n${PATCH}\nEOF`)).toEqual({
      kind: "patch",
      text: PATCH,
      cd: "sub dir",
    });
  });

  test("commands that are no patch are left to the shell", () => {
    for (const cmd of [
      "ls",
      "rg apply_patch src",
      "git diff",
      "cat <<'EOF' > notes.md\nhi\nEOF",
      'grep -rF "*** Begin Patch" tests',
    ])
      expect(shellPatch(cmd)).toEqual({ kind: "none" });
  });

  test("a spelling cpilot does not read as Codex would is refused, not guessed", () => {
    const unsure = [
      `apply_patch <<-EOF\n${PATCH}\nEOF`,
      `echo x; apply_patch <<'EOF'\n${PATCH}\nEOF`,
      `apply_patch <<'EOF'\n${PATCH}\nEOF\necho done`,
      `apply_patch <<'EOF' && echo done\n${PATCH}\nEOF`,
      `cd ~/x && apply_patch <<'EOF'\n${PATCH}\nEOF`,
      `cd $HOME && apply_patch <<'EOF'\n${PATCH}\nEOF`,
      `cd a b && apply_patch <<'EOF'\n${PATCH}\nEOF`,
      `cd x || apply_patch <<'EOF'\n${PATCH}\nEOF`,
      ` apply_patch <<'EOF'\n${PATCH}\nEOF`,
      `apply_patch <<'EOF'\r\n${PATCH.replace(/\n/g, "\r\n")}\r\nEOF\r\n`,
      `apply_patch <<'EOF'\n${PATCH}\nEOF \nEOF`,
      `apply_patch <<'EOF'\n${PATCH}\n\tEOF\nEOF`,
      `apply_patch <<EOF\n*** Begin Patch\n*** Add File: $HOME/x\n+a\n*** End Patch\nEOF`,
      `apply_patch <<'EOF'\n${PATCH}`,
      `printf '%s' '${PATCH}' | apply_patch`,
      `bash -lc "apply_patch <<'EOF'\n${PATCH}\nEOF"`,
      `apply''_patch <<'EOF'\n${PATCH}\nEOF`,
      `p=apply_patch; $p <<'EOF'\n${PATCH}\nEOF`,
      `APPLY_PATCH <<EOF\n${PATCH}\nEOF`,
      `cat <<'EOF' > fixture.txt\n${PATCH}\nEOF`,
    ];
    for (const cmd of unsure) expect(shellPatch(cmd)).toEqual({ kind: "unsure" });
  });
});

describe("argvPatch", () => {
  test("apply_patch with the patch as its argument, or a shell's script", () => {
    expect(argvPatch(["apply_patch", PATCH])).toEqual({ kind: "patch", text: PATCH });
    expect(argvPatch(["/bin/bash", "-lc", `cd sub && apply_patch <<'EOF'\n${PATCH}\nEOF`])).toEqual(
      {
        kind: "patch",
        text: PATCH,
        cd: "sub",
      },
    );
    expect(
      argvPatch(["pwsh", "-NoProfile", "-Command", `apply_patch <<'EOF'\n${PATCH}\nEOF`]),
    ).toEqual({
      kind: "patch",
      text: PATCH,
    });
    expect(argvPatch(["ls", "-la"])).toEqual({ kind: "none" });
    expect(argvPatch(["python3", "-c", `apply_patch <<'EOF'\n${PATCH}\nEOF`])).toEqual({
      kind: "unsure",
    });
  });
});
