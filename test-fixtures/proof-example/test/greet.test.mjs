import assert from 'node:assert/strict';
import { test } from 'node:test';
import { greet } from '../src/greet.mjs';

test('greets a person by name', () => assert.equal(greet('Ann'), 'Hello, Ann!'));
test('greets the world when no name is given', () => {
  assert.equal(greet(), 'Hello, world!');
  assert.equal(greet('   '), 'Hello, world!');
});
