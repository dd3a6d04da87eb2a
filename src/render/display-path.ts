import path from 'node:path';
import { isInside } from '../fs/contain.js';

/**
 * How `xml` and `reminder` show a path: relative to the work dir when inside it, else absolute
 * with the home directory written as `~`.
 */
export function displayPath(file: string, workDir: string, homeDir: string): string {
  if (file !== workDir && isInside(workDir, file))
    return path.relative(workDir, file).split(path.sep).join('/');
  if (homeDir !== '' && homeDir !== '/' && file !== homeDir && isInside(homeDir, file))
    return `~/${path.relative(homeDir, file).split(path.sep).join('/')}`;
  return file;
}
