import { randomHex } from '../../../shared/lib/hashing';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EmulatedSecret } from './template';

/** GW_SECRET -> gwSecret: the key `npm start` uses in DATA_DIR/secrets.json, so both read one file. */
const fileKey = (envName: string) => envName.toLowerCase().replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());

/**
 * The clear value of each template secret, handled like `npm start`'s: from its environment
 * variable when set, else generated once and kept in DATA_DIR (mode 600). A secret whose template
 * generates a JSON string gets that JSON with the value under its key.
 */
export function secretValues(dataDir: string, env: NodeJS.ProcessEnv, secrets: readonly EmulatedSecret[]): Map<string, string> {
  const file = join(dataDir, 'secrets.json');
  const kept: Record<string, string> = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>) : {};
  const values = new Map<string, string>();
  let changed = false;
  for (const s of secrets) {
    if (s.literal !== undefined) {
      values.set(s.arn, s.literal);
      continue;
    }
    const key = fileKey(s.envName);
    let value = env[s.envName] || kept[key];
    if (!value) {
      value = randomHex(24);
      kept[key] = value;
      changed = true;
    }
    values.set(s.arn, s.jsonTemplate ? JSON.stringify({ ...JSON.parse(s.jsonTemplate.template), [s.jsonTemplate.key]: value }) : value);
  }
  if (changed) writeFileSync(file, JSON.stringify(kept, null, 2), { mode: 0o600 });
  return values;
}

/** The clear value a client sends for a secret (its value, or the generated key of a JSON secret). */
export function clearValue(s: EmulatedSecret, stored: string): string {
  return s.jsonTemplate ? String((JSON.parse(stored) as Record<string, unknown>)[s.jsonTemplate.key]) : stored;
}

/**
 * Secrets Manager dynamic references (`{{resolve:secretsmanager:<arn>:SecretString:::[version]}}`,
 * how CloudFormation hands a secret's value to a function's environment or a CloudFront header)
 * with the local value of that secret (it has one version here); anything else is left as it is.
 */
export function resolveDynamicReferences(text: string, valuesByArn: ReadonlyMap<string, string>): string {
  return text.replace(/\{\{resolve:secretsmanager:([^{}]+?):SecretString:::[A-Za-z0-9-]*\}\}/g, (whole, arn: string) => valuesByArn.get(arn) ?? whole);
}
