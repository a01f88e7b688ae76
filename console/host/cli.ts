/** npm run console:build: builds console/dist (the stages build it on their first console request when it is stale). */
import { buildConsole, DIST_DIR } from './build';

try {
  buildConsole(DIST_DIR, { log: (l) => console.log(l) });
  console.log('console built: console/dist (served at /console/)');
} catch (e) {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
}
