export function qwenInstructions(body: any): string;
declare const driver: Record<string, unknown>;
export default driver;
