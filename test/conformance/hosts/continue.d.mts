export function continueInstructions(body: any): string;
declare const driver: {
  mcpCall(body: any, file: string): { name: string; args: { path: string } } | null;
  extractMcp(body: any): string;
  [key: string]: unknown;
};
export default driver;
