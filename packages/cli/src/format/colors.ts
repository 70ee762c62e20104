// The SGR codes that turn each style on and off. Written here rather than imported: a colour
// library that looks at `process.stdout` when it loads makes Node create the stream (and load
// its socket modules for a pipe) on every run, coloured or not.
const STYLES = {
  bold: [1, 22],
  dim: [2, 22],
  red: [31, 39],
  green: [32, 39],
  yellow: [33, 39],
} as const;

/** The styles text for people is printed in; each leaves its text as it is when colour is off. */
export type Colors = { readonly [Style in keyof typeof STYLES]: (text: string | number) => string };

const PLAIN: Colors = { bold: String, dim: String, red: String, green: String, yellow: String };

const COLOURED = Object.fromEntries(
  Object.entries(STYLES).map(([style, [on, off]]) => [style, (text: string | number) => `\u001b[${on}m${text}\u001b[${off}m`]),
) as Colors;

/** Whether text for people on `stream` is coloured: at a terminal unless NO_COLOR is set; FORCE_COLOR turns it on anywhere. */
export function colorEnabled(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv): boolean {
  const noColor = env['NO_COLOR'] !== undefined && env['NO_COLOR'] !== '';
  const force = env['FORCE_COLOR'] !== undefined && env['FORCE_COLOR'] !== '0';
  return !noColor && (force || stream.isTTY === true);
}

/** Colour for people at a terminal, unless NO_COLOR is set; FORCE_COLOR turns it on anywhere. */
export function colorsFor(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv): Colors {
  return colorEnabled(stream, env) ? COLOURED : PLAIN;
}
