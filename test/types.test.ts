import { describe, expectTypeOf, test } from 'vitest';
import {
  buildSystemPrompt,
  createResolver,
  loadConfig,
  type Diagnostic,
  type LazyLoadedConfig,
  type LoadedConfig,
  type Resolver,
  type ResolveResult,
  type Session,
  type SystemPrompt,
} from '../src/index.js';

describe('public types', () => {
  test('the main entry points', () => {
    expectTypeOf(createResolver).returns.resolves.toEqualTypeOf<Resolver>();
    expectTypeOf<Resolver['resolve']>().returns.resolves.toEqualTypeOf<ResolveResult>();
    expectTypeOf<Resolver['openSession']>().returns.resolves.toEqualTypeOf<Session>();
    expectTypeOf<Session['afterTool']>().returns.resolves.toBeString();
    expectTypeOf(buildSystemPrompt).returns.resolves.toEqualTypeOf<SystemPrompt>();
  });

  test('loadConfig: eager by default, lazy on request', () => {
    // Wrapped in functions: the type is checked without loading a config at run time.
    expectTypeOf(() => loadConfig({ cwd: '.' })).returns.resolves.toEqualTypeOf<LoadedConfig>();
    expectTypeOf(() =>
      loadConfig({ cwd: '.', lazyFlows: true }),
    ).returns.resolves.toEqualTypeOf<LazyLoadedConfig>();
    expectTypeOf<'flows' extends keyof LazyLoadedConfig ? true : false>().toEqualTypeOf<false>();
  });

  test('results are read-only and carry provenance', () => {
    expectTypeOf<ResolveResult['files'][number]['layer']>().toEqualTypeOf<
      'global' | 'agent' | 'step' | 'user' | 'chain' | 'rules' | 'extra' | 'nested'
    >();
    expectTypeOf<ResolveResult['diagnostics']>().toEqualTypeOf<readonly Diagnostic[]>();
    expectTypeOf<Diagnostic['level']>().toEqualTypeOf<'debug' | 'info' | 'warn'>();
  });
});
