/** Types of bench/package.mjs (used by test/packed-install.test.ts). */
export interface PackedTarball {
  readonly filename: string;
  readonly version: string;
  readonly integrity: string;
  readonly size: number;
  readonly entryCount: number;
  readonly files: readonly { readonly path: string }[];
}
export declare const TARGET_BYTES: number;
export declare function cleanCopy(dest: string): string;
export declare function packPackage(options: {
  readonly from?: string;
  readonly to: string;
  readonly build?: boolean;
}): PackedTarball;
export declare function installTarball(packed: PackedTarball, tarballDir: string, project: string): string;
export declare function measurePackage(options?: { readonly clean?: boolean }): Promise<unknown>;
export declare const mb: (bytes: number) => string;
