import { formatLocation } from '../diagnostic.js';
import type { CompletionProof, ProofCheck } from './completion.js';

const STATUS_WORDS: Record<ProofCheck['status'], string> = {
  current: 'passed, current',
  failing: 'failed',
  stale: 'stale',
  invalid: 'record rejected',
  missing: 'never run',
  skipped: 'skipped',
};

/** The completion proof as a reviewer reads it in a pull request. */
export function proofToMarkdown(proof: CompletionProof): string {
  const out: string[] = [];
  const short = (sha: string | null | undefined) => (sha ? `\`${sha.slice(0, 12)}\`` : 'no commit');
  out.push(`## Completion proof: ${proof.workItem} — ${proof.verdict}`, '');
  out.push(`At commit ${short(proof.commit)}. Every criterion below is judged by checks the-loop ran itself, bound to the files they depend on; a ticked task or a claim in prose counts for nothing.`, '');
  if (proof.reasons.length > 0) {
    out.push('**Why it is not complete**', '', ...proof.reasons.map((reason) => `- ${cell(reason, false)}`), '');
  }

  out.push('### Acceptance criteria', '');
  if (proof.criteria.length === 0) out.push('_No acceptance criterion was found._', '');
  else {
    out.push('| criterion | status | evidence |', '|---|---|---|');
    for (const c of proof.criteria) {
      const evidence = c.status === 'NOT_APPLICABLE' ? `not applicable: ${cell(c.reason ?? '')}` : c.evidence.length > 0 ? c.evidence.map((id) => `\`${id}\``).join(', ') : 'no check covers it';
      out.push(`| **${c.id}** ${cell(c.text)} | ${c.status} | ${evidence} |`);
    }
    out.push('');
  }

  out.push('### Checks', '');
  if (proof.checks.length === 0) out.push('_No check applies to this work item._', '');
  else {
    out.push('| check | result | ran at | command |', '|---|---|---|---|');
    for (const c of proof.checks) {
      const result = `${STATUS_WORDS[c.status]}${c.exitCode !== undefined && c.exitCode !== null ? ` (exit ${c.exitCode})` : ''}`;
      const ranAt = c.commit === undefined ? '—' : `${short(c.commit)}${c.dirty ? ' + local changes' : ''}`;
      const from = c.source === 'config' ? '' : ` (declared in ${c.source})`;
      out.push(`| \`${c.id}\`${from} | ${result} | ${ranAt} | ${c.argv.length > 0 ? code(c.argv.join(' ')) : '—'} |`);
    }
    out.push('');
    const notes = proof.checks.filter((c) => c.status !== 'current' && c.reasons.length > 0);
    if (notes.length > 0) out.push(...notes.map((c) => `- \`${c.id}\`: ${cell(c.reasons.join('; '), false)}`), '');
  }

  if (proof.findings.length > 0) {
    out.push('### Open findings', '', ...proof.findings.map((d) => `- \`${formatLocation(d)}\` ${d.ruleId}: ${cell(d.message, false)}`), '');
  }
  if (proof.openDecisions.length > 0) {
    out.push('### Waiting on people', '');
    out.push(...proof.openDecisions.map((d) => `- ${d.kind === 'clarification' ? 'Open decision' : `Approval (${d.node})`} at \`${d.file}${d.line ? `:${d.line}` : ''}\`: ${cell(d.text, false)}${d.blocking ? '' : ' _(does not change the verdict)_'}`), '');
  }
  return `${out.join('\n').trimEnd()}\n`;
}

// Table cells: one line, pipes escaped, markup that would break out neutralised.
function cell(text: string, inTable = true): string {
  const flat = text.replace(/\s+/g, ' ').replace(/</g, '&lt;');
  return inTable ? flat.replace(/\|/g, '\\|') : flat;
}

// Inline code that survives backticks inside it.
function code(text: string): string {
  const flat = cell(text).replace(/&lt;/g, '<');
  const fence = '`'.repeat((flat.match(/`+/g) ?? []).reduce((n, run) => Math.max(n, run.length), 0) + 1);
  return `${fence}${fence.length > 1 ? ' ' : ''}${flat}${fence.length > 1 ? ' ' : ''}${fence}`;
}
