/**
 * The default lifecycle graph, shipped as YAML so the project's own override in
 * `.the-loop/harness-config.yaml` (`workflow.graph`) reads exactly like it.
 * The review chain that used to hide inside one `needs-review` label is six nodes here.
 */
export const DEFAULT_GRAPH_YAML = `
start: brainstorming
nodes:
  - id: brainstorming
    phase: brainstorming
    actor: agent
    produces: brainstorm.md
    optional: true
    stage: brainstorm
  - id: requirements-definition
    phase: requirements-definition
    actor: agent
    produces: requirements.md|bugfix.md
    requires: [brainstorming]
    stage: requirements
  - id: requirements-approval
    phase: requirements-definition
    actor: human
    notify: {onAwaitHuman: [approver]}
    produces: requirements.md|bugfix.md
    requires: [requirements-definition]
    gate:
      - locked: true
      - approved: requirements.md|bugfix.md
  - id: design
    phase: design
    actor: agent
    produces: design.md
    requires: [requirements-approval]
    stage: design
    maxAttempts: 3
    gate:
      - sections: ["Security design"]
      - boundariesFrom: {artifact: requirements.md, section: "Security considerations"}
  - id: design-approval
    phase: design
    actor: human
    notify: {onAwaitHuman: [approver]}
    produces: design.md
    requires: [design]
    gate:
      - locked: true
      - approved: design.md
  - id: design-critic-review
    phase: design
    actor: agent
    produces: execution-log.md
    requires: [design-approval]
    optIn: true
    stage: critic-review
    gate:
      - sections: ["Design critic review"]
  - id: test-planning
    phase: test-planning
    actor: agent
    produces: testing-plan.md
    requires: [design-approval]
    optional: true
    stage: test-planning
  - id: tasks-breakdown
    phase: tasks-breakdown
    actor: agent
    produces: tasks.md
    requires: [design-approval]
    stage: tasks
  - id: implementation
    phase: implementation
    actor: agent
    produces: tasks.md
    requires: [tasks-breakdown]
    stage: implementation
    maxAttempts: 5
    gate:
      - tasksComplete: true
  - id: verification
    phase: verification
    actor: agent
    produces: execution-log.md
    requires: [implementation]
    stage: verification
    gate:
      - sections: ["Verification results"]
  - id: self-review
    phase: needs-review
    actor: agent
    produces: execution-log.md
    requires: [verification]
    stage: self-review
    gate:
      - reviewRounds: {type: self, min: 1}
  - id: critic-review
    phase: needs-review
    actor: agent
    produces: execution-log.md
    requires: [self-review]
    stage: critic-review
    gate:
      - reviewRounds: {type: critic, min: 1}
  - id: security-review
    phase: needs-review
    actor: agent
    produces: execution-log.md
    requires: [critic-review]
    stage: security-review
    gate:
      - reviewRounds: {type: security, min: 1}
  - id: evidence
    phase: needs-review
    actor: agent
    produces: execution-log.md
    requires: [security-review]
    stage: evidence
    gate:
      - sections: ["Evidence"]
  - id: capability-docs
    phase: needs-review
    actor: agent
    produces: execution-log.md
    requires: [evidence]
    stage: capability-docs
    gate:
      - sections: ["Capability docs"]
  - id: reviewer-briefing
    phase: needs-review
    actor: agent
    produces: execution-log.md
    requires: [capability-docs]
    stage: reviewer-briefing
    gate:
      - sections: ["Reviewer briefing"]
  - id: human-approval
    phase: needs-review
    actor: human
    notify: {onAwaitHuman: [approver]}
    produces: execution-log.md
    requires: [reviewer-briefing]
    gate:
      - approved: execution-log.md
  - id: complete
    phase: complete
    actor: code
    produces: execution-log.md
    requires: [human-approval]
    gate:
      - frontMatter: {phase: complete}
  - id: learnings
    phase: complete
    actor: agent
    produces: execution-log.md
    requires: [complete]
    stage: learnings
    gate:
      - sections: ["Learnings"]
  - id: escalated
    phase: needs-review
    actor: human
    notify: {onAwaitHuman: [approver]}
edges:
  - {from: brainstorming, to: requirements-definition, on: pass}
  - {from: requirements-definition, to: requirements-approval, on: pass}
  - {from: requirements-approval, to: design, on: pass}
  - {from: requirements-approval, to: requirements-definition, on: changes-requested}
  - {from: design, to: design-approval, on: pass}
  - {from: design-approval, to: design-critic-review, on: pass}
  - {from: design-approval, to: design, on: changes-requested}
  - {from: design-critic-review, to: test-planning, on: pass}
  - {from: test-planning, to: tasks-breakdown, on: pass}
  - {from: tasks-breakdown, to: implementation, on: pass}
  - {from: implementation, to: verification, on: pass}
  - {from: verification, to: self-review, on: pass}
  - {from: verification, to: implementation, on: fail}
  - {from: self-review, to: critic-review, on: pass}
  - {from: self-review, to: implementation, on: findings}
  - {from: critic-review, to: security-review, on: pass}
  - {from: critic-review, to: implementation, on: findings}
  - {from: security-review, to: evidence, on: pass}
  - {from: security-review, to: implementation, on: findings}
  - {from: evidence, to: capability-docs, on: pass}
  - {from: capability-docs, to: reviewer-briefing, on: pass}
  - {from: reviewer-briefing, to: human-approval, on: pass}
  - {from: human-approval, to: complete, on: pass}
  - {from: human-approval, to: implementation, on: changes-requested}
  - {from: complete, to: learnings, on: pass}
`;
