/**
 * What a stored idempotency record gives away to someone holding only the table
 * (docs/developing/choices.md): its request fingerprint is keyed with the service key, so a
 * password in a create body cannot be guessed offline against it, and its sealed reply needs the
 * service key as well as the client's Idempotency-Key, so a guessable key (`1`) does not open it.
 */
import { createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import { ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { openReply } from '../../shared/domain/idempotent-reply';
import { replyKey } from '../../shared/domain/sealed';
import { deriveKey, keyedHash } from '../../shared/domain/service-keys';
import { ddb } from '../../shared/store/db/client';
import { makeApi, rightsFor } from '../support/fixtures';
import { useStage } from '../support/file-stage';
import { SERVER_SECRET } from '../support/table';
import { SECRET_WITHHELD } from '../../shared/domain/idempotent-reply';

const s = useStage();
let orgId: string;
beforeAll(async () => {
  orgId = (await s.tenant()).orgId;
});

/** Test-only Scan of the idempotency records (service code never scans). */
async function records(): Promise<Array<Record<string, any>>> {
  const out = await ddb().send(
    new ScanCommand({ TableName: s.table, ConsistentRead: true, FilterExpression: 'entity = :e', ExpressionAttributeValues: { ':e': 'idempotency' } }),
  );
  return out.Items ?? [];
}

const sha256 = (v: string) => createHash('sha256').update(v).digest('hex');

/** How replies used to be sealed: a key from the Idempotency-Key alone (HKDF, scope as salt). */
function openTheOldWay(sealed: Uint8Array, idempotencyKey: string, scope: string): string | undefined {
  const b = Buffer.from(sealed);
  const [iv, tag, data] = [b.subarray(0, 12), b.subarray(12, 28), b.subarray(28)];
  try {
    const key = Buffer.from(hkdfSync('sha256', idempotencyKey, scope, 'gw-management idempotent reply', 32));
    const d = createDecipheriv('aes-256-gcm', key, iv!);
    d.setAuthTag(tag!);
    return Buffer.concat([d.update(data!), d.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}

describe('idempotency records hold nothing the table alone can open', () => {
  it('the stored fingerprint of POST /admin/users is keyed: an offline guess of the password does not match it', async () => {
    const password = 'correct horse battery';
    const email = `pw-${Date.now()}@x.example`;
    const bodyWith = (pw: string) => JSON.stringify({ org_id: orgId, email_address: email, password: pw });
    const before = new Set((await records()).map((r) => r.PK));
    const r = await s.call('POST', '/admin/users', {
      body: bodyWith(password),
      headers: { 'admin-auth': 'test-admin-secret', 'content-type': 'application/json', 'idempotency-key': 'pw-1' },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const stored = (await records()).filter((x) => !before.has(x.PK));
    expect(stored).toHaveLength(1);
    const record = stored[0]!;
    const hash = record.request_hash as string;

    // The attack: the body is known but for the password; try candidates against the record.
    const candidates = ['password1', 'letmein', 'hunter22', password];
    const oldFormula = (pw: string) => sha256(`/admin/users\n\n${bodyWith(pw)}`);
    expect(candidates.filter((pw) => oldFormula(pw) === hash)).toEqual([]);
    expect(candidates.filter((pw) => sha256(bodyWith(pw)) === hash)).toEqual([]);
    // Only the service key reproduces it (so replays still match).
    const scope = 'POST /admin/users#admin';
    const fingerprintKey = deriveKey(SERVER_SECRET, 'idempotency fingerprint');
    expect(keyedHash(fingerprintKey, scope, '/admin/users', '', bodyWith(password))).toBe(hash);
    expect(keyedHash(deriveKey('another-secret', 'idempotency fingerprint'), scope, '/admin/users', '', bodyWith(password))).not.toBe(hash);
    // Nor does the record name the Idempotency-Key by a plain hash.
    expect(record.PK).not.toContain(sha256(`${scope}\npw-1`));
    expect(JSON.stringify(record)).not.toContain(password);
  });

  it('a reply sealed under Idempotency-Key "1" cannot be opened without the service key', async () => {
    const apiId = await makeApi(s, orgId);
    const before = new Set((await records()).map((r) => r.PK));
    const first = await s.gw('POST', '/gw/keys/create', { org_id: orgId, access_rights: rightsFor(apiId) }, { 'idempotency-key': '1' });
    expect(first.status).toBe(200);
    const clearKey = first.body.key as string;
    const record = (await records()).find((x) => !before.has(x.PK))!;
    expect(record.state).toBe('done');
    const sealed = record.sealed as Uint8Array;
    expect(sealed).toBeInstanceOf(Uint8Array);
    expect(record.parts).toBe(1);
    const scope = 'POST /gw/keys/create#gateway';
    expect(JSON.stringify(record)).not.toContain(clearKey);

    // Knowing (or guessing) the Idempotency-Key is no longer enough...
    expect(openTheOldWay(sealed, '1', scope)).toBeUndefined();
    expect(openReply([sealed], replyKey(deriveKey('guessed-secret', 'idempotent reply'), '1', scope), scope)).toBeUndefined();
    expect(openReply([sealed], replyKey(Buffer.alloc(32), '1', scope), scope)).toBeUndefined();
    // ...the service key and the Idempotency-Key together open it, which is how replays work; the
    // clear key was never kept in it at all (a replay answers it withheld).
    const opened = openReply([sealed], replyKey(deriveKey(SERVER_SECRET, 'idempotent reply'), '1', scope), scope);
    expect(opened).toContain(first.body.key_hash);
    expect(opened).not.toContain(clearKey);
    const replay = await s.gw('POST', '/gw/keys/create', { org_id: orgId, access_rights: rightsFor(apiId) }, { 'idempotency-key': '1' });
    expect(replay.body).toEqual({ ...first.body, key: SECRET_WITHHELD });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
  });
});

describe('a reply larger than one record holds is still kept whole (contract §3)', () => {
  /**
   * A key of about 320 KB (its meta_data), near DynamoDB's 400 KB item limit, which the key result
   * echoes: its reply, sealed as text, used not to fit a record.
   */
  const bigKey = (apiId: string, alias: string) => ({
    org_id: orgId,
    alias,
    access_rights: rightsFor(apiId),
    meta_data: Object.fromEntries(
      Array.from({ length: 1380 }, (_, i) => [`${String(i).padStart(5, '0')}-${randomBytes(72).toString('base64')}`, randomBytes(96).toString('base64')]),
    ),
  });

  it('POST /admin/org/keys of ~320 KB with an Idempotency-Key answers 200 once, and its retry replays the same answer', async () => {
    const apiId = await makeApi(s, orgId);
    const alias = `big-${Date.now()}`;
    const body = bigKey(apiId, alias);
    expect(JSON.stringify(body).length).toBeGreaterThan(320_000);
    const first = await s.admin('POST', '/admin/org/keys', body, { 'idempotency-key': alias });
    expect(first.status, JSON.stringify(first.body).slice(0, 300)).toBe(200);
    const again = await s.admin('POST', '/admin/org/keys', body, { 'idempotency-key': alias });
    expect(again.status, JSON.stringify(again.body).slice(0, 300)).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual({ ...first.body, key_id: SECRET_WITHHELD });
    // One key was created, and its clear id is shown once, in the first answer.
    const keys: unknown[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const page = await ddb().send(
        new ScanCommand({
          TableName: s.table,
          ConsistentRead: true,
          ExclusiveStartKey: start,
          FilterExpression: 'entity = :e AND #s.alias = :a',
          ExpressionAttributeNames: { '#s': 'session' },
          ExpressionAttributeValues: { ':e': 'key', ':a': alias },
        }),
      );
      keys.push(...(page.Items ?? []));
      start = page.LastEvaluatedKey;
    } while (start);
    expect(keys).toHaveLength(1);
    expect((await s.gw('GET', `/gw/keys/${first.body.key_id}`)).body).toMatchObject({ alias, org_id: orgId });
  });
});

describe('a request whose reply could not be kept (contract §3)', () => {
  it('its retry is a 409 saying it already succeeded, and runs nothing', async () => {
    const email = `unkept-${Date.now()}@x.example`;
    const body = { org_id: orgId, email_address: email };
    const before = new Set((await records()).map((r) => r.PK));
    const first = await s.admin('POST', '/admin/users', body, { 'idempotency-key': `unkept-${email}` });
    expect(first.status).toBe(200);
    // What the service writes when keeping the reply failed after the create succeeded.
    const record = (await records()).find((x) => !before.has(x.PK))!;
    await ddb().send(
      new UpdateCommand({
        TableName: s.table,
        Key: { PK: record.PK, SK: record.SK },
        UpdateExpression: 'SET parts = :none REMOVE sealed',
        ExpressionAttributeValues: { ':none': 0 },
      }),
    );
    const again = await s.admin('POST', '/admin/users', body, { 'idempotency-key': `unkept-${email}` });
    expect(again.status).toBe(409);
    expect(JSON.stringify(again.body)).toContain('already succeeded');
    expect(again.headers.get('x-request-id')).toBeTruthy();
    const dash = await s.dash(first.body.Message, 'GET', '/api/users?p=-1');
    expect(dash.body.users.filter((u: { email_address: string }) => u.email_address === email)).toHaveLength(1);
  });
});
