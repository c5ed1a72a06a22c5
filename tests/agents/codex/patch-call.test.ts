/** A Codex hook call's patch: the apply_patch tool's, or one Codex takes out of a shell command. */
import { describe, expect, test } from "bun:test";
import { codexPatchCall, rewriteAddFile } from "../../../src/agents/codex/patch.ts";
import { readCodexPatch } from "../../../src/agents/kit/patch/codex-reading.ts";

const PATCH = "*** Begin Patch\n*** Add File: a.txt\n+a\n*** End Patch";

describe("codexPatchCall", () => {
  test("apply_patch: its input read as Codex reads it", () => {
    expect(codexPatchCall("apply_patch", { command: PATCH }, "/p")).toEqual({
      kind: "patch",
      text: PATCH,
      files: [{ op: "add", path: "a.txt", content: "a\n" }],
      cwd: "/p",
      viaShell: false,
    });
  });

  test("a patch Codex would refuse, or no patch text at all, is unreadable", () => {
    expect(codexPatchCall("apply_patch", { command: "*** Begin Patch\nx" }, "/p").kind).toBe(
      "unreadable",
    );
    expect(codexPatchCall("apply_patch", { other: 1 }, "/p").kind).toBe("unreadable");
  });

  test("the shell tool: a heredoc patch, applied from the folder after `cd`", () => {
    const call = codexPatchCall(
      "Bash",
      { command: `cd .git && apply_patch <<'EOF'\n${PATCH}\nEOF\n` },
      "/p",
    );
    expect(call).toMatchObject({ kind: "patch", cwd: "/p/.git", viaShell: true });
    expect(codexPatchCall("Bash", { command: "ls" }, "/p")).toEqual({ kind: "none" });
    expect(
      codexPatchCall("Bash", { command: `echo; apply_patch <<'EOF'\n${PATCH}\nEOF` }, "/p").kind,
    ).toBe("unreadable");
  });
});

describe("rewriteAddFile", () => {
  test("replaces one added file's path and content, the rest line for line", () => {
    const patch =
      "*** Begin Patch\n*** Add File: a.mod\n+mine\n+more\n*** Update File: b.ts\n@@\n-x\n+y\n*** End Patch\n";
    const out = rewriteAddFile(patch, "a.mod", { path: "a.mod", content: "MODIFIED\n" });
    expect(out).toBe(
      "*** Begin Patch\n*** Add File: a.mod\n+MODIFIED\n*** Update File: b.ts\n@@\n-x\n+y\n*** End Patch\n",
    );
    expect(readCodexPatch(out as string)).toMatchObject({
      ok: true,
      files: [
        { op: "add", path: "a.mod", content: "MODIFIED\n" },
        { op: "update", path: "b.ts" },
      ],
    });
  });

  test("a section read with Codex's trimming is found, and a target that would not read back is refused", () => {
    const patch = "*** Begin Patch\n \u00a0*** Add File: a.mod\n+mine\n*** End Patch";
    expect(rewriteAddFile(patch, "a.mod", { path: "b.mod", content: undefined })).toBe(
      "*** Begin Patch\n*** Add File: b.mod\n+mine\n*** End Patch\n",
    );
    expect(
      rewriteAddFile(patch, "a.mod", { path: "x\n*** Add File: .env", content: "" }),
    ).toBeNull();
  });
});
