/**
 * A Secrets Manager for the rotation tests: GetSecretValue by version stage over the service's
 * JSON protocol (the functions' own SDK client reaches it through AWS_ENDPOINT_URL_SECRETS_MANAGER),
 * and `put`, which stages a new version as `aws secretsmanager put-secret-value` does: the new
 * version AWSCURRENT, the one it replaces AWSPREVIOUS, created "now" by the (possibly fake) clock.
 * It counts the reads of each stage and can be told to fail, like a service outage.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

interface Version {
  id: string;
  value: string;
  createdMs: number;
}

export interface FakeSecretsManager {
  url: string;
  /** Stages a new version AWSCURRENT (its CreatedDate is Date.now()); the old current becomes AWSPREVIOUS. */
  put(arn: string, value: string): void;
  /** GetSecretValue calls answered (or failed), by stage. */
  reads(arn: string): { AWSCURRENT: number; AWSPREVIOUS: number };
  /** While true every call answers a 500 InternalServiceError. */
  failing: boolean;
  close(): Promise<void>;
}

export async function startFakeSecretsManager(): Promise<FakeSecretsManager> {
  const secrets = new Map<string, { current: Version; previous?: Version; reads: { AWSCURRENT: number; AWSPREVIOUS: number } }>();
  let versions = 0;
  const reply = (res: import('node:http').ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/x-amz-json-1.1' });
    res.end(JSON.stringify(body));
  };
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += String(c)));
    req.on('end', () => {
      const operation = String(req.headers['x-amz-target'] ?? '').split('.')[1];
      const input = JSON.parse(raw || '{}') as { SecretId?: string; VersionStage?: 'AWSCURRENT' | 'AWSPREVIOUS' };
      const secret = secrets.get(String(input.SecretId));
      const stage = input.VersionStage ?? 'AWSCURRENT';
      if (operation !== 'GetSecretValue') return reply(res, 400, { __type: 'InvalidRequestException', Message: `${operation} is not served here` });
      if (!secret) return reply(res, 400, { __type: 'ResourceNotFoundException', Message: "Secrets Manager can't find the specified secret." });
      secret.reads[stage]++;
      if (fake.failing) return reply(res, 500, { __type: 'InternalServiceError', Message: 'outage' });
      const v = stage === 'AWSCURRENT' ? secret.current : secret.previous;
      if (!v)
        return reply(res, 400, {
          __type: 'ResourceNotFoundException',
          Message: `Secrets Manager can't find the specified secret value for staging label: ${stage}`,
        });
      reply(res, 200, {
        ARN: input.SecretId,
        Name: input.SecretId,
        VersionId: v.id,
        SecretString: v.value,
        VersionStages: [stage],
        CreatedDate: v.createdMs / 1000,
      });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const fake: FakeSecretsManager = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    failing: false,
    put(arn, value) {
      const v = { id: `v${++versions}`, value, createdMs: Date.now() };
      const s = secrets.get(arn);
      if (s) {
        s.previous = s.current;
        s.current = v;
      } else secrets.set(arn, { current: v, reads: { AWSCURRENT: 0, AWSPREVIOUS: 0 } });
    },
    reads: (arn) => ({ ...secrets.get(arn)!.reads }),
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
  return fake;
}
