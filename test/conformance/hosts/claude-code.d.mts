declare const driver: {
  extractHookStart(body: any): string;
  wrapHookStart(text: string): string;
  toolResultCount(body: any): number;
  isCompaction(record: any): boolean;
  extractCompactStart(body: any): string;
  mcpCall(
    body: any,
    file: string,
    mcp?: { search?: string },
  ): { name: string; args: object; id?: string } | null;
  [key: string]: unknown;
};
export default driver;
