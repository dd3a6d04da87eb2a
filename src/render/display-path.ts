import path from 'node:path';

/**
 * How `xml` and `reminder` show a path: relative to the work dir when inside it, else absolute
 * with the home directory written as `~`.
 */
export function displayPath(file: string, workDir: string, homeDir: string): string {
  const relative = path.relative(workDir, file);
  if (relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative)) return relative.split(path.sep).join('/');
  if (homeDir !== '' && homeDir !== '/') {
    const fromHome = path.relative(homeDir, file);
    if (fromHome !== '' && !fromHome.startsWith('..') && !path.isAbsolute(fromHome)) return `~/${fromHome.split(path.sep).join('/')}`;
  }
  return file;
}
