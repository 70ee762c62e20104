import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'test-fixtures/**/bin/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // Every child process goes through the one runner (decision 050).
    files: ['packages/cli/src/**/*.ts'],
    ignores: ['packages/cli/src/process/run-process.ts', 'packages/cli/src/**/*.test.ts', 'packages/cli/src/test-support/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: ['child_process', 'node:child_process'].map((name) => ({ name, message: 'Start processes with runProcess from process/run-process.ts.' })),
        },
      ],
    },
  },
  {
    // A harness is one adapter: the CLI asks it, never compares its name (decision 051).
    files: ['packages/cli/src/**/*.ts'],
    ignores: ['packages/cli/src/**/*.test.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...["BinaryExpression[operator=/^[!=]==?$/] > Literal[value=/^(claude|cursor)$/]", 'SwitchCase > Literal.test[value=/^(claude|cursor)$/]'].map((selector) => ({
          selector,
          message: 'A harness is one adapter: use what its HarnessAdapter says instead of comparing its name.',
        })),
      ],
    },
  },
  {
    // The core and the hook decisions are pure: no file system, no processes, no environment,
    // no clock, no platform paths or crypto. Values come in as parameters; adapters do the I/O.
    files: ['packages/core/src/**/*.ts', 'packages/hooks/src/**/*.ts'],
    ignores: ['packages/*/src/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: ['fs', 'fs/promises', 'child_process', 'process', 'os', 'path', 'crypto', 'worker_threads', 'tinyexec']
            .flatMap((name) => (name === 'tinyexec' ? [name] : [name, `node:${name}`]))
            .map((name) => ({
              name,
              message: 'This package is pure: take the data (or the function, such as a digest) as a parameter and let an adapter do the I/O.',
            })),
        },
      ],
      'no-restricted-globals': ['error', { name: 'process', message: 'This package reads no environment: pass values in.' }],
      'no-restricted-syntax': [
        'error',
        { selector: "CallExpression[callee.object.name='Date'][callee.property.name='now']", message: 'This package reads no clock: take `now` as a parameter.' },
        { selector: "NewExpression[callee.name='Date'][arguments.length=0]", message: 'This package reads no clock: take `now` as a parameter.' },
      ],
    },
  },
);
