import { type Resolver } from '../../src/api/create-resolver.js';
import { createResolver } from '../../src/index.js';
import { parseConfig } from '../../src/index.js';
import type { Flow } from '../../src/config/types.js';
import {
  createMemoryFileSystem,
  type MemoryFileSystem,
  type MemoryFileSystemOptions,
  type MemoryTree,
} from '../../src/fs/memory-file-system.js';

/** The work dir of every in-memory test tree. */
export const WORK = '/w';

/** A resolver over an in-memory tree rooted at {@link WORK}. */
export async function memoryResolver(
  tree: MemoryTree,
  config: unknown = {},
  options: {
    flows?: readonly Flow[];
    env?: Record<string, string>;
    fs?: MemoryFileSystemOptions;
    outside?: MemoryTree;
    workDir?: string;
    homeDir?: string;
  } = {},
): Promise<{ resolver: Resolver; fs: MemoryFileSystem }> {
  const workDir = options.workDir ?? WORK;
  const fs = createMemoryFileSystem({}, { root: workDir, ...options.fs });
  fs.set(workDir, { dir: true });
  for (const [file, spec] of Object.entries(tree)) fs.set(file, spec);
  for (const [file, spec] of Object.entries(options.outside ?? {})) fs.set(file, spec);
  const { config: parsed } = await parseConfig(config);
  const flows = new Map((options.flows ?? []).map((flow) => [flow.id, flow]));
  const resolver = await createResolver({
    workDir,
    config: parsed,
    flows,
    fs,
    env: options.env ?? {},
    homeDir: options.homeDir ?? '/home/u',
  });
  fs.calls.length = 0;
  return { resolver, fs };
}

/** A flow with the given steps. */
export function flow(id: string, steps: Flow['steps']): Flow {
  return { id, file: `/w/flows/${id}.yaml`, steps };
}
