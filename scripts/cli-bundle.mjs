// How the CLI is bundled, shared by the build and the profiler so both run the same code.
import { readFile } from 'node:fs/promises';

/** esbuild options for the CLI and report-worker bundles, written to `outdir`. */
export function cliBundleOptions(root, outdir) {
  return {
    absWorkingDir: root,
    entryPoints: { 'the-loop': 'packages/cli/src/main.ts', 'report-worker': 'packages/cli/src/report-worker.ts' },
    outdir,
    outExtension: { '.js': '.cjs' },
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    conditions: ['source'],
    logLevel: 'warning',
    plugins: [plainFieldsInMarkdownIt],
  };
}

// markdown-it's build turns each class field into a call of a `_defineProperty` helper, and every
// token and every inline parse creates a dozen fields that way: about a fifth of the reader's
// time. On a fresh instance whose class has no setters, defining an own data property and
// assigning it are the same, so the bundle assigns. Fewer than the expected number of such
// fields means markdown-it's build changed: the build stops, rather than lose the speed unseen.
const FIELD = /_defineProperty\(\s*this,\s*(?:\/\*\*[\s\S]*?\*\/\s*)?"(\w+)",\s*(?:\/\*\*[\s\S]*?\*\/\s*)?([^\n]*?)\s*\n?\t*\);/g;
const EXPECTED_FIELDS = 50;

const plainFieldsInMarkdownIt = {
  name: 'plain-fields-in-markdown-it',
  setup(build) {
    build.onLoad({ filter: /[\\/]markdown-it[\\/]dist[\\/]markdown-it\.mjs$/ }, async ({ path }) => {
      let fields = 0;
      const contents = (await readFile(path, 'utf8')).replace(FIELD, (_call, name, value) => {
        fields += 1;
        return `this.${name} = ${value};`;
      });
      if (fields < EXPECTED_FIELDS) throw new Error(`markdown-it's build has ${fields} class fields where ${EXPECTED_FIELDS} or more were expected: review scripts/cli-bundle.mjs`);
      return { contents, loader: 'js' };
    });
  },
};
