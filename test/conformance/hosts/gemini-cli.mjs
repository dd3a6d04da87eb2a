// Gemini CLI: `gemini -p` against the lab's Gemini server (GOOGLE_GEMINI_BASE_URL), with an API
// key auth, a fixed model (no routing call) and usage statistics, telemetry and updates off.
import fs from 'node:fs';
import path from 'node:path';
import { fromMarker, geminiInstructions, paramKey } from '../extract.mjs';

const declarations = (body) => (body?.tools ?? []).flatMap((tool) => tool.functionDeclarations ?? []);

export default {
  id: 'gemini-cli',
  label: 'Gemini CLI',
  preset: 'gemini-cli',
  packages: ['@google/gemini-cli@0.61.0'],
  version: '0.61.0',
  bin: 'node_modules/.bin/gemini',
  names: { doc: 'GEMINI.md', user: '.gemini/GEMINI.md' },
  prepare({ home, port, row, prompt }) {
    const settings = {
      security: { auth: { selectedType: 'gemini-api-key' } },
      privacy: { usageStatisticsEnabled: false },
      telemetry: { enabled: false },
      general: { disableAutoUpdate: true, disableUpdateNag: true },
      ...(row.hostConfig?.['gemini-cli']?.settings ?? {}),
    };
    fs.mkdirSync(path.join(home, '.gemini'), { recursive: true });
    fs.writeFileSync(path.join(home, '.gemini/settings.json'), JSON.stringify(settings, null, 2));
    return {
      args: ['-p', prompt, '-m', 'gemini-2.5-flash'],
      env: {
        GOOGLE_GEMINI_BASE_URL: `http://127.0.0.1:${port}`,
        GEMINI_API_KEY: 'lab-key',
        GEMINI_CLI_TRUST_WORKSPACE: 'true',
        NO_COLOR: '1',
      },
    };
  },
  toolCall(body, file) {
    const read = declarations(body).find((tool) => tool.name === 'read_file');
    if (!read) return null;
    const key = paramKey(read.parametersJsonSchema ?? read.parameters, [
      'file_path',
      'absolute_path',
      'path',
    ]);
    return { name: 'read_file', args: { [key]: file } };
  },
  hasToolResult: (body) =>
    (body?.contents ?? []).some((c) => (c.parts ?? []).some((part) => part.functionResponse)),
  isMain: (record) => record.url.includes(':streamGenerateContent') && declarations(record.body).length > 0,
  extractStatic: (body) => geminiInstructions(body),
  extractLive(body) {
    const responses = (body?.contents ?? []).flatMap((c) =>
      (c.parts ?? []).filter((part) => part.functionResponse),
    );
    const text = responses.map((part) => JSON.stringify(part.functionResponse.response ?? {})).join('\n');
    const outputs = responses
      .map((part) => part.functionResponse.response?.output)
      .filter((out) => typeof out === 'string');
    return fromMarker(outputs.join('\n') || text, '--- Newly Discovered Project Context ---');
  },
  sessionEvent: (file) => ({ tool: 'read_file', input: { file_path: file }, ok: true }),
};
