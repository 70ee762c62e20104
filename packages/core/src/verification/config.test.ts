import { describe, expect, it } from 'vitest';
import { parseHarnessConfig } from '../config/harness-config.js';
import { DEFAULT_ENVIRONMENT_FILES } from './config.js';

const parse = (text: string) => parseHarnessConfig('.the-loop/harness-config.yaml', text);

describe('verification.checks in the configuration', () => {
  it('reads checks with their defaults: a 600 s timeout, exit 0 expected, covering nothing, depending on every file', () => {
    const result = parse('verification:\n  checks:\n    - {id: unit, argv: [pnpm, test], covers: [AC1]}\n    - {id: lint, argv: [pnpm, lint], timeoutSeconds: 60, expectExitCode: 0, paths: ["src/**", "!src/**/*.md"]}\n');
    expect(result.ok && result.config.verification).toEqual({
      checks: [
        { id: 'unit', argv: ['pnpm', 'test'], timeoutSeconds: 600, expectExitCode: 0, covers: ['AC1'], paths: undefined },
        { id: 'lint', argv: ['pnpm', 'lint'], timeoutSeconds: 60, expectExitCode: 0, covers: [], paths: ['src/**', '!src/**/*.md'] },
      ],
      environmentFiles: DEFAULT_ENVIRONMENT_FILES,
    });
  });

  it('has no checks when none are declared: nothing is proven', () => {
    const result = parse('workflow: {}\n');
    expect(result.ok && result.config.verification.checks).toEqual([]);
  });

  it('rejects a shell line, a check id that is not a file name, a path outside the project, a timeout of infinity and a typo, each at its line', () => {
    const result = parse(
      ['verification:', '  checks:', '    - id: Unit Tests', '      argv: "pnpm test"', '    - id: lint', '      argv: ["pnpm lint"]', '      paths: [../shared/**]', '      timeoutSeconds: .inf', '      cover: [AC1]', ''].join('\n'),
    );
    expect(result.ok).toBe(false);
    expect(!result.ok && result.issues.map((i) => `${i.line}:${i.column} ${i.message}`)).toEqual([
      '3:11 verification.checks[0].id: must be lower-case letters, digits and hyphens (at most 64)',
      '4:13 verification.checks[0].argv: must be a list such as [pnpm, test], never a shell line',
      '6:13 verification.checks[1].argv: its first element contains whitespace: argv is a list ([pnpm, test]), never a shell line',
      '7:15 verification.checks[1].paths[0]: a path glob must stay inside the project (no "..")',
      '8:23 verification.checks[1].timeoutSeconds: must be a finite number',
      '9:14 verification.checks[1]: unknown key "cover" (did you mean "covers"?)',
    ]);
  });

  it('rejects a check id declared twice: ids name evidence files', () => {
    const result = parse('verification:\n  checks:\n    - {id: unit, argv: [a]}\n    - {id: unit, argv: [b]}\n');
    expect(!result.ok && result.issues.map((i) => `${i.line}:${i.column} ${i.message}`)).toEqual(['4:12 verification.checks[1].id: "unit" is declared twice; check ids name evidence files and must be unique']);
  });
});
