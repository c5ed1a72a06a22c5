export function renderTable(
  header: readonly string[],
  rows: readonly (readonly string[])[],
): string {
  const clean = (cell: string): string => cell.replace(/[\r\n\t]+/g, " ");
  const all = [header, ...rows].map((row) => row.map(clean));
  const widths = header.map((_, i) => Math.max(...all.map((row) => (row[i] ?? "").length)));
  return all
    .map((row) =>
      row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] ?? 0))).join("  "),
    )
    .join("\n");
}
