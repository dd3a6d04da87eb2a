/** The lab's host drivers (test/conformance/hosts/*.mjs), as the unit tests see them. */
export declare const HOSTS: ReadonlyArray<{
  readonly id: string;
  readonly label: string;
  readonly preset: string;
  readonly version: string;
  readonly packages: readonly string[];
}>;
