import { spawnSync } from 'node:child_process';

/** Local, bounded, non-secret facts about the machine, for prompt fragments. */
export interface RuntimeFacts {
  readonly has_ripgrep: string;
  readonly operating_system: string;
  readonly terminal_environment: string;
}

const OS_NAMES: Readonly<Record<string, string>> = {
  linux: 'Linux',
  darwin: 'macOS',
  win32: 'Windows',
  freebsd: 'FreeBSD',
  openbsd: 'OpenBSD',
  sunos: 'SunOS',
  aix: 'AIX',
};

let ripgrep: string | undefined;

/**
 * Whether `rg --version` answers within `timeoutMs` (default 1 s): `available` or `not available`.
 * Probed once per process.
 */
export function probeRipgrep(timeoutMs = 1_000): string {
  if (ripgrep === undefined) {
    const result = spawnSync('rg', ['--version'], { timeout: timeoutMs, stdio: 'ignore', windowsHide: true });
    ripgrep = result.status === 0 ? 'available' : 'not available';
  }
  return ripgrep;
}

/** A friendly name for a Node.js platform id. */
export function operatingSystemName(platform: string): string {
  return OS_NAMES[platform] ?? platform;
}

/**
 * `TERM_PROGRAM`, `TERM` and `COLORTERM` only, each value cut to 64 characters of
 * `[A-Za-z0-9._+-]`; nothing else from the environment is read. `unknown` when none is set.
 */
export function terminalEnvironment(env: Readonly<Record<string, string | undefined>>): string {
  const parts: string[] = [];
  for (const key of ['TERM_PROGRAM', 'TERM', 'COLORTERM']) {
    const value = Object.hasOwn(env, key) ? env[key] : undefined;
    if (typeof value !== 'string') continue;
    const clean = value.replace(/[^A-Za-z0-9._+-]/g, '').slice(0, 64);
    if (clean !== '') parts.push(`${key}=${clean}`);
  }
  return parts.length === 0 ? 'unknown' : parts.join(', ');
}

/** The facts of this machine and environment. */
export function runtimeFacts(
  env: Readonly<Record<string, string | undefined>>,
  platform: string,
): RuntimeFacts {
  return {
    has_ripgrep: probeRipgrep(),
    operating_system: operatingSystemName(platform),
    terminal_environment: terminalEnvironment(env),
  };
}
