import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { inflateSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import { cli } from './helpers/cli.js';
import { tempTree } from './helpers/disk.js';

/** The system's Chromium (the Debian package), or null: the page test skips only without one. */
const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'].find((file) =>
  fs.existsSync(file),
);

const WIDTH = 1000;
const HEIGHT = 900;

/** A repository with nested places, a dot-directory, a cut file, a dangling path and a hostile name. */
function repository(): string {
  const root = tempTree({
    '.git/HEAD': 'ref: refs/heads/main\n',
    'AGENTS.md': '# Root\n\nRead `docs/missing.md` first.\n',
    'CLAUDE.md': '@AGENTS.md\n',
    'packages/api/AGENTS.md': '# API\n\nUse the client.\n',
    '.github/workflows/AGENTS.md': '# Workflows\n\nPin actions.\n',
    'tests/AGENTS.md': `# Tests\n\n${'Write a test for each change. '.repeat(1300)}\n`,
    '<img src=x onerror=alert(1)>&"q/AGENTS.md': '# Odd\n',
  });
  fs.mkdirSync(path.join(root, '.home'));
  return root;
}

async function page(root: string): Promise<string> {
  const { code, stdout, stderr } = await cli(['doctor', '--html'], {
    cwd: root,
    env: { HOME: path.join(root, '.home') },
  });
  expect(stderr).toBe('');
  expect(code).toBe(1);
  return stdout;
}

/** The RGB(A) bytes of a PNG's image data, filter bytes included (enough to tell a blank page). */
function pngPixels(png: Buffer): { width: number; height: number; data: Buffer } {
  expect(png.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
  const chunks: Buffer[] = [];
  let width = 0;
  let height = 0;
  for (let at = 8; at < png.length;) {
    const length = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    const body = png.subarray(at + 8, at + 8 + length);
    if (type === 'IHDR') [width, height] = [body.readUInt32BE(0), body.readUInt32BE(4)];
    if (type === 'IDAT') chunks.push(body);
    at += 12 + length;
  }
  return { width, height, data: inflateSync(Buffer.concat(chunks)) };
}

describe('doctor --html: the context map', () => {
  test('one self-contained page: no request leaves it, every text escaped, the report embedded as JSON', async () => {
    const html = await page(repository());
    // Nothing to fetch: no script source, no link, no image, no URL of another origin.
    expect(html).not.toMatch(/<script\s+src|<link\b|<img\b|<iframe\b|url\(|https?:\/\//i);
    expect(html).toContain('Content-Security-Policy" content="default-src &#39;none&#39;');
    // The hostile heading is text, and the JSON block cannot be closed by it.
    expect(html).toContain('<code>&#60;img src=x onerror=alert(1)&#62;&#38;&#34;q/AGENTS.md</code>');
    expect(html).not.toContain('<img');
    const json = /<script type="application\/json" id="ctxfiles-doctor-report">([^<]*)<\/script>/.exec(html);
    expect(json).not.toBeNull();
    const report = JSON.parse(json?.[1] ?? '{}') as {
      sites: { path: string; kind: string }[];
      findings: unknown[];
    };
    expect(report.sites.map((site) => `${site.kind} ${site.path}`)).toEqual([
      'workdir .',
      'nested <img src=x onerror=alert(1)>&"q',
      'nested tests',
      'nested .github/workflows',
      'nested packages/api',
    ]);
    // Each place, each host's tokens, and the findings beside their file.
    for (const place of ['.github/workflows', 'packages/api', 'tests'])
      expect(html).toContain(`<code>${place}</code>`);
    expect(html).toMatch(/adds 1 file\(s\), \d+ tokens here/);
    expect(html).toMatch(/<code>tests\/AGENTS.md<\/code><span class="finding error">error over-cap/);
    expect(html).toMatch(/<code>AGENTS.md<\/code><span class="finding warn">warn dangling-path at 3:7/);
  });

  test.skipIf(CHROMIUM === undefined)(
    'opens in headless Chromium: the page renders, the screenshot is not blank',
    async () => {
      const root = repository();
      const file = path.join(root, 'map.html');
      fs.writeFileSync(file, await page(root));
      const shot = path.join(root, 'map.png');
      const result = spawnSync(
        CHROMIUM as string,
        [
          '--headless',
          '--no-sandbox',
          '--disable-gpu',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
          '--no-first-run',
          `--user-data-dir=${path.join(root, '.chromium')}`,
          `--window-size=${WIDTH},${HEIGHT}`,
          `--screenshot=${shot}`,
          `file://${file}`,
        ],
        { encoding: 'utf8', timeout: 60_000 },
      );
      expect(result.status, result.stderr).toBe(0);
      const { width, height, data } = pngPixels(fs.readFileSync(shot));
      expect([width, height]).toEqual([WIDTH, HEIGHT]);
      // A blank page is all white: the map draws text, rules and borders.
      let ink = 0;
      for (const byte of data) if (byte < 200) ink += 1;
      expect(ink / data.length).toBeGreaterThan(0.005);
      // The DOM Chromium built holds the places and the findings as text, not markup from a file.
      const dom = spawnSync(
        CHROMIUM as string,
        [
          '--headless',
          '--no-sandbox',
          '--disable-gpu',
          '--no-first-run',
          `--user-data-dir=${path.join(root, '.chromium')}`,
          '--dump-dom',
          `file://${file}`,
        ],
        { encoding: 'utf8', timeout: 60_000 },
      );
      expect(dom.stdout).toContain('over-cap');
      expect(dom.stdout).not.toMatch(/<img\b/);
      expect(dom.stdout).toContain('&lt;img src=x onerror=alert(1)&gt;');
    },
    120_000,
  );
});
