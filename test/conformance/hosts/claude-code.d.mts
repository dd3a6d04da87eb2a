declare const driver: {
  extractHookStart(body: any): string;
  wrapHookStart(text: string): string;
  toolResultCount(body: any): number;
  [key: string]: unknown;
};
export default driver;
