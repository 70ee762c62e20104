import { describe, expect, it } from 'vitest';
import { workItemForBranch } from './current-work-item.js';

describe('workItemForBranch', () => {
  const known = ['issue-12', 'issue-123', 'issue-123-login', 'login'];
  it('finds the folder a branch is named after', () => {
    expect(workItemForBranch('issue-123', known)).toBe('issue-123');
    expect(workItemForBranch('feat/issue-123-fix-typo', known)).toBe('issue-123');
    expect(workItemForBranch('feat/issue-123-login-retry', known)).toBe('issue-123-login');
    expect(workItemForBranch('issue-12', known)).toBe('issue-12');
    expect(workItemForBranch('user/login', known)).toBe('login');
  });

  it('never lets a shorter id claim a longer number', () => {
    expect(workItemForBranch('feat/issue-1234', known)).toBeUndefined();
    expect(workItemForBranch('main', known)).toBeUndefined();
  });
});
