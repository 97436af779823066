/** A plain-text table: columns padded to their widest cell, numbers right-aligned. */
export function formatTable(header: string[], rows: (string | number)[][]): string {
  const cells = [header, ...rows.map((row) => row.map((cell) => String(cell)))];
  const widths = header.map((_, column) => Math.max(...cells.map((row) => (row[column] ?? '').length)));
  const line = (row: string[], numeric: boolean[]) =>
    row
      .map((cell, column) => (numeric[column] ? cell.padStart(widths[column]!) : cell.padEnd(widths[column]!)))
      .join('  ')
      .trimEnd();
  const numeric = header.map((_, column) => rows.every((row) => typeof row[column] === 'number'));
  const rule = widths.map((width) => '-'.repeat(width)).join('  ');
  return [
    line(
      header,
      numeric.map(() => false),
    ),
    rule,
    ...cells.slice(1).map((row) => line(row, numeric)),
  ].join('\n');
}

/** `✓ goal` or `✗ goal` for a row. */
export function verdict(met: boolean | undefined, goal: string): string {
  if (met === undefined) return 'baseline';
  return `${met ? 'met' : 'MISSED'} (${goal})`;
}
