import pc from 'picocolors';

export type Colors = ReturnType<typeof pc.createColors>;

/** Whether text for people on `stream` is coloured: at a terminal unless NO_COLOR is set; FORCE_COLOR turns it on anywhere. */
export function colorEnabled(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv): boolean {
  const noColor = env['NO_COLOR'] !== undefined && env['NO_COLOR'] !== '';
  const force = env['FORCE_COLOR'] !== undefined && env['FORCE_COLOR'] !== '0';
  return !noColor && (force || stream.isTTY === true);
}

/** Colour for people at a terminal, unless NO_COLOR is set; FORCE_COLOR turns it on anywhere. */
export function colorsFor(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv): Colors {
  return pc.createColors(colorEnabled(stream, env));
}
