/** JSON the way the-loop writes it, to stdout and to files: two-space indent, a final newline. */
export function formatJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
