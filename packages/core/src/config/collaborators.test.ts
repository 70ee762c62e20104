import { describe, expect, it } from 'vitest';
import { loginsWithRole, parseCollaborators } from './collaborators.js';
import { issueNumberOf, parseRuntimeConfig } from './runtime-config.js';
import { parseYamlSource } from '../yaml/yaml-source.js';

describe('parseCollaborators', () => {
  it('lists logins by role', () => {
    const result = parseCollaborators('c.yaml', 'collaborators:\n  - login: ann\n    roles: [approver, lead]\n  - login: bo\n    roles: [lead]\n');
    expect(result.ok && loginsWithRole(result.collaborators, 'approver')).toEqual(['ann']);
    expect(result.ok && loginsWithRole(result.collaborators, 'lead')).toEqual(['ann', 'bo']);
  });

  it('reports every problem with its line', () => {
    const result = parseCollaborators('c.yaml', 'collaborators:\n  - login: ann\n    role: [approver]\n  - login: "bad login"\n    roles: [approver]\n');
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.issues.map((i) => `${i.file}:${i.line} ${i.message}`)).toEqual(['c.yaml:2 collaborators[0]: missing key "roles"', 'c.yaml:3 collaborators[0]: unknown key "role" (did you mean "roles"?)', 'c.yaml:4 collaborators[1].login: must be a login (letters, digits, "-", "_", ".")']);
  });

  it('refuses a login listed twice and YAML that does not parse', () => {
    expect(parseCollaborators('c.yaml', 'collaborators:\n  - {login: a, roles: [x]}\n  - {login: A, roles: [y]}\n').ok).toBe(false);
    const broken = parseCollaborators('c.yaml', 'collaborators: [\n');
    expect(!broken.ok && broken.issues[0]!.line).toBeGreaterThan(0);
  });
});

describe('parseRuntimeConfig', () => {
  const source = (text: string) => {
    const parsed = parseYamlSource('h.yaml', text);
    if (!parsed.ok) throw new Error('bad yaml');
    return parsed.source;
  };
  it('defaults the port to gh and the API to GitHub', () => {
    const result = parseRuntimeConfig(source('github: {repo: acme/app}\n'));
    expect(result.ok && result.config.github).toEqual({ repo: 'acme/app', port: 'gh', apiUrl: 'https://api.github.com', timeoutSeconds: 30 });
  });
  it('refuses a shell line as a notification command, with its line', () => {
    const result = parseRuntimeConfig(source('workflow: {}\nnotifications:\n  command: ["notify-send -u critical"]\n'));
    expect(!result.ok && result.issues[0]).toMatchObject({ line: 3, message: expect.stringContaining('never a shell line') });
  });
  it('reads approvals.source, local by default, and refuses github without a repository or with a typo, with its line', () => {
    expect(parseRuntimeConfig(source('workflow: {}\n'))).toMatchObject({ ok: true, config: { approvals: { source: 'local' } } });
    expect(parseRuntimeConfig(undefined)).toMatchObject({ ok: true, config: { approvals: { source: 'local' } } });
    expect(parseRuntimeConfig(source('github: {repo: acme/app}\napprovals: {source: github}\n'))).toMatchObject({ ok: true, config: { approvals: { source: 'github' } } });
    const orphan = parseRuntimeConfig(source('workflow: {}\napprovals:\n  source: github\n'));
    expect(!orphan.ok && orphan.issues).toEqual([expect.objectContaining({ line: 3, column: 11, message: expect.stringContaining('no `github:` section') })]);
    const typo = parseRuntimeConfig(source('github: {repo: acme/app}\napprovals:\n  source: gitub\n  sorce: local\n'));
    expect(!typo.ok && typo.issues.map((i) => `${i.line}: ${i.message}`)).toEqual([expect.stringMatching(/^3: .*"gitub"/), expect.stringMatching(/^4: approvals: unknown key "sorce" \(did you mean "source"\?\)/)]);
  });
  it('reads issue numbers from ids', () => {
    expect(issueNumberOf('issue-42')).toBe(42);
    expect(issueNumberOf('feature-x')).toBeUndefined();
  });
});

describe('parseCollaborators: a file the earlier the-loop wrote', () => {
  it('names the replacement of `handle` and `version`, with every other problem, each at its line', () => {
    const result = parseCollaborators('c.yaml', 'version: 1\ncollaborators:\n  - handle: ann\n    roles: [approver]\n');
    expect(!result.ok && result.issues.map((i) => `${i.line}:${i.column} ${i.message}`)).toEqual([
      '1:10 unknown key "version" — a key of the earlier the-loop: this file carries no version; delete it',
      '3:5 collaborators[0]: missing key "login"',
      '3:13 collaborators[0]: unknown key "handle" — a key of the earlier the-loop: renamed login; rename the key',
    ]);
  });
});
