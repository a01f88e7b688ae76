/**
 * The emulated cloud stage without its HTTP front: storage (DynamoDB Local, tables created from the
 * template), the local AWS endpoint (IAM-checked DynamoDB, Secrets Manager), and one runtime per
 * function of the template. `npm run emulate` puts the HTTP API in front; `npm run invoke` calls
 * one function directly.
 */
import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ResourceInUseException,
  ResourceNotFoundException,
  UpdateTimeToLiveCommand,
} from '@aws-sdk/client-dynamodb';
import { buildSync } from 'esbuild';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startDynamoLocal, type DynamoLocal } from '../dynamodb-local';
import { ESBUILD_TARGET } from '../../runtime';
import { startAwsEndpoint, type AwsEndpoint, type Denial, type DynamoCall, type Identity } from './aws-endpoint';
import { lambdaNode, type LambdaNode } from './lambda-node';
import { ApiGatewayAccount } from './apigw-account';
import { FunctionRuntime, type Outcome } from './runtime';
import { clearValue, resolveDynamicReferences, secretValues } from './secrets';
import { functionIdOfUri, readCloudStage, type CloudStage, type EmulatedFunction, type EmulatedTable } from './template';

/** The account id of every local ARN (DynamoDB Local's own convention). */
export const LOCAL_ACCOUNT = '000000000000';

export interface EmulatorOptions {
  templateFile: string;
  dataDir: string;
  /** The local name of the template's table (TABLE_NAME). */
  tableName: string;
  /** Another DynamoDB instead of starting DynamoDB Local in DATA_DIR. */
  dynamoEndpoint?: string;
  /** Where secret values come from (GW_SECRET, ADMIN_SECRET, ...). */
  env: NodeJS.ProcessEnv;
  region?: string;
  log(line: string): void;
  concurrency?: number;
  /** Hears every DynamoDB call a function makes (infra/local/emulator/aws-endpoint.ts). */
  onDynamoCall?(call: DynamoCall): void;
}

export interface Emulator {
  stage: CloudStage;
  /** Lambda's Node of each runtime in the template. */
  nodes: Map<string, LambdaNode>;
  secrets: Array<{ envName: string; arn: string; value: string }>;
  /** What the gateway adds to every request in CloudFront's place (edge=on), values resolved. */
  edgeHeaders: Record<string, string>;
  dynamoEndpoint: string;
  storage: string;
  denials: Denial[];
  runtimes: Map<string, FunctionRuntime>;
  invoke(functionId: string, event: unknown): Promise<Outcome>;
  /**
   * The data plane (-c dataPlane=on): the account's APIs and domain names as the reconciler left
   * them (the template's data-plane API among them), and the functions its scheduled rules run.
   */
  dataPlane?: NonNullable<CloudStage['dataPlane']> & { account: ApiGatewayAccount };
  stop(): Promise<void>;
}

/** The worker runtime compiled for Lambda's Node (it imports only built-ins), kept by its content's hash. */
let workerFile: string | undefined;
export function workerScript(): string {
  if (workerFile) return workerFile;
  const source = fileURLToPath(new URL('./worker.ts', import.meta.url));
  const { outputFiles } = buildSync({ entryPoints: [source], write: false, format: 'esm', platform: 'node', target: ESBUILD_TARGET, logLevel: 'silent' });
  const code = outputFiles[0]!.contents;
  const file = join(tmpdir(), `gw-emulator-worker-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`);
  if (!existsSync(file)) {
    const partial = `${file}.${process.pid}`;
    writeFileSync(partial, code);
    renameSync(partial, file);
  }
  workerFile = file;
  return file;
}

async function ensureTables(endpoint: string, tables: readonly EmulatedTable[]): Promise<void> {
  const client = new DynamoDBClient({ endpoint, region: 'local', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  try {
    for (const t of tables) {
      try {
        await client.send(new DescribeTableCommand({ TableName: t.name }));
        continue;
      } catch (e) {
        if (!(e instanceof ResourceNotFoundException)) throw e;
      }
      try {
        await client.send(new CreateTableCommand(t.create));
      } catch (e) {
        if (e instanceof ResourceInUseException) continue;
        throw e;
      }
      if (t.ttlAttribute) {
        await client.send(new UpdateTimeToLiveCommand({ TableName: t.name, TimeToLiveSpecification: { AttributeName: t.ttlAttribute, Enabled: true } }));
      }
    }
  } finally {
    client.destroy();
  }
}

/** Lambda's own variables for a function's container, plus where "AWS" is (the only addition). */
export function lambdaVariables(
  f: EmulatedFunction,
  region: string,
  c: { key: string; secret: string; token: string },
  awsEndpoint: string,
): Record<string, string> {
  return {
    AWS_REGION: region,
    AWS_DEFAULT_REGION: region,
    AWS_ACCESS_KEY_ID: c.key,
    AWS_SECRET_ACCESS_KEY: c.secret,
    AWS_SESSION_TOKEN: c.token,
    AWS_LAMBDA_FUNCTION_NAME: f.logicalId,
    AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
    AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(f.memoryMb),
    AWS_LAMBDA_LOG_GROUP_NAME: `/aws/lambda/${f.logicalId}`,
    AWS_LAMBDA_LOG_STREAM_NAME: `local/[$LATEST]${randomUUID().replace(/-/g, '')}`,
    AWS_LAMBDA_INITIALIZATION_TYPE: 'on-demand',
    AWS_EXECUTION_ENV: `AWS_Lambda_${f.runtime}`,
    LAMBDA_TASK_ROOT: f.codeDir ?? '',
    _HANDLER: f.handler,
    TZ: ':UTC',
    LANG: 'en_US.UTF-8',
    PATH: '/usr/local/bin:/usr/bin:/bin',
    AWS_ENDPOINT_URL_DYNAMODB: awsEndpoint,
    AWS_ENDPOINT_URL_SECRETS_MANAGER: awsEndpoint,
    AWS_ENDPOINT_URL_APIGATEWAYV2: awsEndpoint,
    AWS_ENDPOINT_URL_ACM: awsEndpoint,
  };
}

/** The account's API Gateway and ACM: the template's data-plane API and authorizers, the operator's certificates. */
function dataPlaneAccount(stage: CloudStage, region: string, certificateNames: string | undefined): ApiGatewayAccount {
  const account = new ApiGatewayAccount({
    region,
    account: LOCAL_ACCOUNT,
    certificateNames,
    functionOf: (uri) => {
      const id = functionIdOfUri(uri);
      return id && stage.functions.has(id) ? id : undefined;
    },
  });
  account.addTemplateApi(stage.dataPlane!.apiId, stage.dataPlane!.authorizers);
  return account;
}

export async function startEmulator(opts: EmulatorOptions): Promise<Emulator> {
  const region = opts.region ?? 'us-east-1';
  const stage = readCloudStage(opts.templateFile, { region, account: LOCAL_ACCOUNT, tableName: opts.tableName });
  const fns = [...stage.functions.values()];
  const nodes = new Map([...new Set(fns.map((f) => f.runtime))].map((rt) => [rt, lambdaNode(rt)]));
  mkdirSync(opts.dataDir, { recursive: true });

  let dynamo: DynamoLocal | undefined;
  let dynamoEndpoint = opts.dynamoEndpoint;
  if (!dynamoEndpoint) {
    dynamo = await startDynamoLocal(join(opts.dataDir, 'dynamodb'));
    dynamoEndpoint = dynamo.endpoint;
  }
  await ensureTables(dynamoEndpoint, stage.tables);

  const values = secretValues(opts.dataDir, opts.env, stage.secrets);
  // Values CloudFormation would resolve at deploy time (edge=on: ORIGIN_VERIFY), resolved locally.
  for (const f of fns) {
    for (const [k, v] of Object.entries(f.environment)) f.environment[k] = resolveDynamicReferences(v, values);
  }
  const edgeHeaders = Object.fromEntries(Object.entries(stage.edgeHeaders).map(([k, v]) => [k, resolveDynamicReferences(v, values)]));
  // Each function signs with its own fake credentials: the endpoint knows the caller by its key id.
  const credentials = new Map(
    fns.map((f) => [f.logicalId, { key: `LOCAL${f.logicalId}`, secret: randomBytes(20).toString('hex'), token: randomBytes(32).toString('base64') }]),
  );
  const identities = new Map<string, Identity>(
    fns.map((f) => [credentials.get(f.logicalId)!.key, { name: f.name, logicalId: f.logicalId, roleId: f.roleId, statements: f.statements }]),
  );
  const denials: Denial[] = [];
  const dataPlane = stage.dataPlane ? { ...stage.dataPlane, account: dataPlaneAccount(stage, region, opts.env.ACM_CERTIFICATES) } : undefined;
  const endpoint: AwsEndpoint = await startAwsEndpoint({
    ...(dataPlane ? { apigw: dataPlane.account } : {}),
    dynamodbEndpoint: dynamoEndpoint,
    identities,
    ...(opts.onDynamoCall ? { onDynamoCall: opts.onDynamoCall } : {}),
    secrets: new Map(stage.secrets.map((s) => [s.arn, { name: s.logicalId, value: values.get(s.arn)! }])),
    region,
    account: LOCAL_ACCOUNT,
    onDenied: (d) => {
      denials.push(d);
      opts.log(`DENIED ${d.function} ${d.action} on ${d.resource} (${d.reason})`);
    },
  });

  const script = workerScript();
  const lambdaEnvironment = (f: EmulatedFunction) => lambdaVariables(f, region, credentials.get(f.logicalId)!, endpoint.url);
  const runtimes = new Map(
    fns.map((f) => [
      f.logicalId,
      new FunctionRuntime(f, {
        node: nodes.get(f.runtime)!.path,
        workerScript: script,
        lambdaEnvironment,
        functionArn: stage.intrinsics.functionArn(f.logicalId),
        log: opts.log,
        concurrency: opts.concurrency,
      }),
    ]),
  );

  return {
    stage,
    nodes,
    secrets: stage.secrets.map((s) => ({ envName: s.envName, arn: s.arn, value: clearValue(s, values.get(s.arn)!) })),
    edgeHeaders,
    dynamoEndpoint,
    storage: dynamo ? `DynamoDB Local at ${dynamoEndpoint} (${join(opts.dataDir, 'dynamodb')})` : dynamoEndpoint,
    denials,
    runtimes,
    invoke: (functionId, event) => runtimes.get(functionId)!.invoke(event),
    ...(dataPlane ? { dataPlane } : {}),
    async stop() {
      for (const r of runtimes.values()) r.stop();
      await endpoint.close();
      await dynamo?.stop();
    },
  };
}
