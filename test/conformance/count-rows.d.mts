export const TEXT: Record<'root' | 'always' | 'nested' | 'twin' | 'alone' | 'rule', string>;
export const COUNT_ROWS: readonly Record<string, any>[];
export function occurrences(text: string, needle: string): number;
export function judgeCount(
  host: any,
  row: any,
  attempt: { requests: any[]; compactions: any[] },
): { part: 'live'; status: 'match' | 'differ'; expected: string; actual: string };
export function initInto(host: any, dirs: any, setup: any, tools: any): Promise<string>;
