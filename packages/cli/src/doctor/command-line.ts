import { isAbsolute, resolve } from 'node:path';

export type SplitResult = { ok: true; argv: string[] } | { ok: false; error: string };

const VARIABLE = /^\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*|0))/;
// Characters whose meaning only a shell knows.
const SHELL_ONLY = /[|&;<>()`\\*?[\]{}~#!]/;

/**
 * Turn an installed hook command line into an argv list without a shell, so doctor runs
 * exactly what the harness runs. Only what `hooks install` writes is understood: words,
 * quotes, the variables in `vars` and a standalone `"$@"` (replaced by `args`). Anything
 * else a shell would interpret is refused: doctor then reports the hook as unverifiable
 * rather than guessing.
 */
export function splitCommandLine(line: string, vars: Readonly<Record<string, string>>, args: readonly string[] = []): SplitResult {
  const argv: string[] = [];
  let i = 0;
  const fail = (error: string): SplitResult => ({ ok: false, error: `${error} in \`${line}\`` });
  const expand = (): string | undefined => {
    const match = VARIABLE.exec(line.slice(i));
    const value = match ? vars[(match[1] ?? match[2]) as string] : undefined;
    if (!match || value === undefined) return undefined;
    i += match[0].length;
    return value;
  };
  while (i < line.length) {
    if (/\s/.test(line[i] as string)) {
      i += 1;
      continue;
    }
    if (line.startsWith('"$@"', i) && (i + 4 === line.length || /\s/.test(line[i + 4] as string))) {
      argv.push(...args);
      i += 4;
      continue;
    }
    let word = '';
    while (i < line.length && !/\s/.test(line[i] as string)) {
      const ch = line[i] as string;
      if (ch === "'") {
        const end = line.indexOf("'", i + 1);
        if (end < 0) return fail('an unterminated quote');
        word += line.slice(i + 1, end);
        i = end + 1;
      } else if (ch === '"') {
        i += 1;
        while (i < line.length && line[i] !== '"') {
          const c = line[i] as string;
          if (c === '$') {
            const value = expand();
            if (value === undefined) return fail(`"${line.slice(i, i + 12)}…" cannot be expanded without a shell`);
            word += value;
          } else if (c === '\\' || c === '`') return fail(`"${c}" needs a shell`);
          else {
            word += c;
            i += 1;
          }
        }
        if (i >= line.length) return fail('an unterminated quote');
        i += 1;
      } else if (ch === '$') {
        const value = expand();
        if (value === undefined) return fail(`"${line.slice(i, i + 12)}…" cannot be expanded without a shell`);
        word += value;
      } else if (SHELL_ONLY.test(ch)) return fail(`"${ch}" needs a shell`);
      else {
        word += ch;
        i += 1;
      }
    }
    argv.push(word);
  }
  return argv.length > 0 ? { ok: true, argv } : { ok: false, error: 'the command is empty' };
}

/** A launcher given as a relative path (`node_modules/.bin/the-loop`) is found from the project root, as the harness finds it. */
export function resolveLauncher(argv: readonly string[], root: string): string[] {
  const [first, ...rest] = argv;
  if (first === undefined) return [];
  return [first.includes('/') && !isAbsolute(first) ? resolve(root, first) : first, ...rest];
}
