import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomHex } from '../../shared/domain/hashing';

export interface LocalSecrets {
  gwSecret: string;
  adminSecret: string;
  generated: boolean;
}

/**
 * The two deployment secrets of the local stage: from the environment when set, else generated
 * once and kept in DATA_DIR, so there is never a built-in constant secret.
 */
export function localSecrets(dataDir: string, env: NodeJS.ProcessEnv): LocalSecrets {
  const file = join(dataDir, 'secrets.json');
  let kept: Partial<Record<'gwSecret' | 'adminSecret', string>> = {};
  if (existsSync(file)) kept = JSON.parse(readFileSync(file, 'utf8')) as typeof kept;
  const gwSecret = env.GW_SECRET || kept.gwSecret || randomHex(24);
  const adminSecret = env.ADMIN_SECRET || kept.adminSecret || randomHex(24);
  const generated = gwSecret !== kept.gwSecret || adminSecret !== kept.adminSecret;
  if (!env.GW_SECRET || !env.ADMIN_SECRET) {
    writeFileSync(
      file,
      JSON.stringify({ gwSecret: env.GW_SECRET ? kept.gwSecret : gwSecret, adminSecret: env.ADMIN_SECRET ? kept.adminSecret : adminSecret }, null, 2),
      { mode: 0o600 },
    );
  }
  return { gwSecret, adminSecret, generated };
}
