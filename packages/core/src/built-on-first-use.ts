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
 *
 * `known` are properties the stand-in answers without building: wrapping a schema in another
 * (`v.optional(schema)`) reads its `expects`, and a configuration section that a file leaves out
 * need not be built for that. The built object must agree, or building throws.
 */
export function builtOnFirstUse<T extends object>(build: () => T, known?: Partial<T>): T {
  return new Proxy(new Deferred(build, known), STAND_IN) as unknown as T;
}

// What a stand-in defers to. Its state is private, so the proxy's target has no property of its
// own that the built object's would have to agree with.
class Deferred {
  #build: (() => object) | undefined;
  #built: object | undefined;
  readonly #known: Readonly<Record<PropertyKey, unknown>> | undefined;

  constructor(build: () => object, known: object | undefined) {
    this.#build = build;
    this.#known = known as Readonly<Record<PropertyKey, unknown>> | undefined;
  }

  built(): object {
    if (this.#built === undefined) {
      const built = (this.#build as () => object)();
      for (const [key, value] of Object.entries(this.#known ?? {})) {
        if (!Object.is(Reflect.get(built, key), value)) throw new Error(`a stand-in said its ${key} was ${String(value)}, but what it stands for has ${String(Reflect.get(built, key))}`);
      }
      this.#built = built;
      this.#build = undefined;
    }
    return this.#built;
  }

  get(key: PropertyKey): unknown {
    const known = this.#known;
    return this.#built === undefined && known !== undefined && Object.hasOwn(known, key) ? known[key] : Reflect.get(this.built(), key);
  }
}

// One handler for every stand-in: each makes one object and a proxy, not a set of closures.
const STAND_IN: ProxyHandler<Deferred> = {
  get: (deferred, key) => deferred.get(key),
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
