import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { formatDoctorGithub } from '../src/doctor/format-ci.js';
import type { DoctorReport } from '../src/doctor/run-doctor.js';
import { cli, spawnBin } from './helpers/cli.js';
import { tempTree } from './helpers/disk.js';

const require = createRequire(import.meta.url);
// CommonJS modules whose default export is the class (and the plugin) itself.
const Ajv = (require('ajv-draft-04') as { default: typeof import('ajv-draft-04').default }).default;
const addFormats = (require('ajv-formats') as { default: typeof import('ajv-formats').default }).default;

/**
 * The official SARIF 2.1.0 JSON Schema (OASIS, sarif-2.1.0-rtm.5), as the devDependency
 * @microsoft/jest-sarif ships it. It is a draft-04 schema, so Ajv's draft-04 class reads it; one of
 * its patterns is not a valid regular expression with the `u` flag, so patterns compile without it.
 */
function sarifValidator() {
  const schema = require('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json') as object;
  const ajv = new Ajv({ strict: false, allErrors: true, unicodeRegExp: false });
  addFormats(ajv);
  return ajv.compile(schema);
}

/** A repository with one error (a misread Cursor rule) and one warning (a dangling path). */
function brokenRepo(): string {
  return tempTree({
    '.git/HEAD': 'ref: refs/heads/main\n',
    '.home/.keep': '',
    'AGENTS.md': '# Repo\n\nRead `docs/100%:old.md` first.\n',
    '.cursor/rules/style.mdc': '---\nalwaysApply: "true"\n---\nStyle.\n',
  });
}

async function doctor(root: string, ...args: string[]) {
  return cli(['doctor', '--host', 'codex', 'cursor', ...args], {
    cwd: root,
    env: { HOME: path.join(root, '.home') },
  });
}

/**
 * One workflow command as GitHub documents it ("Workflow commands for GitHub Actions", setting an
 * error or warning message): `::error file={name},line={line},col={col},title={title}::{message}`,
 * with `%`, CR and LF escaped in the message, and `:` and `,` too in property values.
 */
const ANNOTATION =
  /^::(error|warning) file=([^,:\r\n]+),line=(\d+),col=(\d+),title=([^,:\r\n]+)::([^\r\n]*)$/;

function unescapeData(text: string): string {
  return text
    .replace(/%0D/g, '\r')
    .replace(/%0A/g, '\n')
    .replace(/%3A/g, ':')
    .replace(/%2C/g, ',')
    .replace(/%25/g, '%');
}

describe('ctxfiles doctor for CI', () => {
  test('exit 1 on an error by default, on a warning with --fail-on warn, 0 below the threshold', async () => {
    const root = brokenRepo();
    expect((await doctor(root)).code).toBe(1);
    const warningsOnly = tempTree({
      '.git/HEAD': '',
      '.home/.keep': '',
      'AGENTS.md': 'Read `docs/none.md`.\n',
    });
    expect((await doctor(warningsOnly)).code).toBe(0);
    expect((await doctor(warningsOnly, '--fail-on', 'warn')).code).toBe(1);
    const clean = tempTree({ '.git/HEAD': '', '.home/.keep': '', 'AGENTS.md': '# Fine\n' });
    expect((await doctor(clean, '--fail-on', 'warn')).code).toBe(0);
  });

  test('--format sarif is valid SARIF 2.1.0 against the official schema', async () => {
    const root = brokenRepo();
    const { stdout, code } = await doctor(root, '--format', 'sarif');
    expect(code).toBe(1);
    const log = JSON.parse(stdout) as { runs: { results: { ruleId: string; level: string }[] }[] };
    const validate = sarifValidator();
    expect(validate.errors ?? null).toBeNull();
    expect(validate(log)).toBe(true);
    expect(log.runs[0]?.results.map((result) => `${result.ruleId} ${result.level}`)).toEqual([
      'misread-frontmatter error',
      'dangling-path warning',
    ]);
    expect(stdout).toContain('"uri": "AGENTS.md"');
    // The validator rejects what is not SARIF: the check can fail.
    expect(validate({ ...log, version: '2.0.0' })).toBe(false);
  });

  test('--format github prints one workflow command per finding, escaped as GitHub documents', async () => {
    const root = brokenRepo();
    const { stdout } = await doctor(root, '--format', 'github');
    const lines = stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(line).toMatch(ANNOTATION);
    expect(lines[0]).toBe(
      '::error file=.cursor/rules/style.mdc,line=2,col=1,title=ctxfiles doctor%3A misread-frontmatter::alwaysApply: "true" is a string, not the boolean Cursor reads: the rule is not applied always. Fix: write alwaysApply: true without quotes.',
    );
    const message = ANNOTATION.exec(lines[1] as string)?.[6] ?? '';
    expect(unescapeData(message)).toBe(
      'docs/100%:old.md does not exist (beside this file, at the root, or anywhere in the repository). Fix: fix the path or remove it: a model told to read it wastes a tool call.',
    );
  });

  test('property values escape : and , and data escapes %, CR and LF', () => {
    const report: DoctorReport = {
      root: '/r',
      workDir: '/r',
      hosts: [],
      sites: [],
      placesLeftOut: 0,
      findingsLeftOut: 0,
      errorsLeftOut: false,
      findings: [
        {
          code: 'dangling-path',
          severity: 'warn',
          file: 'a,b:c%.md',
          line: 3,
          column: 7,
          message: '50% done\r\nnext: a, b',
          fix: 'x',
        },
      ],
    };
    expect(formatDoctorGithub(report)).toBe(
      '::warning file=a%2Cb%3Ac%25.md,line=3,col=7,title=ctxfiles doctor%3A dangling-path::50%25 done%0D%0Anext: a, b. Fix: x.\n',
    );
  });

  test('--json and --format together are a usage error; an unknown host too', async () => {
    const root = brokenRepo();
    expect((await doctor(root, '--json', '--format', 'sarif')).code).toBe(2);
    const unknown = await cli(['doctor', '--host', 'vim'], { cwd: root, env: {} });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe(
      'ctxfiles: error: --host vim: not a host; the hosts are opencode, opencode-go, codex, claude-code, cursor, copilot, gemini-cli, continue, qwen-code, kilo, pi, cline\n',
    );
  });

  test('a --path that does not exist is a usage error naming it', async () => {
    const root = brokenRepo();
    const { code, stderr } = await doctor(root, '--path', 'packages/nope');
    expect(code).toBe(2);
    expect(stderr).toBe(`ctxfiles: error: --path packages/nope: no such file or directory under ${root}\n`);
  });

  test('a work dir that does not exist is an error, not a crash', async () => {
    const root = brokenRepo();
    const { code, stderr } = await cli(['doctor', '--cwd', 'nope'], { cwd: root, env: {} });
    expect(code).toBe(1);
    expect(stderr).toBe(`ctxfiles: error: the work dir ${path.join(root, 'nope')} cannot be used (ENOENT)\n`);
  });

  test('ctxfiles help doctor and doctor --help print its usage', async () => {
    const root = brokenRepo();
    for (const argv of [
      ['help', 'doctor'],
      ['doctor', '--help'],
    ]) {
      const { stdout, code } = await cli(argv, { cwd: root, env: {} });
      expect(code).toBe(0);
      expect(stdout).toContain('Usage: ctxfiles doctor [options]');
      expect(stdout).toContain('--fail-on <severity>');
    }
  });
});

test('the built bin runs doctor: annotations on stdout, exit 1 on the error', () => {
  const root = brokenRepo();
  const result = spawnBin(['doctor', '--host', 'codex', 'cursor', '--format', 'github'], {
    cwd: root,
    env: { HOME: path.join(root, '.home') },
  });
  expect(result.stderr).toBe('');
  expect(result.code).toBe(1);
  expect(
    result.stdout
      .trimEnd()
      .split('\n')
      .map((line) => ANNOTATION.exec(line)?.[1]),
  ).toEqual(['error', 'warning']);
});

test('the SARIF schema is the one the devDependency ships', () => {
  const file = require.resolve('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json');
  expect(JSON.parse(fs.readFileSync(file, 'utf8')).title).toBe(
    'Static Analysis Results Format (SARIF) Version 2.1.0-rtm.5 JSON Schema',
  );
});
