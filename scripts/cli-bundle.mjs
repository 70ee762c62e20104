// How the CLI is bundled, shared by the build and the profiler so both run the same code.

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
  };
}
