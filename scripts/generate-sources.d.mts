/** Writes the sources generated for the build (scripts/generate-sources.mjs); returns those written. */
export declare function generateSources(): Promise<string[]>;
