/**
 * An object built the first time anything reads it, standing in for what `build` returns in
 * every way a reader can tell: its properties, `in`, its keys and their descriptors, its
 * prototype. `build` runs once.
 *
 * The modules define about 500 valibot schema objects, and a run validates few of them (a warm
 * `check` none): built when the bundle loads, they cost every start-up about a millisecond
 * (decision 196). A module builds its schemas together on first use, and exports each as one of
 * these, so that a schema's own parts stay plain objects however often it validates.
 */
export function builtOnFirstUse<T extends object>(build: () => T): T {
  let built: T | undefined;
  const target = (): T => (built ??= build());
  return new Proxy({} as T, {
    get: (_, key) => Reflect.get(target(), key),
    has: (_, key) => Reflect.has(target(), key),
    ownKeys: () => Reflect.ownKeys(target()),
    // A property the empty stand-in lacks may only be described as configurable.
    getOwnPropertyDescriptor: (_, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(target(), key);
      return descriptor && { ...descriptor, configurable: true };
    },
    getPrototypeOf: () => Reflect.getPrototypeOf(target()),
    set: (_, key, value) => Reflect.set(target(), key, value),
    defineProperty: (_, key, descriptor) => Reflect.defineProperty(target(), key, descriptor),
    deleteProperty: (_, key) => Reflect.deleteProperty(target(), key),
  });
}
