// Unit tests of the conformance lab's pure pieces (docs/conformance.md): the diff, the
// extractors that cut the instruction part out of a recorded request, the egress check on an
// strace trace, and the judging against known differences. The lab itself runs the real agent
// CLIs and is `npm run conformance`, not part of this suite.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { minimalDiff } from './conformance/diff.mjs';
import { outsideConnects } from './conformance/egress.mjs';
import {
  claudeInstructions,
  codexInstructions,
  geminiContextIntro,
  geminiInstructions,
  geminiWholeForm,
  opencodeInstructions,
} from './conformance/extract.mjs';
import claudeCode from './conformance/hosts/claude-code.mjs';
import codex from './conformance/hosts/codex.mjs';
import { startModelServer } from './conformance/model-server.mjs';
import { copilotInstructions } from './conformance/hosts/copilot.mjs';
import continueHost, { continueInstructions } from './conformance/hosts/continue.mjs';
import { qwenInstructions } from './conformance/hosts/qwen-code.mjs';
import { judge, summarize } from './conformance/judge.mjs';
import { COUNT_ROWS, TEXT, judgeCount } from './conformance/count-rows.mjs';

describe('minimalDiff', () => {
  it('is empty for equal texts', () => {
    expect(minimalDiff('a\nb', 'a\nb')).toBe('');
  });

  it('shows only the differing lines, with context, and makes invisible characters visible', () => {
    const diff = minimalDiff('1\n2\n3\nsame\n4\n5\n6', '1\n2\n3\n\ufeffsame\r\n4\n5\n6');
    expect(diff).toBe(
      [
        '@@ line 4 (- ctxfiles, + host)',
        '  2',
        '  3',
        '- same',
        '+ <BOM>same\\r',
        '  4',
        '  5',
        '(the line differs from character 1: ctxfiles "same", host "<BOM>same\\\\r")',
      ].join('\n'),
    );
  });

  it('reports a missing final newline and an empty side', () => {
    expect(minimalDiff('text\n', 'text')).toContain('(final newline: ctxfiles yes, host no)');
    expect(minimalDiff('', 'x')).toContain('(empty: ctxfiles)');
  });
});

describe('extractors', () => {
  it('codex: the user part that starts with the AGENTS.md heading', () => {
    const text = '# AGENTS.md instructions for /r\n\n<INSTRUCTIONS>\nx\n</INSTRUCTIONS>';
    const body = {
      input: [
        {
          type: 'message',
          role: 'developer',
          content: [{ type: 'input_text', text: '# AGENTS.md instructions (not this)' }],
        },
        {
          type: 'message',
          role: 'user',
          content: [
            { type: 'input_text', text },
            { type: 'input_text', text: '<environment_context>' },
          ],
        },
      ],
    };
    expect(codexInstructions(body)).toBe(text);
    expect(codexInstructions({ input: [] })).toBe('');
  });

  it('claude-code: the memory reminder of the first user message, without its tags', () => {
    const inner =
      'Codebase and user instructions are shown below. Obey.\n\nContents of /r/CLAUDE.md (project instructions, checked into the codebase):\n\nx';
    const body = {
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: `<system-reminder>\n${inner}\n</system-reminder>` },
            { type: 'text', text: 'hello' },
          ],
        },
      ],
    };
    expect(claudeInstructions(body)).toBe(inner);
    expect(claudeInstructions({ messages: [{ role: 'user', content: 'hello' }] })).toBe('');
  });

  it('gemini: the user blocks of the system instruction, then the project blocks', () => {
    const body = {
      systemInstruction: { parts: [{ text: 'intro\n<loaded_context>\nUSER\n</loaded_context>' }] },
      contents: [
        {
          role: 'user',
          parts: [
            {
              text: '<session_context>\n<loaded_context>\n<project_context>\nPROJECT\n</project_context>\n</loaded_context>',
            },
          ],
        },
      ],
    };
    expect(geminiInstructions(body)).toBe('USER\n\nPROJECT');
    expect(geminiInstructions({ systemInstruction: { parts: [{ text: 'none' }] }, contents: [] })).toBe('');
  });

  it('gemini, the whole form: the system tail from its heading, then the user message wrapper', () => {
    const body = {
      systemInstruction: {
        parts: [
          {
            text: 'rules\n\n# Contextual Instructions (GEMINI.md)\nWhy.\n\nMore.\n\n<loaded_context>\nUSER\n</loaded_context>',
          },
        ],
      },
      contents: [
        {
          role: 'user',
          parts: [
            {
              text: '<session_context>\nDate.\n\n\n<loaded_context>\n<project_context>\nPROJECT\n</project_context>\n</loaded_context>\n</session_context>',
            },
          ],
        },
      ],
    };
    expect(geminiWholeForm(body)).toBe(
      '# Contextual Instructions (GEMINI.md)\nWhy.\n\nMore.\n\n<loaded_context>\nUSER\n</loaded_context>\n\n' +
        '<loaded_context>\n<project_context>\nPROJECT\n</project_context>\n</loaded_context>',
    );
    expect(geminiContextIntro(body)).toBe('Why.\n\nMore.');
    expect(geminiWholeForm({ contents: [] })).toBe('');
  });

  it('opencode: the Instructions from entries up to the skills section', () => {
    const system =
      '</env>\nInstructions from: /a\nA\n\nInstructions from: /b\nB\n\nSkills provide specialized instructions and more';
    const body = {
      messages: [
        { role: 'system', content: system },
        { role: 'user', content: 'hi' },
      ],
    };
    expect(opencodeInstructions(body)).toBe('Instructions from: /a\nA\n\nInstructions from: /b\nB\n');
    expect(opencodeInstructions({ messages: [{ role: 'system', content: 'none' }] })).toBe('');
  });
});

describe('the Claude Code driver', () => {
  it('takes the SessionStart context from the system message, before the host sections that follow', () => {
    const start = 'SessionStart hook additional context: Rules.\n\nKeep <b> as is.';
    const body = {
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Prompt.' }] },
        { role: 'system', content: [{ type: 'text', text: `${start}\n\n# Environment\nLinux` }] },
      ],
    };
    expect(claudeCode.extractHookStart(body)).toBe(start);
    expect(claudeCode.extractHookStart({ messages: [{ role: 'system', content: '# Environment\nx' }] })).toBe(
      '',
    );
    expect(claudeCode.wrapHookStart('Rules.')).toBe('SessionStart hook additional context: Rules.');
  });

  it('with tool search, searches first and calls the MCP tool only when the search named it', () => {
    const mcp = { search: 'instructions for a file' };
    const tools = [
      { name: 'ToolSearch' },
      { name: 'mcp__ctxfiles__instructions_for_path', defer_loading: true },
    ];
    const first = claudeCode.mcpCall({ tools, messages: [] }, '/r/a.js', mcp);
    expect(first).toEqual({ name: 'ToolSearch', args: { query: mcp.search }, id: 'toolu_lab_1' });
    const found = (name: string) => ({
      tools,
      messages: [
        {
          role: 'user',
          content: [{ type: 'tool_result', content: [{ type: 'tool_reference', tool_name: name }] }],
        },
      ],
    });
    expect(claudeCode.mcpCall(found('mcp__ctxfiles__instructions_for_path'), '/r/a.js', mcp)).toEqual({
      name: 'mcp__ctxfiles__instructions_for_path',
      args: { path: '/r/a.js' },
      id: 'toolu_lab_2',
    });
    expect(claudeCode.mcpCall(found('CronCreate'), '/r/a.js', mcp)).toBeNull();
  });

  it('counts the tool results of a request, merged turns included', () => {
    const result = (id: string) => ({ type: 'tool_result', tool_use_id: id, content: 'x' });
    const body = {
      messages: [
        { role: 'user', content: [result('a'), result('b')] },
        { role: 'system', content: 'y' },
      ],
    };
    expect(claudeCode.toolResultCount(body)).toBe(2);
    expect(claudeCode.toolResultCount({ messages: [] })).toBe(0);
  });
});

describe('compaction in the drivers', () => {
  it('Claude Code: the summary request is the one whose last user message opens with its compact prompt', () => {
    const ask = (text: string) => ({
      url: '/v1/messages',
      body: {
        messages: [
          { role: 'user', content: [{ type: 'text', text }] },
          { role: 'system', content: 'PostToolUse:Read hook additional context: x' },
        ],
      },
    });
    expect(
      claudeCode.isCompaction(ask('CRITICAL: Respond with TEXT ONLY. Do NOT call any tools.\n\n- x')),
    ).toBe(true);
    expect(claudeCode.isCompaction(ask('Follow the instructions.'))).toBe(false);
    // After a compaction the SessionStart text sits in the system prompt, before the date line.
    const system =
      "You are powered by the model m.\n\nSessionStart hook additional context: A.\n\nB.\n\nToday's date is 2026-12-03.";
    expect(claudeCode.extractCompactStart({ messages: [{ role: 'system', content: system }] })).toBe(
      'SessionStart hook additional context: A.\n\nB.',
    );
  });

  it('Codex: the summary request ends with its compaction prompt; the start after it is the developer text after the summary', () => {
    const message = (role: string, text: string) => ({
      type: 'message',
      role,
      content: [{ type: 'input_text', text }],
    });
    const prompt = 'You are performing a CONTEXT CHECKPOINT COMPACTION. Create a handoff summary.';
    expect(codex.isCompaction({ body: { input: [message('user', 'Hi.'), message('user', prompt)] } })).toBe(
      true,
    );
    expect(codex.isCompaction({ body: { input: [message('user', prompt), message('user', 'Hi.')] } })).toBe(
      false,
    );
    const after = [
      message('developer', 'Codex.'),
      message('user', 'Summary.'),
      message('developer', 'Start.'),
    ];
    expect(codex.extractCompactStart({ input: after })).toBe('Start.');
    expect(codex.extractHook({ input: after })).toBe('');
  });

  it('Codex: a write row calls the freeform apply_patch tool only when the request offers it', () => {
    const row = { write: 'pkg/new.ts' };
    expect(
      codex.toolCall({ tools: [{ type: 'custom', name: 'apply_patch' }] }, '/r/pkg/new.ts', row),
    ).toEqual({
      name: 'apply_patch',
      custom: true,
      input: '*** Begin Patch\n*** Add File: pkg/new.ts\n+export const added = 1;\n*** End Patch\n',
    });
    expect(
      codex.toolCall({ tools: [{ type: 'function', name: 'exec_command' }] }, '/r/pkg/new.ts', row),
    ).toBeNull();
  });
});

describe('the model server', () => {
  const post = async (port: number, url: string, body: object) => {
    const response = await fetch(`http://127.0.0.1:${port}${url}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return (await response.json()) as any;
  };

  it('reports the usage a step gives, over its own, in each API', async () => {
    const server = await startModelServer({
      plan: () => ({ text: 'Hi.', usage: { input_tokens: 7, promptTokenCount: 9, total_tokens: 11 } }),
    });
    try {
      const anthropic = await post(server.port, '/v1/messages', { stream: false });
      expect(anthropic.usage).toMatchObject({ input_tokens: 7, output_tokens: 2 });
      const responses = await post(server.port, '/v1/responses', { stream: false });
      expect(responses.usage).toMatchObject({ total_tokens: 11, output_tokens: 2 });
      const gemini = await post(server.port, '/v1beta/models/m:generateContent', {});
      expect(gemini.usageMetadata).toMatchObject({ promptTokenCount: 9, candidatesTokenCount: 2 });
    } finally {
      await server.close();
    }
  });

  it('answers a freeform tool call with a custom_tool_call item holding the text input', async () => {
    const server = await startModelServer({
      plan: () => ({
        call: { name: 'apply_patch', custom: true, input: '*** Begin Patch\n*** End Patch\n' },
      }),
    });
    try {
      const answer = await post(server.port, '/v1/responses', { stream: false });
      expect(answer.output).toEqual([
        {
          type: 'custom_tool_call',
          id: 'ctc_lab_1',
          call_id: 'call_lab_1',
          name: 'apply_patch',
          input: '*** Begin Patch\n*** End Patch\n',
          status: 'completed',
        },
      ]);
    } finally {
      await server.close();
    }
  });
});

describe('copilotInstructions', () => {
  it('takes the system message from the first custom_instruction block to the end of the last', () => {
    const system =
      'tools\n\n<custom_instruction>\nA\n\n</custom_instruction>\n\n<custom_instruction>\nB\n</custom_instruction>\n<system_notifications>';
    const body = { messages: [{ role: 'system', content: system }] };
    expect(copilotInstructions(body)).toBe(
      '<custom_instruction>\nA\n\n</custom_instruction>\n\n<custom_instruction>\nB\n</custom_instruction>',
    );
    expect(copilotInstructions({ messages: [{ role: 'system', content: 'none' }] })).toBe('');
  });
});

describe('qwenInstructions', () => {
  const block = (p: string, text: string) =>
    `--- Context from: ${p} ---\n${text}\n--- End of Context from: ${p} ---`;

  it('takes the blocks after the base prompt, without the output-language file and what follows', () => {
    const memory = [
      block('../QWEN.md', 'Root.'),
      block('QWEN.md', 'Here.'),
      block('../home/.qwen/output-language.md', '# Output language preference: auto'),
    ].join('\n\n');
    const system = `Base prompt.\n\n---\n\n${memory}\n\n---\n\n# auto memory\n\nText.`;
    const body = { messages: [{ role: 'system', content: system }] };
    expect(qwenInstructions(body)).toBe(`${block('../QWEN.md', 'Root.')}\n\n${block('QWEN.md', 'Here.')}`);
  });

  it('is empty when only the output-language block or none is there', () => {
    const only = `Base.\n\n---\n\n${block('../home/.qwen/output-language.md', 'x')}\n\n---\n\n# auto memory`;
    expect(qwenInstructions({ messages: [{ role: 'system', content: only }] })).toBe('');
    expect(
      qwenInstructions({ messages: [{ role: 'system', content: 'Base.\n\n---\n\n# auto memory' }] }),
    ).toBe('');
  });
});

describe('continueInstructions', () => {
  it('takes the userRules context section, tags included', () => {
    const system = 'You are an agent.\n\n<context name="userRules">\nUse tabs.\n\n</context>';
    expect(continueInstructions({ messages: [{ role: 'system', content: system }] })).toBe(
      '<context name="userRules">\nUse tabs.\n\n</context>',
    );
    const none = '<context name="gitStatus">clean\n</context>';
    expect(continueInstructions({ messages: [{ role: 'system', content: none }] })).toBe('');
  });
});

describe('Continue CLI MCP tool result', () => {
  const withTool = (content: string) => ({ messages: [{ role: 'tool', content }] });
  it("decodes the JSON of the result's content list Continue CLI hands the model", () => {
    const content = JSON.stringify([
      { type: 'text', text: 'A.\n' },
      { type: 'text', text: 'B.' },
    ]);
    expect(continueHost.extractMcp(withTool(content))).toBe('A.\nB.');
  });
  it('keeps a result that is not that JSON as it is', () => {
    expect(continueHost.extractMcp(withTool('Error: no such tool'))).toBe('Error: no such tool');
  });
  it('calls the tool only when it is listed, by its bare name', () => {
    const listed = { tools: [{ function: { name: 'instructions_for_path' } }] };
    expect(continueHost.mcpCall(listed, 'pkg/a.js')).toEqual({
      name: 'instructions_for_path',
      args: { path: 'pkg/a.js' },
    });
    expect(continueHost.mcpCall({ tools: [] }, 'pkg/a.js')).toBeNull();
  });
});

describe('offline-fetch preload', () => {
  it('fails a fetch to another host at once and lets loopback through', () => {
    const preload = fileURLToPath(new URL('./conformance/hosts/offline-fetch.cjs', import.meta.url));
    const script = [
      "fetch('https://example.invalid/x').then(() => console.log('reached'), (e) => console.log(e.cause.message))",
      ".then(() => fetch('http://127.0.0.1:9/')).then(() => console.log('reached'), (e) => console.log(String(e.cause?.message ?? e).includes('lab:') ? 'blocked' : 'tried'))",
    ].join('');
    const out = execFileSync(process.execPath, ['--require', preload, '-e', script], {
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(out.trim().split('\n')).toEqual(['lab: offline (example.invalid)', 'tried']);
  });
});

describe('outsideConnects', () => {
  it('keeps only connects to addresses off the machine', () => {
    const trace = [
      '12 connect(3, {sa_family=AF_UNIX, sun_path="/run/x"}, 110) = 0',
      '12 connect(20, {sa_family=AF_INET, sin_port=htons(4242), sin_addr=inet_addr("127.0.0.1")}, 16) = 0',
      '13 connect(20, {sa_family=AF_INET, sin_port=htons(53), sin_addr=inet_addr("10.0.0.53")}, 16) = -1 ENETUNREACH',
      '14 connect(21, {sa_family=AF_INET6, sin6_port=htons(443), sin6_flowinfo=htonl(0), inet_pton(AF_INET6, "2001:db8::1", &sin6_addr), sin6_scope_id=0}, 28) = -1',
      '15 connect(22, {sa_family=AF_INET6, sin6_port=htons(80), sin6_flowinfo=htonl(0), inet_pton(AF_INET6, "::1", &sin6_addr), sin6_scope_id=0}, 28) = 0',
    ].join('\n');
    expect(outsideConnects(trace).map((line) => line.split(' ')[0])).toEqual(['13', '14']);
  });
});

describe('judge', () => {
  const known = [
    { host: 'h', case: 'listed-differs', kind: 'open' as const, reason: 'r' },
    { host: 'h', case: 'listed-matches', kind: 'deliberate' as const, reason: 'r' },
    { host: 'h', case: 'gone', kind: 'open' as const, reason: 'r' },
    { host: 'other', case: 'plain-differs', kind: 'open' as const, reason: 'r' },
  ];
  const results = [
    { case: 'plain-match', status: 'match' as const },
    { case: 'plain-differs', status: 'differ' as const },
    { case: 'listed-differs', status: 'differ' as const },
    { case: 'listed-matches', status: 'match' as const },
    { case: 'slow', status: 'timeout' as const },
    { case: 'leaky', status: 'match' as const, egress: ['connect(…10.0.0.1…)'] },
  ];

  it('fails unlisted differences, stale listings, timeouts, egress and listed cases that did not run', () => {
    const judged = judge('h', results, known);
    const verdict = Object.fromEntries(judged.map((item) => [item.case, `${item.outcome}:${item.pass}`]));
    expect(verdict).toEqual({
      'plain-match': 'match:true',
      'plain-differs': 'differ:false',
      'listed-differs': 'open:true',
      'listed-matches': 'match:false',
      slow: 'timeout:false',
      leaky: 'egress:false',
      gone: 'unknown-case:false',
    });
    expect(summarize(judged)).toEqual({ total: 6, matched: 2, deliberate: 0, open: 1, failed: 5 });
  });

  it('does not report listed cases missing from a partial run', () => {
    expect(judge('h', [], known, { partial: true })).toEqual([]);
  });
});

describe('count rows (issue #37)', () => {
  const host = {
    isMain: (record: { url: string }) => record.url === '/main',
    toolResultCount: (body: { results?: number }) => body.results ?? 0,
  };
  const row = COUNT_ROWS.find((candidate) => candidate.id === 'live-count-nested')!;
  const request = (texts: string[], results: number) => ({
    url: '/main',
    body: { messages: texts.map((text) => ({ role: 'user', content: text })), results },
  });

  it('every text is different and in no other: counting one counts its copies', () => {
    const texts = Object.values(TEXT);
    for (const text of texts) expect(texts.filter((other) => other.includes(text))).toEqual([text]);
  });

  it('one copy of each text in the first and the last request matches', () => {
    const attempt = {
      requests: [request([TEXT.root], 0), request([TEXT.root, `x ${TEXT.nested} y`], 2)],
      compactions: [],
    };
    expect(judgeCount(host, row, attempt).status).toBe('match');
  });

  it('two copies, a missing text or a missing read differ, and say so', () => {
    const twice = judgeCount(host, row, {
      requests: [request([TEXT.root, TEXT.root], 0), request([TEXT.root, TEXT.root, TEXT.nested], 2)],
      compactions: [],
    });
    expect(twice.status).toBe('differ');
    expect(twice.actual).toContain(`start: 2 × ${JSON.stringify(TEXT.root)}`);
    const missing = judgeCount(host, row, {
      requests: [request([TEXT.root], 0), request([TEXT.root], 1)],
      compactions: [],
    });
    expect(missing.actual).toContain(`end: 0 × ${JSON.stringify(TEXT.nested)}`);
    expect(missing.actual).toContain('tool results in the last request: 1');
  });

  it('a request the host makes apart from the conversation is not the last one', () => {
    const side = { url: '/main', body: { messages: [{ role: 'system', content: 'memory' }], results: 0 } };
    const attempt = {
      requests: [request([TEXT.root], 0), request([TEXT.root, TEXT.nested], 2), side],
      compactions: [],
    };
    expect(judgeCount(host, row, attempt).status).toBe('differ');
    const withSide = { ...host, isSideRequest: (record: unknown) => record === side };
    expect(judgeCount(withSide, row, attempt).status).toBe('match');
  });
});
