export function outsideConnects(trace: string): string[];
