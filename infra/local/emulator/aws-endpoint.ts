/**
 * The AWS the emulated functions reach (AWS_ENDPOINT_URL_DYNAMODB and
 * AWS_ENDPOINT_URL_SECRETS_MANAGER point here, so their cloud code path runs unchanged):
 * - DynamoDB calls are checked against the calling function's policy statements and forwarded to
 *   DynamoDB Local, or answered AccessDeniedException as AWS would;
 * - Secrets Manager's GetSecretValue and DescribeSecret serve the template's secrets by ARN,
 *   checked the same way;
 * - API Gateway v2's calls change the account's APIs and custom domain names
 *   (./apigw-control.ts; AWS_ENDPOINT_URL_APIGATEWAYV2), and ACM's ListCertificates lists its
 *   certificates (AWS_ENDPOINT_URL_ACM), checked the same way.
 * The caller is known by the access key id of its SigV4 `Credential=` scope: each function gets
 * its own fake credentials. Signatures are not verified (nothing here is a security boundary).
 * A transactional write is answered only once DynamoDB Local has committed it, as by `npm start`
 * (../commit-wait.ts).
 */
import { createServer, request, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { commitBarrier, commitWaitEnabled, listOneTable, TRANSACTIONAL_WRITES } from '../commit-wait';
import { controlPlane, servesControlPlane } from './apigw-control';
import type { ApiGatewayAccount } from './apigw-account';
import { dynamodbAuthorizations, evaluate, secretsAuthorizations, type Authorization, type Statement } from './iam';

export interface Identity {
  /** The function's display name (route name). */
  name: string;
  logicalId: string;
  roleId?: string;
  statements: Statement[];
}

export interface Denial {
  function: string;
  action: string;
  resource: string;
  reason: string;
}

export interface AwsEndpointOptions {
  dynamodbEndpoint: string;
  identities: Map<string, Identity>;
  /** Secret ARN -> name and value. */
  secrets: Map<string, { name: string; value: string }>;
  region: string;
  account: string;
  onDenied(d: Denial): void;
  /** API Gateway and ACM of the account (-c dataPlane=on). */
  apigw?: ApiGatewayAccount;
  /** Hears each DynamoDB call forwarded, once answered (the per-route bench replays them in its floor function). */
  onDynamoCall?(call: DynamoCall): void;
}

/** A DynamoDB call as a function sent it: the operation, its JSON body on the wire, and when it was sent and answered. */
export interface DynamoCall {
  logicalId: string;
  operation: string;
  body: string;
  startedMs: number;
  endedMs: number;
  /** DynamoDB's HTTP status: 200, or 400 for a refused call (a failed condition, a cancelled transaction). */
  status: number;
}

export interface AwsEndpoint {
  url: string;
  close(): Promise<void>;
}

function answer(res: ServerResponse, status: number, protocol: '1.0' | '1.1', body: unknown): void {
  res.writeHead(status, { 'content-type': `application/x-amz-json-${protocol}`, 'x-amzn-requestid': randomUUID() });
  res.end(JSON.stringify(body));
}

/** The SigV4 credential scope's access key: what `Credential=` holds up to the first `/`. */
function credentialSpan(authorization: string): [start: number, end: number] | undefined {
  const at = authorization.indexOf('Credential=');
  if (at < 0) return undefined;
  const start = at + 'Credential='.length;
  const end = authorization.indexOf('/', start);
  return end > start ? [start, end] : undefined;
}

function accessKeyOf(headers: IncomingHttpHeaders): string | undefined {
  const auth = headers.authorization ?? '';
  const span = credentialSpan(auth);
  const key = span && auth.slice(...span);
  return key && !/[,\s]/.test(key) ? key : undefined;
}

/** The same authorization signed, as DynamoDB Local sees it, by the one local access key. */
function asLocalCaller(authorization: string): string {
  const span = credentialSpan(authorization);
  return span ? `${authorization.slice(0, span[0])}local${authorization.slice(span[1])}` : authorization;
}

export async function startAwsEndpoint(opts: AwsEndpointOptions): Promise<AwsEndpoint> {
  const upstream = new URL(opts.dynamodbEndpoint);
  // The functions' requests reach DynamoDB Local as the one local caller, in the stage's region.
  const committed = commitBarrier(listOneTable({ endpoint: opts.dynamodbEndpoint, region: opts.region, accessKeyId: 'local' }));
  const waitsForCommit = (operation: string) => commitWaitEnabled() && TRANSACTIONAL_WRITES.has(operation);

  /** The first authorization the caller's policy refuses, reported and answered as AWS does. */
  function refuse(res: ServerResponse, who: Identity, needed: Authorization[], protocol: '1.0' | '1.1', errorType: string): boolean {
    for (const a of needed) {
      const verdict = evaluate(who.statements, a);
      if (verdict === 'allowed') continue;
      // The partition keys name the item kind the function's grant misses.
      const keys = a.leadingKeys?.length ? ` [${a.leadingKeys.join(', ')}]` : '';
      opts.onDenied({ function: who.name, action: a.action, resource: `${a.resource}${keys}`, reason: verdict });
      const because =
        verdict === 'explicit deny' ? 'with an explicit deny in an identity-based policy' : `because no identity-based policy allows the ${a.action} action`;
      answer(res, 400, protocol, {
        __type: errorType,
        Message:
          `User: arn:aws:sts::${opts.account}:assumed-role/${who.roleId ?? 'role'}/${who.logicalId} is not ` +
          `authorized to perform: ${a.action} on resource: ${a.resource} ${because}`,
      });
      return true;
    }
    return false;
  }

  function dynamodb(req: IncomingMessage, res: ServerResponse, body: Buffer, who: Identity, operation: string): void {
    let input: Record<string, any>;
    try {
      input = JSON.parse(body.toString('utf8') || '{}');
    } catch {
      return answer(res, 400, '1.0', { __type: 'com.amazon.coral.service#SerializationException', Message: 'body is not JSON' });
    }
    const tableArn = (t: string) => (t.startsWith('arn:') ? t : `arn:aws:dynamodb:${opts.region}:${opts.account}:table/${t}`);
    if (refuse(res, who, dynamodbAuthorizations(operation, input, tableArn), '1.0', 'com.amazon.coral.service#AccessDeniedException')) return;
    // One database whatever the caller: DynamoDB Local keys its files by access key unless -sharedDb.
    const headers = { ...req.headers, host: upstream.host, authorization: asLocalCaller(req.headers.authorization ?? '') };
    const startedMs = performance.now();
    if (opts.onDynamoCall) {
      const heard = opts.onDynamoCall;
      res.on('finish', () =>
        heard({ logicalId: who.logicalId, operation, body: body.toString('utf8'), startedMs, endedMs: performance.now(), status: res.statusCode }),
      );
    }
    const failed = (e: Error) =>
      answer(res, 500, '1.0', { __type: 'com.amazonaws.dynamodb.v20120810#InternalServerError', Message: `DynamoDB Local: ${e.message}` });
    const out = request({ hostname: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers }, (up) => {
      if (up.statusCode !== 200 || !waitsForCommit(operation)) {
        res.writeHead(up.statusCode ?? 500, up.headers);
        return up.pipe(res);
      }
      const chunks: Buffer[] = [];
      up.on('data', (c: Buffer) => chunks.push(c));
      up.on('error', failed);
      up.on('end', () => {
        committed().then(() => {
          res.writeHead(200, up.headers);
          res.end(Buffer.concat(chunks));
        }, failed);
      });
    });
    out.on('error', failed);
    out.end(body);
  }

  function secretsManager(res: ServerResponse, body: Buffer, who: Identity, operation: string): void {
    let input: { SecretId?: string };
    try {
      input = JSON.parse(body.toString('utf8') || '{}');
    } catch {
      return answer(res, 400, '1.1', { __type: 'InvalidRequestException', Message: 'body is not JSON' });
    }
    const id = String(input.SecretId ?? '');
    // By full ARN, by ARN without its random suffix, or by name, as Secrets Manager finds them.
    const found = [...opts.secrets.entries()].find(([arn, s]) => arn === id || arn.replace(/-[A-Za-z0-9]{6}$/, '') === id || s.name === id);
    const arn = found?.[0] ?? (id.startsWith('arn:') ? id : `arn:aws:secretsmanager:${opts.region}:${opts.account}:secret:${id}`);
    if (refuse(res, who, secretsAuthorizations(operation, arn), '1.1', 'AccessDeniedException')) return;
    if (!found) return answer(res, 400, '1.1', { __type: 'ResourceNotFoundException', Message: "Secrets Manager can't find the specified secret." });
    const [, s] = found;
    if (operation === 'GetSecretValue') {
      return answer(res, 200, '1.1', { ARN: arn, Name: s.name, VersionId: 'local', SecretString: s.value, VersionStages: ['AWSCURRENT'], CreatedDate: 0 });
    }
    if (operation === 'DescribeSecret') return answer(res, 200, '1.1', { ARN: arn, Name: s.name, VersionIdsToStages: { local: ['AWSCURRENT'] } });
    answer(res, 400, '1.1', { __type: 'InvalidRequestException', Message: `${operation} is not served by the local Secrets Manager` });
  }

  /** ACM's ListCertificates (every certificate is ISSUED: the emulator knows no other state). */
  function certificates(res: ServerResponse, who: Identity, account: ApiGatewayAccount): void {
    if (refuse(res, who, [{ action: 'acm:ListCertificates', resource: '*' }], '1.1', 'AccessDeniedException')) return;
    const list = account.certificates.map((c) => ({
      CertificateArn: c.arn,
      DomainName: c.names[0],
      SubjectAlternativeNameSummaries: c.names,
      Status: 'ISSUED',
    }));
    answer(res, 200, '1.1', { CertificateSummaryList: list });
  }

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const target = String(req.headers['x-amz-target'] ?? '');
      const [service, operation = ''] = target.split('.');
      const isDynamo = service === 'DynamoDB_20120810';
      const protocol = isDynamo ? '1.0' : '1.1';
      const who = opts.identities.get(accessKeyOf(req.headers) ?? '');
      if (!who) return answer(res, 400, protocol, { __type: 'UnrecognizedClientException', Message: 'The security token included in the request is invalid.' });
      if (servesControlPlane(req.url ?? '/') && opts.apigw) {
        const allowed = (action: string, resource: string) => {
          const verdict = evaluate(who.statements, { action, resource });
          if (verdict !== 'allowed') opts.onDenied({ function: who.name, action, resource, reason: verdict });
          return verdict === 'allowed';
        };
        const request = {
          method: req.method ?? 'GET',
          url: req.url ?? '/',
          body,
          region: opts.region,
          allowed,
          account: opts.apigw,
        };
        return void controlPlane(request, res);
      }
      if (isDynamo) return dynamodb(req, res, body, who, operation);
      if (service === 'secretsmanager') return secretsManager(res, body, who, operation);
      if (service === 'CertificateManager' && operation === 'ListCertificates' && opts.apigw) return certificates(res, who, opts.apigw);
      answer(res, 400, protocol, { __type: 'UnknownOperationException', Message: `${target || 'this request'} is not served locally` });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
