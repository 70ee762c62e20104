import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import {
  DEFAULT_MAX_ATTEMPTS,
  ESCALATED_NODE,
  NO_RUN_USAGE,
  REVIEW_ANSWER_SCHEMA,
  addUsage,
  choicePrompt,
  choiceSchema,
  escalateAt,
  findingText,
  findingWithFix,
  modelForStage,
  nodeRecord,
  readChoice,
  readReviewAnswer,
  renderAssignment,
  reviewPrompt,
  sessionToResume,
  transition,
  type Diagnostic,
  type EscalationDetails,
  type GateOutcome,
  type GraphNode,
  type GraphState,
  type HarnessAdapter,
  type ModelRouting,
  type NodeRun,
  type NodeRunOutcome,
  type Reference,
  type ReviewsConfig,
  type RoundRecord,
  type RunResult,
  type RunStatus,
  type RunUsage,
  type SessionRecord,
  type Usage,
  type Verdict,
} from '@the-loop/core';
import { UsageError } from '../errors.js';
import { runCriticRound } from '../harness/critic-round.js';
import { withScratchFile } from '../workspace/scratch.js';
import { commitTransitions, type Committed, type Decision } from '../state/commit-transitions.js';
import { loadGraphState, readGraphState } from '../state/graph-state-store.js';
import { evaluateNodeFromDisk } from '../gate/evaluate.js';
import { sha256 } from '../workspace/digest.js';
import type { Repo } from '../workspace/repo.js';
import { invokeHarness, type CallOutcome, type HarnessCall, type Purpose } from './invoke-harness.js';
import { readReferences } from './references.js';
import { criticOrder, loggedAuthor, loggedCycles, reviewTypeOf, roundHistory, roundLink, writeRound } from './review-rounds.js';
import type { RunEvents } from './run-events.js';
import { clearInFlight, latestSession, onThisMachine, readInFlight, recordSession, writeInFlight } from './run-records.js';
import { closingEntries, editExecutionLog, gapEntry, reviewRow, usageRow, type LogEdit } from './run-log.js';

/** The time limit of one harness run at a node that sets none and a configuration that sets none. */
export const DEFAULT_NODE_TIMEOUT_SECONDS = 1800;

/** Everything a run needs, resolved and checked by the command before anything starts. */
export interface RunRequest {
  readonly repo: Repo;
  readonly id: string;
  readonly adapter: HarnessAdapter;
  /** Every adapter the CLI was given: a critic on another harness runs through its own. */
  readonly adapters: readonly HarnessAdapter[];
  /** `--model`: every run of the driven harness uses it; otherwise the stage's tier decides. */
  readonly model: string | undefined;
  readonly routing: ModelRouting;
  readonly reviews: ReviewsConfig;
  readonly maxNodes: number;
  readonly budgetSeconds: number | undefined;
  readonly requestId: string;
  readonly env: NodeJS.ProcessEnv;
  readonly now: () => Date;
  readonly events: RunEvents;
}

/** A node the run cannot work on (its harness cannot start, no reviewer could run, a reference cannot be read): the run fails closed. */
class RunFailure extends Error {}

/** `--budget-seconds` is spent: no harness run may start. */
class BudgetSpent extends Error {}

interface Visit {
  node: string;
  attempts: number;
  outcome: NodeRunOutcome;
  sessionId: string | null;
  runs: number;
  usage: RunUsage;
  runners: Set<string>;
}

interface Gate {
  readonly outcome: GateOutcome;
  readonly findings: readonly Diagnostic[];
  readonly digest: string;
}

type End = { readonly status: RunStatus; readonly reason: string };

/**
 * Drive one work item through its graph, one headless harness run per step, until it parks on a
 * person, escalates, leaves the graph, fails or runs out of budget. Control flow is here: the
 * harness does a node's work, the gate decides whether it is done, and only declared edges are
 * taken. Every step is written to graph state before the next starts, so a run killed at any
 * moment is resumed by the next one from the recorded node.
 */
export async function runWorkItem(request: RunRequest): Promise<RunResult> {
  return new Run(request).drive();
}

class Run {
  private readonly visits: Visit[] = [];
  private usage: RunUsage = NO_RUN_USAGE;
  private runs = 0;
  private latest: SessionRecord | undefined;
  /** Why the attempt a killed run left was lost: the next prompt at that node says so. */
  private interrupted: { node: string; why: string } | undefined;
  private readonly started: number;
  private readonly dir: string;

  constructor(private readonly r: RunRequest) {
    this.started = r.now().getTime();
    this.dir = `${r.repo.config.specDir}/${r.id}`;
  }

  async drive(): Promise<RunResult> {
    this.latest = await latestSession(this.r.repo, this.r.id);
    let end: End | undefined;
    try {
      end = await this.recoverInterrupted();
      while (!end) end = await this.step();
    } catch (error) {
      // A file that turned unreadable mid-run (graph state, a local record) after a harness has
      // run is a failed run with its result printed; before anything ran it stays exit 2.
      if (!(error instanceof UsageError) || this.runs === 0) throw error;
      end = { status: 'failed', reason: error.message.split('\n')[0] ?? error.message };
    }
    const read = await readGraphState(this.r.repo, this.r.id);
    const state = read?.ok ? read.state : undefined;
    if (end.status === 'complete') {
      await this.log(closingEntries(this.now(), this.r.requestId, this.visits.length, this.runs, this.usage), 'onExitGraph');
    }
    const result: RunResult = {
      schemaVersion: 1,
      workItem: this.r.id,
      requestId: this.r.requestId,
      status: end.status,
      currentNode: state?.currentNode ?? null,
      nodesRun: this.visits.map(({ node, attempts, outcome, sessionId }): NodeRun => ({ node, attempts, outcome, sessionId })),
      usage: this.usage,
      reason: end.reason,
    };
    this.r.events.emit('run.finished', result.currentNode, { status: result.status, reason: result.reason, usage: result.usage });
    return result;
  }

  // One node: the recorded one. Returns how the run ends, or undefined to go on to the next.
  private async step(): Promise<End | undefined> {
    const state = await this.state();
    const id = state.currentNode;
    if (id === null) return { status: 'complete', reason: 'the work item left the graph through its last node' };
    if (state.escalated || id === ESCALATED_NODE) {
      const to = state.escalated?.node ?? '<node>';
      return { status: 'escalated', reason: `the work item is escalated${state.escalated ? ` at "${state.escalated.node}": ${state.escalated.reason}` : ''}; a person resolves it with \`the-loop graph force ${this.r.id} --to ${to} --reason <why>\`` };
    }
    if (this.visits.length >= this.r.maxNodes) return { status: 'budget-exhausted', reason: `--max-nodes ${this.r.maxNodes} reached before "${id}"` };
    if (this.remainingMs() === 0) return { status: 'budget-exhausted', reason: `--budget-seconds ${this.r.budgetSeconds} spent before "${id}"` };
    const node = this.r.repo.config.graph.byId.get(id);
    if (!node) return { status: 'failed', reason: `graph state names node "${id}", which the graph does not declare` };
    const visit: Visit = { node: id, attempts: 0, outcome: 'pass', sessionId: null, runs: 0, usage: NO_RUN_USAGE, runners: new Set() };
    this.visits.push(visit);
    this.r.events.emit('node.entered', id, { actor: node.actor, phase: node.phase });
    try {
      const type = reviewTypeOf(node);
      if (node.actor === 'human') return await this.human(node, visit);
      if (node.actor === 'code') return await this.code(node, visit);
      if (type !== undefined) return await this.review(node, visit, type);
      return await this.agent(node, visit);
    } catch (error) {
      if (error instanceof BudgetSpent) {
        visit.outcome = 'budget-exhausted';
        return { status: 'budget-exhausted', reason: error.message };
      }
      if (!(error instanceof RunFailure)) throw error;
      visit.outcome = 'failed';
      await clearInFlight(this.r.repo, this.r.id);
      return { status: 'failed', reason: error.message };
    } finally {
      if (visit.runs > 0) await this.log(usageRow(this.now(), this.r.requestId, id, [...visit.runners], visit.runs, visit.usage), 'run-usage');
    }
  }

  // ---- the kinds of node -------------------------------------------------------------------

  private async human(node: GraphNode, visit: Visit): Promise<End | undefined> {
    const gate = await this.gate(node.id);
    if (passes(gate)) return this.pass(node, visit, gate);
    return this.park(node, visit, gate);
  }

  private async code(node: GraphNode, visit: Visit): Promise<End | undefined> {
    const gate = await this.gate(node.id);
    if (passes(gate)) return this.pass(node, visit, gate);
    if (gate.outcome === 'wait') return this.park(node, visit, gate);
    // No agent works a code node: an unmet gate needs a person, or the artifacts another node writes.
    const end = await this.block(node, visit, gate, undefined, []);
    if (end) return end;
    visit.outcome = 'failed';
    return { status: 'failed', reason: `the gate of code node "${node.id}" is unmet: ${summary(gate)}` };
  }

  private async agent(node: GraphNode, visit: Visit): Promise<End | undefined> {
    let gate = await this.gate(node.id);
    // Work already done (by hand, or by a run killed after its harness finished) is not redone.
    if (passes(gate)) return this.pass(node, visit, gate);
    if (gate.outcome === 'wait') return this.park(node, visit, gate);
    const references = await this.references(node);
    const limit = node.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
    const tried: string[] = [];
    let failure = this.interrupted?.node === node.id ? this.interrupted.why : undefined;
    for (;;) {
      const attempt = nodeRecord(await this.state(), node.id).attempts + 1;
      const prompt = renderAssignment({ node, workItem: this.r.id, dir: this.dir, unmet: gate.findings, references, attempt: { number: attempt, of: limit }, previousFailure: failure });
      const call = await this.call(node, visit, { purpose: 'work', prompt, writes: true, attempt });
      if (call.notStarted) throw new RunFailure(`${this.r.adapter.binary} could not be started at "${node.id}": ${call.failure ?? 'unknown'}`);
      gate = await this.gate(node.id);
      if ((await this.state()).currentNode !== node.id) {
        // The agent claimed the node itself (`graph complete` checks the gate too).
        await clearInFlight(this.r.repo, this.r.id);
        return undefined;
      }
      if (passes(gate)) {
        const end = await this.pass(node, visit, gate);
        await clearInFlight(this.r.repo, this.r.id);
        return end;
      }
      if (gate.outcome === 'wait') return this.park(node, visit, gate);
      failure = call.failure;
      tried.push(`attempt ${attempt} (${this.runner(node)}${call.result.sessionId ? `, session ${call.result.sessionId}` : ''}): ${failure ?? 'the harness finished'}; ${summary(gate)}`);
      const end = await this.block(node, visit, gate, failure, tried);
      if (end) return end;
      if (call.budget) {
        visit.outcome = 'budget-exhausted';
        return { status: 'budget-exhausted', reason: `--budget-seconds ${this.r.budgetSeconds} ran out during attempt ${attempt} at "${node.id}"` };
      }
    }
  }

  // Rounds until one finds nothing new (caps, not quotas), escalating on a repeated finding.
  private async review(node: GraphNode, visit: Visit, type: string): Promise<End | undefined> {
    const critic = type === 'critic';
    const cap = critic ? this.r.reviews.criticReviewCount : this.r.reviews.selfReviewCount;
    if (cap === 0) throw new RunFailure(`reviews.${critic ? 'criticReviewCount' : 'selfReviewCount'} is 0, so "${node.id}" cannot get the ${type} rounds its gate needs`);
    const rounds = await this.rounds();
    let cycle = Math.max(await loggedCycles(this.r.repo, this.r.id), ...rounds.map((r) => r.cycle));
    let previous = [...rounds].reverse().find((r) => r.type === type && r.outcome !== 'unavailable');
    const tried: string[] = [];
    let converged = false;
    for (let ran = 0; ran < cap && !converged; ) {
      const reviewers = critic ? await this.critics(rounds) : [this.selfReviewer(node)];
      if (reviewers.length === 0) return this.gap(node, visit, `${type} review at "${node.id}": no critic can review (${await this.whyNoCritic()})`);
      let counted: RoundRecord | undefined;
      const unavailable: string[] = [];
      for (const reviewer of reviewers) {
        cycle += 1;
        const prompt = reviewPrompt({ node, type, workItem: this.r.id, dir: this.dir, cycle, previous });
        const answer = await reviewer.review(node, visit, prompt);
        const reading = answer.failure !== undefined ? { ok: false as const, reason: answer.failure } : readReviewAnswer(answer.structured, cycle, previous?.findings ?? []);
        const record: RoundRecord = {
          schemaVersion: 1,
          workItem: this.r.id,
          node: node.id,
          cycle,
          type,
          reviewer: reviewer.attribution,
          critic: reviewer.critic,
          outcome: reading.ok ? reading.outcome : 'unavailable',
          at: this.now(),
          findings: reading.ok ? [...reading.findings] : [],
          error: reading.ok ? null : reading.reason,
        };
        await this.recordRound(record);
        rounds.push(record);
        if (reading.ok) {
          counted = record;
          break;
        }
        unavailable.push(`${reviewer.attribution}: ${reading.reason}`);
      }
      if (!counted) return this.gap(node, visit, `${type} review round at "${node.id}": no reviewer could run it (${unavailable.join('; ')})`);
      ran += 1;
      visit.attempts += 1;
      tried.push(`${type} round ${counted.cycle} by ${counted.reviewer}: ${counted.outcome} (${counted.findings.length} finding${counted.findings.length === 1 ? '' : 's'})`);
      if (counted.outcome === 'escalated') {
        const repeated = counted.findings.filter((f) => f.repeats !== null);
        const reason = `${type} round ${counted.cycle} repeats ${repeated.map((f) => f.repeats).join(', ')} of round ${previous?.cycle ?? '?'}`;
        return this.escalate(node, visit, reason, { findings: repeated.map(findingText), tried });
      }
      if (counted.outcome === 'zero') converged = true;
      else {
        previous = counted;
        if (ran < cap) await this.fix(node, visit, counted);
      }
    }
    if (!converged) {
      return this.escalate(node, visit, `${cap} ${type} round${cap === 1 ? '' : 's'} without a round of zero new findings (reviews.${critic ? 'criticReviewCount' : 'selfReviewCount'})`, {
        findings: (previous?.findings ?? []).map(findingText),
        tried,
      });
    }
    const gate = await this.gate(node.id);
    if (passes(gate)) return this.pass(node, visit, gate);
    if (gate.outcome === 'wait') return this.park(node, visit, gate);
    // Converged, but the node's gate asks for more: an attempt, and the next visit reviews again.
    return this.block(node, visit, gate, undefined, tried);
  }

  // The author addresses a round's findings before the next round reads the work again.
  private async fix(node: GraphNode, visit: Visit, round: RoundRecord): Promise<void> {
    const prompt = renderAssignment({
      node,
      workItem: this.r.id,
      dir: this.dir,
      unmet: [],
      references: await this.references(node),
      review: { cycle: round.cycle, reviewer: round.reviewer, findings: round.findings.map(findingText) },
    });
    await this.call(node, visit, { purpose: 'fix', prompt, writes: true });
  }

  // ---- reviewers ---------------------------------------------------------------------------

  private selfReviewer(node: GraphNode): Reviewer {
    return {
      attribution: `[${this.r.adapter.name}/${this.modelFor(node) ?? 'default'}]`,
      critic: null,
      review: async (at, visit, prompt) => {
        const call = await this.call(at, visit, { purpose: 'review', prompt, writes: false, answerSchema: REVIEW_ANSWER_SCHEMA });
        return { structured: call.result.structured, failure: call.failure };
      },
    };
  }

  private async critics(rounds: readonly RoundRecord[]): Promise<Reviewer[]> {
    const author = (await loggedAuthor(this.r.repo, this.r.id)) ?? { harness: this.r.adapter.name, model: this.r.model };
    return criticOrder(this.r.reviews, author, rounds).map((entry) => ({
      attribution: `[${entry.harness ?? entry.name}/${entry.model ?? 'default'}]`,
      critic: entry.name,
      review: async (node, visit, prompt) => {
        this.r.events.emit('harness.invoked', node.id, { harness: entry.harness ?? entry.command ?? entry.name, purpose: 'review', critic: entry.name, model: entry.model ?? null });
        const round = await withScratchFile(prompt, (promptFile) =>
          runCriticRound(
            entry,
            { projectRoot: this.r.repo.root, join, specDir: this.r.repo.config.specDir, workItem: this.r.id, prompt, promptFile, env: this.r.env, answerSchema: REVIEW_ANSWER_SCHEMA },
            this.r.adapters,
          ),
        );
        if (!round.ok) {
          this.r.events.emit('harness.exited', node.id, { critic: entry.name, purpose: 'review', failure: round.reason });
          return { structured: undefined, failure: round.reason };
        }
        const { envelope } = round;
        this.count(visit, envelope.usage, envelope.attribution);
        this.r.events.emit('harness.exited', node.id, {
          harness: envelope.harness,
          purpose: 'review',
          critic: entry.name,
          exitCode: envelope.exitCode,
          durationSeconds: envelope.durationSeconds,
          sessionId: envelope.sessionId,
          usage: { inputTokens: envelope.usage.inputTokens, outputTokens: envelope.usage.outputTokens, costUsd: envelope.usage.costUsd },
          failure: envelope.ok ? null : envelope.error,
        });
        return { structured: round.structured, failure: envelope.ok ? undefined : (envelope.error ?? envelope.reason) };
      },
    }));
  }

  private async whyNoCritic(): Promise<string> {
    const author = (await loggedAuthor(this.r.repo, this.r.id)) ?? { harness: this.r.adapter.name, model: this.r.model };
    if (this.r.reviews.critics.length === 0) return 'reviews.critics declares none';
    return this.r.reviews.critics
      .map((declared) => {
        const name = declared.name ?? `critics[${declared.index}]`;
        if (!declared.entry) return `${name} is misconfigured`;
        if (!declared.entry.enabled) return `${name} is disabled`;
        return `${name} is the author's own harness and model (${author.harness}/${author.model ?? 'default'})`;
      })
      .join(', ');
  }

  // ---- moving the pointer ------------------------------------------------------------------

  private async pass(node: GraphNode, visit: Visit, gate: Gate): Promise<End | undefined> {
    let verdict: Omit<Verdict, 'node'> = { outcome: gate.outcome, findingsDigest: gate.digest };
    if (gate.outcome === 'pass' && node.actor !== 'human' && node.choices && node.choices.length > 0) verdict = { ...verdict, ...(await this.ask(node, visit)) };
    const committed = await this.commit(node.id, (state, now) => transition(this.r.repo.config.graph, state, { node: node.id, ...verdict }, now));
    visit.outcome = gate.outcome === 'skip' ? 'skip' : 'pass';
    const decision = node.choices?.length ? committed?.state.decisions.at(-1) : undefined;
    if (decision && decision.node === node.id) this.r.events.emit('choice.decided', node.id, { requested: decision.requested, taken: decision.taken, via: decision.via, reason: decision.reason ?? null });
    return undefined;
  }

  // Layer 5: the agent picks among the declared choices, as JSON; anything else takes the static edge.
  private async ask(node: GraphNode, visit: Visit): Promise<Pick<Verdict, 'choice' | 'choiceReason'>> {
    const choices = node.choices ?? [];
    const fallback = this.r.repo.config.graph.edges.find((e) => e.from === node.id && e.on === 'pass')?.to;
    const prompt = choicePrompt({ graph: this.r.repo.config.graph, node, workItem: this.r.id, dir: this.dir, fallback });
    // The choice is the node's own: asked in the session that did its work, when there is one.
    const call = await this.call(node, visit, { purpose: 'choice', prompt, writes: false, answerSchema: choiceSchema(choices), resume: visit.sessionId ?? undefined });
    const reading = call.failure !== undefined ? { ok: false as const, requested: undefined, reason: `the harness run failed: ${call.failure}` } : readChoice(call.result.structured, choices);
    return reading.ok ? { choice: reading.next, choiceReason: reading.reason } : { choice: reading.requested, choiceReason: reading.reason };
  }

  private async park(node: GraphNode, visit: Visit, gate: Gate): Promise<End> {
    await this.commit(node.id, (state, now) => transition(this.r.repo.config.graph, state, { node: node.id, outcome: 'wait' }, now));
    await clearInFlight(this.r.repo, this.r.id);
    visit.outcome = 'wait';
    const reason = `"${node.id}" waits on a person${gate.findings.length > 0 ? `: ${gate.findings[0]!.message}` : ''}`;
    this.r.events.emit('node.parked', node.id, { reason, findings: gate.findings.length });
    return { status: 'parked', reason };
  }

  // An unmet gate after an attempt: counted, recorded with what was tried; escalation ends the run.
  private async block(node: GraphNode, visit: Visit, gate: Gate, failure: string | undefined, tried: readonly string[]): Promise<End | undefined> {
    const findings = [...gate.findings.map(findingWithFix), ...(failure !== undefined ? [`the harness run failed: ${failure}`] : [])];
    const committed = await this.commit(node.id, (state, now) =>
      transition(this.r.repo.config.graph, state, { node: node.id, outcome: 'block', findingsDigest: sha256(JSON.stringify([gate.digest, failure ?? null])), findings, tried }, now),
    );
    await clearInFlight(this.r.repo, this.r.id);
    const state = committed?.state;
    if (state && (state.currentNode === ESCALATED_NODE || state.escalated?.node === node.id)) {
      visit.outcome = 'escalated';
      const reason = state.escalated?.reason ?? 'escalated';
      this.r.events.emit('node.escalated', node.id, { reason });
      return { status: 'escalated', reason: `escalated at "${node.id}": ${reason}` };
    }
    return undefined;
  }

  private async escalate(node: GraphNode, visit: Visit, reason: string, details: EscalationDetails): Promise<End> {
    await this.commit(node.id, (state, now) => escalateAt(this.r.repo.config.graph, state, node.id, reason, now, details));
    visit.outcome = 'escalated';
    this.r.events.emit('node.escalated', node.id, { reason });
    return { status: 'escalated', reason: `escalated at "${node.id}": ${reason}` };
  }

  // No reviewer could run: the gap is written into the log, never reported as convergence.
  private async gap(node: GraphNode, visit: Visit, text: string): Promise<End> {
    await this.log(gapEntry(this.now(), text), 'review-gap', true);
    visit.outcome = 'failed';
    return { status: 'failed', reason: `${text}; the gap is recorded in the execution log's Review gaps` };
  }

  private async commit(node: string, take: (state: GraphState, now: string) => Decision['results'][number]): Promise<Committed | undefined> {
    let committed: Committed;
    try {
      // The pointer may have moved meanwhile (the agent claimed the node): then nothing is taken.
      committed = await commitTransitions(this.r.repo, this.r.id, this.r, 'run', async (state, now) => ({ results: state.currentNode === node ? [take(state, now)] : [] }));
    } catch (error) {
      if (error instanceof UsageError) throw new RunFailure(error.message);
      throw error;
    }
    for (const report of committed.reports) if (report.status === 'failed') this.r.events.emit('effect.failed', report.node, { kind: report.kind, detail: report.detail });
    return committed;
  }

  // ---- a harness run -------------------------------------------------------------------------

  private async call(node: GraphNode, visit: Visit, spec: { purpose: Purpose; prompt: string; writes: boolean; attempt?: number; answerSchema?: Readonly<Record<string, unknown>>; resume?: string | undefined }): Promise<CallOutcome & { budget: boolean }> {
    const nodeMs = (node.timeoutSeconds ?? this.r.repo.config.timeoutSeconds ?? DEFAULT_NODE_TIMEOUT_SECONDS) * 1000;
    const remaining = this.remainingMs();
    if (remaining === 0) throw new BudgetSpent(`--budget-seconds ${this.r.budgetSeconds} ran out before a harness run at "${node.id}"`);
    const timeoutMs = remaining === undefined ? nodeMs : Math.min(nodeMs, remaining);
    const model = this.modelFor(node);
    const resume = 'resume' in spec ? spec.resume : sessionToResume(node.session, this.latest, this.r.adapter.name);
    const request: HarnessCall = { node: node.id, purpose: spec.purpose, prompt: spec.prompt, model, resume, writes: spec.writes, answerSchema: spec.answerSchema, timeoutMs, attempt: spec.attempt };
    const marker = { workItem: this.r.id, node: node.id, requestId: this.r.requestId, harness: this.r.adapter.name, binary: this.r.adapter.binary, startedAt: this.now() };
    await writeInFlight(this.r.repo, { ...marker, pid: null });
    const outcome = await invokeHarness(
      { adapter: this.r.adapter, root: this.r.repo.root, env: this.r.env, events: this.r.events, onSpawn: (pid) => writeInFlight(this.r.repo, { ...marker, pid }) },
      request,
    );
    // Only the node's work is an attempt, recorded once the gate has judged it; a review, a fix
    // or a choice that finished leaves nothing to recover.
    if (spec.purpose !== 'work') await clearInFlight(this.r.repo, this.r.id);
    if (spec.purpose === 'work') visit.attempts += 1;
    this.count(visit, outcome.result.usage, `[${this.r.adapter.name}/${model ?? 'default'}]`);
    const sessionId = outcome.result.sessionId;
    if (sessionId !== null) {
      if (spec.purpose !== 'choice') visit.sessionId = sessionId;
      this.latest = { harness: this.r.adapter.name, node: node.id, sessionId, at: this.now() };
      await recordSession(this.r.repo, this.r.id, this.latest);
    }
    return { ...outcome, budget: outcome.process.timedOut && timeoutMs < nodeMs };
  }

  private count(visit: Visit, usage: Usage, runner: string): void {
    this.runs += 1;
    visit.runs += 1;
    visit.runners.add(runner);
    visit.usage = addUsage(visit.usage, usage);
    this.usage = addUsage(this.usage, usage);
  }

  private modelFor(node: GraphNode): string | undefined {
    return this.r.model ?? modelForStage(this.r.routing, node.stage, this.r.adapter.name).model;
  }

  private runner(node: GraphNode): string {
    return `${this.r.adapter.name}/${this.modelFor(node) ?? 'default'}`;
  }

  // ---- resuming ------------------------------------------------------------------------------

  /**
   * An attempt an earlier run started and never recorded (it was killed) is recorded now: its
   * harness, if still running here, is killed with its process group, and an unmet gate counts
   * the attempt, so a run that keeps dying cannot retry a node for ever.
   */
  private async recoverInterrupted(): Promise<End | undefined> {
    const marker = await readInFlight(this.r.repo, this.r.id);
    if (!marker) return undefined;
    if (marker.pid !== null && onThisMachine(marker)) await killLeftover(marker.pid, marker.binary);
    const state = await loadGraphState(this.r.repo, this.r.id);
    let end: End | undefined;
    if (state?.currentNode === marker.node) {
      const node = this.r.repo.config.graph.byId.get(marker.node);
      const visit: Visit = { node: marker.node, attempts: 1, outcome: 'interrupted', sessionId: null, runs: 0, usage: NO_RUN_USAGE, runners: new Set() };
      this.visits.push(visit);
      const gate = await this.gate(marker.node);
      if (node && !passes(gate) && gate.outcome !== 'wait') {
        const why = `run ${marker.requestId} was killed during an attempt it started at ${marker.startedAt}`;
        this.interrupted = { node: node.id, why };
        end = await this.block(node, visit, gate, why, [why]);
        if (!end) visit.outcome = 'interrupted';
      }
    }
    await clearInFlight(this.r.repo, this.r.id);
    return end;
  }

  // ---- reading ------------------------------------------------------------------------------

  private async state(): Promise<GraphState> {
    const state = await loadGraphState(this.r.repo, this.r.id);
    if (state) return state;
    // A work item with no graph state enters the graph at its start node.
    return (await commitTransitions(this.r.repo, this.r.id, this.r, 'run', async () => ({ results: [] }))).state;
  }

  private async gate(node: string): Promise<Gate> {
    const verdict = await evaluateNodeFromDisk(this.r.repo, this.r.id, node);
    this.r.events.emit('gate.evaluated', node, { outcome: verdict.outcome, findings: verdict.findings.length, ruleIds: [...new Set(verdict.findings.map((d) => d.ruleId))] });
    return verdict;
  }

  private async references(node: GraphNode): Promise<Reference[]> {
    try {
      return await readReferences(this.r.repo.root, node);
    } catch (error) {
      throw new RunFailure((error as Error).message);
    }
  }

  private async rounds(): Promise<RoundRecord[]> {
    try {
      return await roundHistory(this.r.repo, this.r.id);
    } catch (error) {
      throw new RunFailure(`the review rounds cannot be read: ${(error as Error).message}`);
    }
  }

  private async recordRound(record: RoundRecord): Promise<void> {
    await writeRound(this.r.repo, record);
    await this.log(reviewRow(record, roundLink(record.cycle)), 'review-round', true);
    this.r.events.emit('review.round', record.node, { cycle: record.cycle, type: record.type, reviewer: record.reviewer, critic: record.critic, outcome: record.outcome, findings: record.findings.length, error: record.error });
  }

  private async log(edit: (text: string) => string, kind: string, create = false): Promise<void> {
    const result: LogEdit = await editExecutionLog(this.r.repo, this.r.id, edit, create ? '# Execution log\n' : undefined);
    if (result.status === 'failed') this.r.events.emit('effect.failed', null, { kind, detail: result.detail });
  }

  private remainingMs(): number | undefined {
    if (this.r.budgetSeconds === undefined) return undefined;
    return Math.max(0, this.r.budgetSeconds * 1000 - (this.r.now().getTime() - this.started));
  }

  private now(): string {
    return this.r.now().toISOString();
  }
}

interface Reviewer {
  readonly attribution: string;
  readonly critic: string | null;
  review(node: GraphNode, visit: Visit, prompt: string): Promise<{ structured: unknown; failure: string | undefined }>;
}

function passes(gate: Gate): boolean {
  return gate.outcome === 'pass' || gate.outcome === 'skip';
}

function summary(gate: Gate): string {
  const n = gate.findings.length;
  return n === 0 ? 'the gate is unmet' : `${n} finding${n === 1 ? '' : 's'} unmet (${[...new Set(gate.findings.map((d) => d.ruleId))].join(', ')})`;
}

// A harness a killed run left behind is killed with its group — but only a process whose
// command line still names the harness: a pid may have been reused since.
async function killLeftover(pid: number, binary: string): Promise<void> {
  const commandLine = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => undefined);
  if (commandLine === undefined || !commandLine.split('\0').some((arg) => basename(arg) === binary)) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}
