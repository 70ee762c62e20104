// The artifact templates `init` writes under .the-loop/templates/ and `new` fills in, one set
// per preset. Every prompt an author must replace is an angle-bracketed phrase (`<what is
// wrong today>`), which the template-residue rule reports until it is replaced. `{{id}}` and
// `{{date}}` are filled in by `new`.
import type { PresetName } from '@the-loop/core';

const THE_LOOP: Readonly<Record<string, string>> = {
  'brainstorm.md': `---
type: brainstorm
workItem: {{id}}
---
# Brainstorm: {{id}}

## The idea

<what could be built, and for whom>

## Options

- <an option worth weighing>: <what speaks for and against it>

## Open questions

- <a question the requirements must answer>
`,
  'requirements.md': `---
type: requirements
workItem: {{id}}
status: draft
---
# Requirements: {{id}}

## Problem

<what is wrong or missing today, and for whom>

## Acceptance criteria

<!-- One EARS statement per item; each is AC1, AC2, … in order, and a check under verification.checks proves it. -->

1. WHEN <a situation> THEN the system SHALL <the behaviour that must hold>.

## Security considerations

<!-- Each trust boundary this work touches, by name, in bold: the design must address each one. -->

- **<boundary name>**: <what could go wrong at it>

## Out of scope

- <what this work item will not do>
`,
  'bugfix.md': `---
type: bugfix
workItem: {{id}}
status: draft
---
# Bugfix: {{id}}

## Symptom

<what a user sees, with the steps that reproduce it>

## Expected behaviour

<what should happen instead>

## Root cause

<why it happens, once known>

## Acceptance criteria

1. WHEN <the steps that failed> THEN the system SHALL <behave as expected>.

## Security considerations

- **<boundary name>**: <what the bug exposes at it, or "none">
`,
  'design.md': `---
type: design
workItem: {{id}}
status: draft
---
# Design: {{id}}

## Overview

<the approach in a paragraph>

## Components

- **<component>**: <its responsibility and interface>

## Security design

<!-- Name each boundary listed under the requirements' Security considerations and say how it is protected. -->

<how each boundary is protected>

## Testing strategy

<what is tested, at which level>
`,
  'testing-plan.md': `---
type: testing-plan
workItem: {{id}}
---
# Testing plan: {{id}}

## What is tested

- <a behaviour>: <the test that proves it>

## What is not tested, and why

- <a gap>: <why it is acceptable>
`,
  'tasks.md': `---
type: tasks
workItem: {{id}}
---
# Tasks: {{id}}

- [ ] <the first step, small enough to finish and tick>
- [ ] <the next step>
`,
  'execution-log.md': `---
type: execution-log
workItem: {{id}}
phase: not-started
---
# Execution log: {{id}}

## Design critic review

<!-- Only when the design-critic-review node is selected for this work item (graph opt-in). -->

## Review cycles

<!-- One row per review round: Type is self, critic or security; Outcome says what it found. -->

| Round | Type | Outcome |
|---|---|---|

## Capability docs

<the user documentation that was updated, or why none was needed>

## Reviewer briefing

<where a reviewer should start, and what deserves the closest look>

## Learnings

<what the next work item should do differently>
`,
};

// Kiro writes no front-matter; its tasks are numbered, nested one level, and name the requirements they serve.
const KIRO: Readonly<Record<string, string>> = {
  'requirements.md': `# Requirements Document

## Introduction

<what this feature is and why it is needed>

## Requirements

### Requirement 1

**User Story:** As a <kind of user>, I want <a capability>, so that <the benefit>

#### Acceptance Criteria

1. WHEN <a situation> THEN the system SHALL <the behaviour that must hold>
`,
  'bugfix.md': `# Bugfix Document

## Current Behavior

<what happens today, with the steps that reproduce it>

## Expected Behavior

<what should happen instead>

## Root Cause

<why it happens, once known>
`,
  'design.md': `# Design Document

## Overview

<the approach in a paragraph>

## Architecture

<the parts and how they fit together>

## Components and Interfaces

<each component and its interface>

## Data Models

<the data this feature reads and writes>

## Error Handling

<what can fail and what happens then>

## Testing Strategy

<what is tested, at which level>
`,
  'tasks.md': `# Implementation Plan

- [ ] 1. <the first step>
  - <what it involves>
  - _Requirements: 1.1_
`,
};

const SPEC_KIT: Readonly<Record<string, string>> = {
  'spec.md': `# Feature Specification: <feature name>

**Feature Branch**: \`{{id}}\`
**Created**: {{date}}
**Status**: Draft

## User Scenarios & Testing *(mandatory)*

### User Story 1 - <brief title> (Priority: P1)

<the user journey in plain language>

**Acceptance Scenarios**:

1. **Given** <an initial state>, **When** <an action>, **Then** <the expected outcome>

## Requirements *(mandatory)*

### Functional Requirements

- **FR-001**: System MUST <a specific capability>

## Success Criteria *(mandatory)*

- **SC-001**: <a measurable outcome>
`,
  'plan.md': `# Implementation Plan: <feature name>

**Branch**: \`{{id}}\` | **Date**: {{date}} | **Spec**: [spec.md](./spec.md)

## Summary

<the primary requirement and the technical approach>

## Technical Context

**Language/Version**: <language and version>
**Primary Dependencies**: <the main libraries>
**Testing**: <how it is tested>

## Constitution Check

<each gate of the constitution and whether this plan passes it>

## Project Structure

<the folders and files this feature adds or changes>
`,
  'tasks.md': `# Tasks: <feature name>

## Phase 1: Setup

- [ ] T001 <the first task, with the file it touches>

## Phase 2: User Story 1 (Priority: P1)

- [ ] T002 [US1] <a task for the story, with the file it touches>
`,
};

const OPENSPEC: Readonly<Record<string, string>> = {
  'proposal.md': `## Why

<the problem or opportunity, in a sentence or two>

## What Changes

- <a change this proposal makes>

## Impact

- Affected specs: <the capabilities this changes>
- Affected code: <the files or systems this touches>
`,
  'design.md': `## Context

<the background and constraints>

## Goals / Non-Goals

- Goals: <what this change achieves>
- Non-Goals: <what it leaves alone>

## Decisions

- Decision: <what was chosen, and why>

## Risks / Trade-offs

- <a risk> → <how it is mitigated>
`,
  'tasks.md': `## 1. Implementation

- [ ] 1.1 <the first task>
- [ ] 1.2 <the next task>
`,
};

/** The templates of each preset, by artifact name. */
export const TEMPLATES: Readonly<Record<PresetName, Readonly<Record<string, string>>>> = {
  'the-loop': THE_LOOP,
  kiro: KIRO,
  'spec-kit': SPEC_KIT,
  openspec: OPENSPEC,
};

/** Where `init` writes the templates and `new` reads them. */
export const TEMPLATES_DIR = '.the-loop/templates';

/** A template with the work item's id and today's date filled in. */
export function fillTemplate(text: string, values: { readonly id: string; readonly date: string }): string {
  return text.replaceAll('{{id}}', values.id).replaceAll('{{date}}', values.date);
}
