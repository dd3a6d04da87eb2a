/**
 * The import table of ARCHITECTURE.md, enforced by `npm run lint:deps` (part of `npm test`).
 * Each rule forbids what one module may not import; a wrong import fails with the rule's name
 * and comment. When you add a module, add its row to ARCHITECTURE.md and its rule here.
 */

/** Modules below everything else, importable by every layer. */
const LEAF = ['^src/errors\\.ts$', '^src/diagnostics\\.ts$', '^src/escape-tags\\.ts$', '^src/shared/'];
/** The shared config vocabulary: types, format and mode names, and the one glob compiler. */
const CONFIG_VOCABULARY = [
  '^src/config/types\\.ts$',
  '^src/config/globs\\.ts$',
  '^src/config/glob-match\\.ts$',
];

/** A rule that allows `from` to import only `allowed` (plus itself) among the project's files. */
function only(name, from, allowed, comment) {
  return {
    name,
    comment,
    severity: 'error',
    from: { path: from },
    to: { path: '^src/', pathNot: [from, ...allowed] },
  };
}

module.exports = {
  forbidden: [
    only(
      'errors-is-a-leaf',
      '^src/(errors|diagnostics)\\.ts$',
      LEAF,
      'errors.ts, diagnostics.ts and escape-tags.ts import nothing of the project.',
    ),
    only(
      'shared-is-a-leaf',
      '^src/shared/',
      [],
      'src/shared holds the small helpers several modules need (isPlainObject, deepFreeze, toPosix, ...), each defined once; it imports nothing of the project.',
    ),
    only(
      'fs-is-the-port',
      '^src/fs/',
      LEAF,
      'src/fs (the FileSystem port, containment, the instruction reader) imports only errors and diagnostics.',
    ),
    only(
      'config-vocabulary-is-a-leaf',
      '^src/config/(types|globs|glob-match)\\.ts$',
      [...LEAF, ...CONFIG_VOCABULARY],
      'config/types.ts, config/globs.ts and config/glob-match.ts are shared by the core; they import no other module.',
    ),
    only(
      'registry-is-the-contract',
      '^src/registry/',
      [
        ...LEAF,
        '^src/config/types\\.ts$',
        '^src/render/render-types\\.ts$',
        '^src/imports/import-style\\.ts$',
      ],
      'src/registry: what a host module is (the Host contract) and the lookups over a list of hosts; it imports the config vocabulary, the render types and the import style contract only, and no host.',
    ),
    only(
      'hosts-are-modules',
      '^src/hosts/',
      [
        ...LEAF,
        '^src/config/types\\.ts$',
        '^src/render/(escape|display-path|render-types)\\.ts$',
        '^src/imports/import-style\\.ts$',
        '^src/registry/',
      ],
      'src/hosts: one folder per host (preset and host profile, framing, import style, session frames, hook protocol, own view, settings, verified version, sources) and the registry rows; it imports the host contract, the config vocabulary, the import style contract and the escaping primitives of render only.',
    ),
    {
      name: 'only-the-composition-root-imports-hosts',
      comment:
        'The host registry is built at the composition root (the CLI, and the public API in src/api/lazy-api.ts) and handed down; no engine module imports a host (DESIGN §13).',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/cli/', '^src/api/lazy-api\\.ts$', '^src/hosts/'] },
      to: { path: '^src/hosts/' },
    },
    only(
      'discover-below-resolve',
      '^src/discover/',
      [...LEAF, '^src/fs/', '^src/config/types\\.ts$'],
      'src/discover (walks, labels, nested index) may import fs, errors and config types only.',
    ),
    only(
      'imports-is-core',
      '^src/imports/',
      [...LEAF, '^src/fs/'],
      'src/imports (import expansion) may import fs and errors only.',
    ),
    only(
      'rules-is-pure',
      '^src/rules/',
      [...LEAF, '^src/fs/', '^src/config/types\\.ts$', '^src/config/glob-match\\.ts$', '^src/discover/'],
      'src/rules (the rules engine) may import fs, errors, config types, the bounded glob matcher and discover only.',
    ),
    only(
      'resolve-is-core',
      '^src/resolve/',
      [
        ...LEAF,
        '^src/fs/',
        '^src/config/types\\.ts$',
        '^src/config/glob-match\\.ts$',
        '^src/discover/',
        '^src/imports/',
        '^src/rules/',
      ],
      'src/resolve may import fs, errors, config types, the bounded glob matcher, discover, imports and rules; never config loading, render, session, prompt or api.',
    ),
    only(
      'render-is-pure',
      '^src/render/',
      [...LEAF, '^src/config/types\\.ts$', '^src/fs/contain\\.ts$'],
      'src/render turns data into text: errors, config types and the pure path predicate isInside of fs/contain.ts; a host format comes in through the lookup its context carries. No file access.',
    ),
    only(
      'session-is-core',
      '^src/session/',
      [...LEAF, '^src/fs/', ...CONFIG_VOCABULARY, '^src/discover/', '^src/rules/', '^src/render/'],
      'src/session may import fs, errors, the config vocabulary, discover, rules and render; never resolve, config loading or api.',
    ),
    only(
      'config-loads-through-the-port',
      '^src/config/',
      [...LEAF, '^src/fs/', '^src/registry/'],
      'src/config may import errors, fs (config files are read through the FileSystem port) and the host contract; presets come in through the lookup the caller hands down; nothing above.',
    ),
    only(
      'prompt-is-core',
      '^src/prompt/',
      [
        ...LEAF,
        '^src/fs/',
        '^src/config/types\\.ts$',
        '^src/discover/',
        '^src/render/',
        '^src/session/tool-table\\.ts$',
      ],
      'src/prompt may import fs, errors, config types, discover, render, and the tool table of sessions (tool guidance follows its names).',
    ),
    only(
      'api-wires-the-core',
      '^src/api/',
      [
        ...LEAF,
        '^src/(fs|config|registry|discover|imports|rules|resolve|render|session|prompt)/',
        '^src/hosts/index\\.ts$',
      ],
      'src/api wires the core; it never imports an edge (cli, mcp, hooks). Only lazy-api.ts, the public composition root, imports the host registry (rule only-the-composition-root-imports-hosts).',
    ),
    only(
      'edges-use-the-api',
      '^src/(mcp|hooks)/',
      [...LEAF, '^src/(fs|config|registry|discover|imports|rules|resolve|render|session|prompt|api)/'],
      'src/mcp and src/hooks are edges like the CLI: api, config and the core, never the CLI or each other; the host registry is handed to them.',
    ),
    only(
      'adapters-are-edges',
      '^src/adapters/',
      [...LEAF, '^src/(api|session|prompt)/'],
      'src/adapters (the framework adapters, entries of their own) use sessions and the prompt; nothing imports them, and they import no framework at run time.',
    ),
    only(
      'doctor-uses-the-api',
      '^src/doctor/',
      [...LEAF, '^src/(fs|config|registry|discover|imports|rules|resolve|render|session|prompt|api)/'],
      'src/doctor (ctxfiles doctor) is an edge like the CLI: api and the core, never the CLI, mcp or hooks; the host registry is handed to it.',
    ),
    only(
      'cli-is-the-outer-edge',
      '^src/cli/',
      [
        ...LEAF,
        '^src/(fs|config|registry|hosts|discover|imports|rules|resolve|render|session|prompt|api|mcp|hooks|doctor)/',
      ],
      'src/cli may import everything; it builds the host registry and hands it down. Nothing imports the CLI.',
    ),
    only(
      'index-re-exports-the-api',
      '^src/index\\.ts$',
      [...LEAF, '^src/(fs|config|discover|imports|rules|resolve|render|session|prompt|api)/'],
      'src/index.ts re-exports the documented API (what needs the hosts comes from src/api/lazy-api.ts); it never imports an edge.',
    ),
    {
      name: 'no-node-fs-in-the-core',
      comment:
        'Only the FileSystem port (src/fs) and the edges (cli, mcp, hooks) touch node:fs; everything else reads through the port.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(fs|cli|mcp|hooks)/' },
      to: { dependencyTypes: ['core'], path: '^(node:)?fs(/promises)?$' },
    },
    {
      name: 'no-circular',
      comment:
        'Modules form a tree of imports; a cycle means a concept is split in the wrong place. Type imports count too: a shared type lives in the module that builds it, or below both.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'no-unresolvable',
      comment: 'Every relative import resolves to a file.',
      severity: 'error',
      from: { path: '^src/' },
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '\\.generated\\.ts$' },
    // Packages with an `exports` map (the MCP SDK's subpaths) resolve as Node resolves them.
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
  },
};
