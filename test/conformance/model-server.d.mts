export declare const FINAL_TEXT: string;
export declare function startModelServer(options?: {
  plan?: (request: { api: string; body: any; record: any }) => any;
  timeoutMs?: number;
}): Promise<{ port: number; requests: any[]; close(): Promise<void> }>;
