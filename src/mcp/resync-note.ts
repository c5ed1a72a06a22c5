import type { Resync } from "../model/outcome.ts";
import { boundedDiff, type RegionView, renderRegion } from "../ui/mcp/render.ts";
import type { Region } from "./edits.ts";
import type { WriteDone } from "./perform-write.ts";
import { locateRegion } from "./resync-region.ts";
import { toAgentSpace } from "./text-file.ts";

const MAX_REGIONS = 5;

interface Labeled {
  label: string;
  region: Region | null;
}

function labeled(write: WriteDone): Labeled[] {
  const regions = write.regions ?? [];
  if (write.tool === "multi_edit") {
    return regions.flatMap((list, i) =>
      list.map((region, k) => ({
        label: `edit ${i + 1}'s new_string${list.length > 1 ? ` (replacement ${k + 1} of ${list.length})` : ""}`,
        region,
      })),
    );
  }
  const list = regions[0] ?? [];
  return list.map((region, k) => ({
    label: list.length > 1 ? `replacement ${k + 1} of ${list.length}` : "your new_string",
    region,
  }));
}

/**
 * What one call's result says after callbacks rewrote its file (a formatter), so the
 * agent's next old_string matches: for edits, each new_string as it now stands; for a
 * whole-file write, the diff from what it wrote; where a region cannot be located, a
 * request to re-read.
 */
export function resyncNote(write: WriteDone, resync: Resync): string[] {
  const path = write.path;
  if (resync.newText === null) return [`A callback deleted ${path} after this call.`];
  if (resync.oldText === null) {
    return [
      `A callback changed ${path} after this call: re-read it with read_file before editing it again.`,
    ];
  }
  const before = toAgentSpace(resync.oldText).text;
  const after = toAgentSpace(resync.newText).text;
  const head = `The callbacks rewrote ${path} after this call (a formatter?).`;
  if (write.tool === "write_file" || write.tool === "delete_file" || write.regions === null) {
    return [
      `${head} Diff from what was written to what is on disk now:`,
      boundedDiff(path, before, after),
    ];
  }
  const items = labeled(write);
  if (items.length > MAX_REGIONS) {
    return [
      `${head} ${items.length} replaced places may have changed: re-read it with read_file before editing it again.`,
    ];
  }
  const views: { label: string; view: RegionView }[] = [];
  let elsewhere = false;
  for (const item of items) {
    if (item.region === null) {
      views.push({ label: item.label, view: { kind: "unsure", startLine: null, endLine: null } });
      continue;
    }
    const clamped = {
      start: Math.min(item.region.start, before.length),
      end: Math.min(item.region.end, before.length),
    };
    const located = locateRegion(before, after, clamped);
    views.push({ label: item.label, view: located.view });
    elsewhere ||= located.changedElsewhere;
  }
  const lines: string[] = [];
  const exact = views.flatMap((v) => (v.view.kind === "exact" ? [v.view] : []));
  const first = exact[0];
  if (
    views.length > 1 &&
    first !== undefined &&
    exact.length === views.length &&
    exact.every((v) => v.text === first.text)
  ) {
    lines.push(
      `Each of the ${views.length} replacements now reads (the first at line ${first.startLine}); use this text in your next old_string:`,
    );
    lines.push(...renderRegion(first, "").slice(1));
  } else {
    // Regions the formatter merged into the same lines are shown once, naming each edit.
    const groups = new Map<string, { labels: string[]; view: RegionView }>();
    for (const { label, view } of views) {
      const key =
        view.kind === "lines"
          ? `lines:${view.startLine}-${view.endLine}`
          : `${groups.size}:${label}`;
      const group = groups.get(key);
      if (group) group.labels.push(label);
      else groups.set(key, { labels: [label], view });
    }
    for (const { labels, view } of groups.values()) {
      const label = labels.join(" and ");
      lines.push(...renderRegion(view, label[0]!.toUpperCase() + label.slice(1)));
    }
  }
  if (lines.length === 0 && !elsewhere) return [];
  if (elsewhere) {
    lines.push(
      `The callbacks also changed other lines of ${path}:`,
      boundedDiff(path, before, after),
    );
  }
  return [head, ...lines];
}
