/** Types of scripts/doc-lists.mjs (used by scripts/generate.mjs and test/doc-lists.test.ts). */
export interface DocListHost {
  readonly id: string;
  readonly title: string;
  readonly verified: { readonly package: string } | null;
  readonly presets: readonly { readonly name: string; readonly summary: string }[];
  readonly formats?: readonly { readonly name: string }[];
  readonly hook?: unknown;
}
export interface DocListSources {
  readonly hosts: readonly DocListHost[];
  readonly formats: readonly string[];
  readonly initHosts: readonly string[];
  readonly commands: readonly string[];
  readonly diagnostics: readonly {
    readonly code: string;
    readonly level: string;
    readonly meaning: string;
    readonly action: string;
  }[];
  readonly config: {
    readonly schema: unknown;
    readonly widening: readonly { readonly keyPath: readonly string[]; readonly reason: string }[];
    readonly passThrough: readonly string[];
  };
}
export declare function docLists(sources: DocListSources): Readonly<Record<string, string>>;
export declare function commandsFromHelp(help: string): string[];
export declare function fillRegions(
  text: string,
  lists: Readonly<Record<string, string>>,
  file: string,
): string;
export declare function regionNames(text: string): string[];
export declare function docPages(repo: string): string[];
export declare function configTable(
  schema: unknown,
  widening: DocListSources['config']['widening'],
  passThrough: readonly string[],
): string;
