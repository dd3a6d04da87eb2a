declare const driver: {
  toolCall(body: any, file: string, row?: any): any;
  isCompaction(record: any): boolean;
  extractCompactStart(body: any): string;
  extractHook(body: any): string;
  toolResultCount(body: any): number;
  [key: string]: unknown;
};
export default driver;
