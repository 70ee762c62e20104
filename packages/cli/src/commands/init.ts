import { mkdir } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { DEFAULT_PRESET, PRESET_NAMES, PRESETS, type PresetName } from '@the-loop/core';
import { UsageError } from '../errors.js';
import { COLLABORATORS_TEXT, harnessConfigText } from '../scaffold/config-files.js';
import { TEMPLATES, TEMPLATES_DIR } from '../scaffold/templates.js';
import { createFileAtomic } from '../workspace/atomic-write.js';
import { detectLayout } from '../workspace/read-work-item.js';
import { findRepoRoot, loadRepo } from '../workspace/repo.js';
import { oneOf, parseOptions, type Command } from './command.js';

const USAGE = `Usage: the-loop init [--preset ${PRESET_NAMES.join('|')}] [--repo DIR]

Sets a repository up for the-loop, writing only what is not there yet:
  .the-loop/harness-config.yaml   the configuration, commented and linked to its JSON Schema
  .the-loop/collaborators.yaml    who may approve artifacts
  ${TEMPLATES_DIR}/          the preset's artifact templates, which \`the-loop new\` starts from
A file that exists is kept as it is, so running init again changes nothing.
  --preset NAME   the layout the work items follow (docs/presets.md); without it, the layout the
                  repository already has (.kiro/specs, .specify, openspec), else the-loop's own
Exit codes: 0 done · 2 usage error, or a --preset other than the one the configuration names`;

export const command: Command = {
  summary: 'set a repository up: configuration, collaborators and templates',
  usage: USAGE,
  async run(args, env) {
    const { values, positionals } = parseOptions(args, { preset: { type: 'string' }, repo: { type: 'string' } }, USAGE);
    if (positionals.length > 0) throw new UsageError(`init takes no positional arguments; run \`the-loop init --help\` for its options`);
    const asked = values.preset === undefined ? undefined : oneOf(values.preset, PRESET_NAMES, DEFAULT_PRESET, '--preset');
    const root = values.repo === undefined ? await findRepoRoot(env.cwd) : resolve(env.cwd, values.repo);
    const existing = await loadRepo(root);
    if (existing.config.file !== undefined && asked !== undefined && asked !== existing.config.preset) {
      throw new UsageError(`${existing.config.file} already names the ${existing.config.preset} preset; change workflow.preset there to switch (nothing was written)`);
    }
    const detected = await detectLayout(root);
    const preset: PresetName = asked ?? (existing.config.file !== undefined ? existing.config.preset : detected ?? DEFAULT_PRESET);
    if (asked === undefined && existing.config.file === undefined && detected !== undefined && detected !== DEFAULT_PRESET) {
      env.stdout.write(`${PRESETS[detected].marker} is here: using the ${detected} preset (--preset chooses another)\n`);
    }
    const files: [string, string][] = [
      ['.the-loop/harness-config.yaml', harnessConfigText(preset)],
      ['.the-loop/collaborators.yaml', COLLABORATORS_TEXT],
      ...Object.entries(TEMPLATES[preset]).map(([name, text]): [string, string] => [`${TEMPLATES_DIR}/${name}`, text]),
    ];
    for (const [file, text] of files) {
      const path = join(root, ...file.split('/'));
      await mkdir(dirname(path), { recursive: true });
      const created = await createFileAtomic(path, text);
      env.stdout.write(`${created ? 'created' : 'kept   '} ${file}\n`);
    }
    env.stdout.write(`next: \`the-loop new <work-item>\` starts a work item under ${existing.config.file === undefined ? PRESETS[preset].specDir : existing.config.specDir}/\n`);
    return 0;
  },
};
