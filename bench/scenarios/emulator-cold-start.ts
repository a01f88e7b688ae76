import { lambdaNode } from '../../infra/local/emulator/lambda-node';
import { FunctionRuntime } from '../../infra/local/emulator/runtime';
import { lambdaVariables, LOCAL_ACCOUNT, workerScript } from '../../infra/local/emulator/stage';
import { DEFAULT_ASSEMBLY, isFresh, synthesize, templateOf } from '../../infra/local/emulator/synth';
import { readCloudStage, type EmulatedFunction } from '../../infra/local/emulator/template';
import { LAMBDA_RUNTIME } from '../../infra/runtime';
import { functionAsset, SDK_ONLY_SOURCE } from '../lib/function-asset';
import { median, round, type Row } from '../lib/stats';

/**
 * Cold starts as Lambda pays them, in the emulator: INIT duration (worker process start on
 * Lambda's Node to handler ready) of every function of the synthesized stack, beside a function
 * that only builds the SDK's document client, as ratios. Each function's container is started
 * and stopped `runs` times, each time paired with an SDK-only start (alternating which goes
 * first), so load on a shared machine hits both alike; a function's ratio is the median of its
 * pairs. INIT is wall time, as Lambda reports it; the CPU time the worker spent until ready is
 * compared too, since it barely moves with other processes' load. Synthesizes cdk.out first when
 * it is stale.
 */
export async function emulatorColdStart(runs = 5): Promise<Row[]> {
  if (!isFresh(DEFAULT_ASSEMBLY)) await synthesize(DEFAULT_ASSEMBLY, { output: () => undefined });
  const stage = readCloudStage(templateOf(DEFAULT_ASSEMBLY), { region: 'us-east-1', account: LOCAL_ACCOUNT, tableName: 'bench' });

  // The baseline: the same bundling as the stack, in a folder of its own like an asset.
  const assetDir = await functionAsset('sdk-only', SDK_ONLY_SOURCE);
  const baseline: EmulatedFunction = {
    logicalId: 'SdkOnly',
    name: 'sdk-only',
    handler: 'index.handler',
    runtime: LAMBDA_RUNTIME,
    memoryMb: 1024,
    timeoutSeconds: 29,
    codeDir: assetDir,
    environment: {},
    statements: [],
  };

  const node = lambdaNode(LAMBDA_RUNTIME);
  const creds = { key: 'LOCALBENCH', secret: 'bench', token: 'bench' };
  const runtimeOf = (f: EmulatedFunction) =>
    new FunctionRuntime(f, {
      node: node.path,
      workerScript: workerScript(),
      lambdaEnvironment: (fn) => lambdaVariables(fn, 'us-east-1', creds, 'http://127.0.0.1:9'),
      functionArn: `arn:aws:lambda:us-east-1:${LOCAL_ACCOUNT}:function:${f.logicalId}`,
      log: () => undefined,
    });
  const functions = [...stage.functions.values()];
  const base = runtimeOf(baseline);
  const each = functions.map(runtimeOf);
  const failures: string[] = [];
  const ratios = new Map(each.map((r) => [r, [] as number[]]));
  const cpuRatios = new Map(each.map((r) => [r, [] as number[]]));
  for (let i = 0; i < runs; i++) {
    for (const r of each) {
      const pair = i % 2 === 0 ? [base, r] : [r, base];
      const got = new Map<FunctionRuntime, { wall: number; cpu: number }>();
      for (const x of pair) {
        const o = await x.coldStart();
        if (o.ok) got.set(x, { wall: o.initMs!, cpu: o.initCpuMs! });
        else failures.push(`${x.fn.name}: ${o.error.errorType} ${o.error.errorMessage}`);
      }
      const [b, f] = [got.get(base), got.get(r)];
      if (b && f) {
        ratios.get(r)!.push(f.wall / b.wall);
        cpuRatios.get(r)!.push(f.cpu / b.cpu);
      }
    }
  }
  const baseMs = median(base.inits);
  const detail: Record<string, number | string> = {
    node: node.version,
    runtime: LAMBDA_RUNTIME,
    runs,
    sdk_only_init_ms: round(baseMs),
    sdk_only_init_cpu_ms: round(median(base.initCpu)),
  };
  let worst = 0;
  let worstCpu = 0;
  let within = 0;
  for (const r of each) {
    const ratio = median(ratios.get(r)!);
    const cpuRatio = median(cpuRatios.get(r)!);
    detail[`${r.fn.name}_init_ms`] = round(median(r.inits));
    detail[`${r.fn.name}_ratio`] = round(ratio);
    detail[`${r.fn.name}_init_cpu_ms`] = round(median(r.initCpu));
    detail[`${r.fn.name}_cpu_ratio`] = round(cpuRatio);
    worst = Math.max(worst, ratio);
    worstCpu = Math.max(worstCpu, cpuRatio);
    if (ratio <= 1.3) within++;
  }
  detail.functions_within_target = `${within} of ${each.length}`;
  detail.init_failures = failures.join('; ') || 'none';
  return [
    {
      scenario: 'emulator cold start',
      measured: `slowest INIT / SDK-only INIT on ${node.version}, process start to handler ready, median of ${runs} pairs (${each.length} functions)`,
      value: round(worst),
      target: '<= 1.3',
      pass: worst <= 1.3 && failures.length === 0,
      detail,
    },
    {
      scenario: 'emulator cold start',
      measured: `slowest INIT CPU time / SDK-only INIT CPU time, median of ${runs} pairs`,
      value: round(worstCpu),
      target: '<= 1.3',
      pass: worstCpu <= 1.3 && failures.length === 0,
      detail,
    },
  ];
}
