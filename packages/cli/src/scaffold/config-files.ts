// The configuration files `init` writes: commented so a team can read what each key does, and
// linked to the JSON Schema that ships with the CLI so an editor completes and checks them.
import { PRESET_NAMES, PRESETS, type PresetName } from '@the-loop/core';

/** Where the JSON Schema sits once `@the-loop/cli` is installed in the project, from .the-loop/. */
export const SCHEMA_LINK = '../node_modules/@the-loop/cli/dist/harness-config.schema.json';

/** `.the-loop/harness-config.yaml` for a preset. */
export function harnessConfigText(preset: PresetName): string {
  const { specDir } = PRESETS[preset];
  return `# yaml-language-server: $schema=${SCHEMA_LINK}
# the-loop's configuration. Every key is checked: a typo is an error with its line, never ignored.

workflow:
  # The layout the work items follow: ${PRESET_NAMES.join(' | ')}.
  # It sets where work items live and the lifecycle graph that reads them (docs/presets.md).
  preset: ${preset}
  # Where work items live, relative to the repository root (the preset's is ${specDir}).
  # specDir: ${specDir}
  # The lifecycle graph: replace it, or extend the preset's and change a node (docs/graph.md).
  # graph:
  #   extends: ${preset === 'the-loop' ? 'default' : preset}
  #   nodes:
  #     - id: design
  #       phase: design
  #       actor: agent
  #       produces: design.md
  #       gate:
  #         - sections: ["Security design"]

# Agent hooks: how many stops in a row with the same findings before a person is asked (docs/hooks.md).
# hooks:
#   noProgressCap: 3
`;
}

/** `.the-loop/collaborators.yaml`: who may approve; empty until the team lists itself. */
export const COLLABORATORS_TEXT = `# The people of this repository and their roles. A login with the approver role may record an
# approval with \`the-loop graph approve <work-item> <artifact> --by <login>\`.
collaborators: []
#  - login: your-login
#    roles: [approver]
`;
