/** A greeting for `name`, or for the world when no name is given. */
export function greet(name) {
  const who = typeof name === 'string' && name.trim() !== '' ? name.trim() : 'world';
  return `Hello, ${who}!`;
}
