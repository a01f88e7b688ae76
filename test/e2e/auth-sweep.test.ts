/**
 * The credential sweep (test/support/credential-sweep.ts) against the source stage; the emulated
 * cloud stage runs the same sweep in test/emulator/stage.test.ts.
 */
import { afterAll, beforeAll } from 'vitest';
import { describeCredentialSweep } from '../support/credential-sweep';
import { startStage, type Stage } from '../support/stage';

let s: Stage;
beforeAll(async () => {
  s = await startStage();
});
afterAll(() => s.close());

describeCredentialSweep('credential sweep over the route table', () => s);
