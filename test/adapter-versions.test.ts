import fs from 'node:fs';
import { describe, expect, test } from 'vitest';

// The framework entries run on every Node ctxfiles supports (issue 41): the versions the adapter
// tests install (devDependencies, pinned) and everything they pull in admit Node 20, the docs name
// exactly those versions, and the peer ranges admit them.

interface LockEntry {
  readonly version: string;
  readonly engines?: { readonly node?: string };
  readonly dependencies?: Readonly<Record<string, string>>;
  readonly peerDependencies?: Readonly<Record<string, string>>;
  readonly peerDependenciesMeta?: Readonly<Record<string, { readonly optional?: boolean }>>;
}

const manifest = JSON.parse(fs.readFileSync('package.json', 'utf8')) as {
  engines: { node: string };
  devDependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
};
const lock = JSON.parse(fs.readFileSync('package-lock.json', 'utf8')) as {
  packages: Record<string, LockEntry>;
};

/** Each framework, the package its adapter tests also need, and what docs/embedding.md calls it. */
const FRAMEWORKS = [
  { name: 'ai', also: [], docs: 'AI SDK' },
  { name: '@openai/agents', also: [], docs: '`@openai/agents`' },
  { name: '@langchain/core', also: ['@langchain/langgraph'], docs: '`@langchain/core`' },
] as const;

/** The lock entry npm resolves `name` to from the package at `from` (nearest node_modules first). */
function resolveIn(from: string, name: string): string | undefined {
  for (let dir = from; ; dir = dir.slice(0, Math.max(0, dir.lastIndexOf('/node_modules/')))) {
    const key = `${dir === '' ? '' : `${dir}/`}node_modules/${name}`;
    if (lock.packages[key] !== undefined) return key;
    if (dir === '') return undefined;
  }
}

/** Every lock entry `name` pulls in: dependencies and required peers, transitively. */
function closure(name: string): string[] {
  const seen = new Set<string>();
  const queue = [resolveIn('', name)];
  while (queue.length > 0) {
    const key = queue.pop();
    if (key === undefined || seen.has(key)) continue;
    seen.add(key);
    const entry = lock.packages[key] as LockEntry;
    const peers = Object.keys(entry.peerDependencies ?? {}).filter(
      (peer) => entry.peerDependenciesMeta?.[peer]?.optional !== true,
    );
    for (const dep of [...Object.keys(entry.dependencies ?? {}), ...peers]) queue.push(resolveIn(key, dep));
  }
  return [...seen];
}

/** True when a semver range of `engines.node` admits Node `major`.x (enough for these ranges). */
function admitsNode(range: string, major: number): boolean {
  return range.split('||').some((alternative) =>
    alternative
      .replace(/(>=|<=|>|<|=)\s+/g, '$1')
      .trim()
      .split(/\s+/)
      .filter((part) => part !== '' && part !== '*')
      .every((part) => {
        const [, op = '', first] = /^(>=|<=|>|<|\^|~|=)?v?(\d+)/.exec(part) ?? [];
        const n = Number(first);
        if (op === '>=' || op === '>') return n <= major;
        if (op === '<') return n > major;
        if (op === '<=') return n >= major;
        return n === major;
      }),
  );
}

describe('the framework versions the adapters are tested with', () => {
  test('the range check reads the ranges these packages declare', () => {
    expect(admitsNode('>=18', 20)).toBe(true);
    expect(admitsNode('>=22', 20)).toBe(false);
    expect(admitsNode('>=22.0.0', 20)).toBe(false);
    expect(admitsNode('^20.19.0 || >=22.12.0', 20)).toBe(true);
    expect(admitsNode('>=18.17', 20)).toBe(true);
    expect(admitsNode('>= 20', 20)).toBe(true);
    expect(admitsNode('>= 22', 20)).toBe(false);
  });

  test('ctxfiles supports Node 20', () => {
    expect(manifest.engines.node).toBe('>=20');
  });

  test.each(FRAMEWORKS)('$name: pinned, and it and all it pulls in admit Node 20', ({ name, also }) => {
    for (const pkg of [name, ...also]) {
      const pinned = manifest.devDependencies[pkg] as string;
      if (pkg === name) expect(pinned).toMatch(/^\d+\.\d+\.\d+$/);
      const entries = closure(pkg);
      expect(entries.length).toBeGreaterThan(0);
      const refused = entries.filter((key) => {
        const node = lock.packages[key]?.engines?.node;
        return node !== undefined && !admitsNode(node, 20);
      });
      expect(refused.map((key) => `${key} ${lock.packages[key]?.engines?.node}`)).toEqual([]);
    }
  });

  test.each(FRAMEWORKS)(
    '$name: the docs name the tested version and the peer range admits it',
    ({ name, docs }) => {
      const pinned = manifest.devDependencies[name] as string;
      expect(lock.packages[`node_modules/${name}`]?.version).toBe(pinned);
      const embedding = fs.readFileSync('docs/embedding.md', 'utf8');
      if (/^\d+\.\d+\.\d+$/.test(pinned)) expect(embedding).toContain(`${docs} ${pinned}`);
      const [major, minor] = pinned
        .replace(/^[\^~]/, '')
        .split('.')
        .map(Number) as [number, number];
      const peer = manifest.peerDependencies[name] as string;
      const admits = peer.split('||').some((alternative) => {
        const range = alternative.trim();
        if (range.startsWith('^')) {
          const [pm = 0, pn = 0] = range.slice(1).split('.').map(Number);
          return pm === 0 ? major === 0 && minor === pn : major === pm;
        }
        const bounds = /^>=0\.(\d+)\.0 <0\.(\d+)\.0$/.exec(range);
        return bounds !== null && major === 0 && minor >= Number(bounds[1]) && minor < Number(bounds[2]);
      });
      expect(admits).toBe(true);
    },
  );
});
