// Vitest's global setup: the sources generated for the build (scripts/generate-sources.mjs) are not
// committed, so a test run from a fresh clone writes them first, as `npm run build` does.
import { generateSources } from '../../scripts/generate-sources.mjs';

export default async function setup(): Promise<void> {
  await generateSources();
}
