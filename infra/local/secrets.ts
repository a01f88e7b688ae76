import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomHex } from '../../shared/lib/hashing';

export type SecretName = 'gwSecret' | 'adminSecret' | 'serverSecret';

/** The environment variable of each secret. */
export const SECRET_ENV: Record<SecretName, string> = { gwSecret: 'GW_SECRET', adminSecret: 'ADMIN_SECRET', serverSecret: 'SERVER_SECRET' };

export interface LocalSecret {
  value: string;
  /** environment: set by its variable; kept: read from DATA_DIR; generated: made on this start. */
  source: 'environment' | 'kept' | 'generated';
}

export type LocalSecrets = Record<SecretName, LocalSecret> & { file: string };

/**
 * The local stage's secrets (the two credentials and the service key): from the environment when
 * set, else generated once and kept in DATA_DIR/secrets.json (mode 600), so there is never a
 * built-in constant secret. Values from the environment are never written to the file.
 */
export function localSecrets(dataDir: string, env: NodeJS.ProcessEnv): LocalSecrets {
  const file = join(dataDir, 'secrets.json');
  const kept: Partial<Record<SecretName, string>> = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Partial<Record<SecretName, string>>) : {};
  const pick = (name: SecretName): LocalSecret => {
    const fromEnv = env[SECRET_ENV[name]];
    if (fromEnv) return { value: fromEnv, source: 'environment' };
    const stored = kept[name];
    if (stored) return { value: stored, source: 'kept' };
    return { value: randomHex(name === 'serverSecret' ? 32 : 24), source: 'generated' };
  };
  const secrets = { gwSecret: pick('gwSecret'), adminSecret: pick('adminSecret'), serverSecret: pick('serverSecret'), file };
  const names = Object.keys(SECRET_ENV) as SecretName[];
  if (names.some((n) => secrets[n].source === 'generated')) {
    const next = { ...kept };
    for (const n of names) if (secrets[n].source === 'generated') next[n] = secrets[n].value;
    writeFileSync(file, JSON.stringify(next, null, 2), { mode: 0o600 });
  }
  return secrets;
}
