/** Types of bench/five-repositories.mjs (used by test/five-repositories.test.ts). */
export interface RepositoryShape {
  readonly name: string;
  readonly tree: Readonly<Record<string, string>>;
  readonly printed: readonly string[];
  readonly notPrinted: readonly string[];
}
export declare const FIVE_REPOSITORIES: readonly RepositoryShape[];
export declare function writeTree(root: string, tree: Readonly<Record<string, string>>): Promise<void>;
