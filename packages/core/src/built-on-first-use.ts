/**
 * An object built the first time anything reads it, standing in for what `build` returns in
 * every way a reader can tell: its properties, `in`, its keys and their descriptors, its
 * prototype. `build` runs once.
 *
 * The modules define about 500 valibot schema objects, and a run validates few of them (a warm
 * `check` none): built when the bundle loads, they cost every start-up about a millisecond
 * (decision 196). A module builds its schemas together on first use, and exports each as one of
 * these, so that a schema's own parts stay plain objects however often it validates (a module
 * with one schema builds it in its stand-in).
 */
export function builtOnFirstUse<T extends object>(build: () => T): T {
  return new Proxy(new Deferred(build), STAND_IN) as unknown as T;
}

// What a stand-in defers to. Its state is private, so the proxy's target has no property of its
// own that the built object's would have to agree with.
class Deferred {
  #build: (() => object) | undefined;
  #built: object | undefined;

  constructor(build: () => object) {
    this.#build = build;
  }

  built(): object {
    if (this.#built === undefined) {
      this.#built = (this.#build as () => object)();
      this.#build = undefined;
    }
    return this.#built;
  }
}

// One handler for every stand-in: each makes one object and a proxy, not a set of closures.
const STAND_IN: ProxyHandler<Deferred> = {
  get: (deferred, key) => Reflect.get(deferred.built(), key),
  has: (deferred, key) => Reflect.has(deferred.built(), key),
  ownKeys: (deferred) => Reflect.ownKeys(deferred.built()),
  // A property the stand-in itself lacks may only be described as configurable.
  getOwnPropertyDescriptor: (deferred, key) => {
    const descriptor = Reflect.getOwnPropertyDescriptor(deferred.built(), key);
    return descriptor && { ...descriptor, configurable: true };
  },
  getPrototypeOf: (deferred) => Reflect.getPrototypeOf(deferred.built()),
  set: (deferred, key, value) => Reflect.set(deferred.built(), key, value),
  defineProperty: (deferred, key, descriptor) => Reflect.defineProperty(deferred.built(), key, descriptor),
  deleteProperty: (deferred, key) => Reflect.deleteProperty(deferred.built(), key),
};
