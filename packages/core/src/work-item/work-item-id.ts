/** Why a work-item id was refused, or undefined when it is acceptable. */
export function workItemIdProblem(id: string): string | undefined {
  if (id === '') return 'the work-item id is empty';
  if (id === '.' || id === '..' || /[\\/]/.test(id)) return `"${id}" is not a work-item id: it names a path outside the spec root`;
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(id)) {
    return `"${id}" is not a work-item id: use letters, digits, ".", "_" and "-", starting with a letter or digit`;
  }
  return undefined;
}
