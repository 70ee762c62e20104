// Types for the stand-ins' option tables, read by standin.test.ts.
type OptionKind = boolean | 'optional' | 'variadic' | readonly string[];

export declare const OPTIONS: {
  readonly [harness in 'claude' | 'cursor-agent']: {
    readonly short: Readonly<Record<string, string>>;
    readonly long: Readonly<Record<string, OptionKind>>;
    readonly readsStdin: boolean;
  };
};

export declare function main(harness: 'claude' | 'cursor-agent'): void;
