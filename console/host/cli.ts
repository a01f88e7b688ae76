/**
 * npm run console:build: builds console/dist. `--if-stale` (npm start and npm run emulate run it
 * first, as their pre-scripts) builds only when console/dist is missing or older than its sources.
 */
import { buildConsole, DIST_DIR } from './build';

try {
  const built = buildConsole(DIST_DIR, { ifStale: process.argv.includes('--if-stale'), log: (l) => console.log(l) });
  if (built) console.log('console built: console/dist (served at /console/)');
} catch (e) {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
}
