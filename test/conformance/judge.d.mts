export interface KnownDifference {
  host: string;
  case: string;
  kind: 'open' | 'deliberate';
  reason: string;
  link?: string;
}
export interface LabResult {
  case: string;
  status: 'match' | 'differ' | 'timeout' | 'error';
  egress?: string[];
  [key: string]: unknown;
}
export interface Judged {
  case: string;
  outcome: string;
  pass: boolean;
  problem?: string;
  listed: KnownDifference | null;
  result: Partial<LabResult>;
}
export function judge(
  hostId: string,
  results: LabResult[],
  known: KnownDifference[],
  options?: { partial?: boolean },
): Judged[];
export function summarize(judged: Judged[]): {
  total: number;
  matched: number;
  deliberate: number;
  open: number;
  failed: number;
};
