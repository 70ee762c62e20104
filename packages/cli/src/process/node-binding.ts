/**
 * One of Node's internal bindings, for a shortcut past a module that loads far more than the call
 * needs (decisions 191 and 194). Only on the Node majors whose binding was checked: a wrong
 * argument to a binding aborts the process rather than throws. Taken quietly: `process.binding` is
 * deprecated in the documentation and warns under --pending-deprecation. Undefined on other
 * versions and where it is refused (the permission model), and the caller goes the long way.
 */
export function nodeBinding(name: string, majors: readonly string[]): Record<string, unknown> | undefined {
  if (!majors.includes(process.versions.node.split('.')[0] as string)) return undefined;
  const quiet = process.noDeprecation === true;
  process.noDeprecation = true;
  try {
    return (process as unknown as { binding(name: string): Record<string, unknown> }).binding(name);
  } catch {
    return undefined;
  } finally {
    process.noDeprecation = quiet;
  }
}
