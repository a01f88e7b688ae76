/**
 * The emulator with a template synthesized with `-c edge=on` (infra/local/emulator): it has no
 * CloudFront, so it reads the origin headers the distribution in front of the served API would
 * add, and resolves the Secrets Manager dynamic references CloudFormation would resolve at deploy
 * time (the header's value and the functions' ORIGIN_VERIFY) to the local secret's value, so
 * requests through its gateway pass the functions' edge check.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveDynamicReferences, secretValues } from '../../infra/local/emulator/secrets';
import { readCloudStage } from '../../infra/local/emulator/template';

const secretRef = (secretId: string) => ({ 'Fn::Join': ['', ['{{resolve:secretsmanager:', { Ref: secretId }, ':SecretString:::}}']] });
const template = {
  Resources: {
    Api: { Type: 'AWS::ApiGatewayV2::Api', Properties: { ProtocolType: 'HTTP' } },
    OriginSecret: { Type: 'AWS::SecretsManager::Secret', Properties: { GenerateSecretString: { PasswordLength: 48 } } },
    Fn: {
      Type: 'AWS::Lambda::Function',
      Properties: { Handler: 'index.handler', Environment: { Variables: { ROUTE_NAME: 'hello', ORIGIN_VERIFY: secretRef('OriginSecret') } } },
    },
    Edge: {
      Type: 'AWS::CloudFront::Distribution',
      Properties: {
        DistributionConfig: {
          Origins: [
            {
              DomainName: { 'Fn::Join': ['', [{ Ref: 'Api' }, '.execute-api.', { Ref: 'AWS::Region' }, '.', { Ref: 'AWS::URLSuffix' }]] },
              OriginCustomHeaders: [{ HeaderName: 'X-Origin-Verify', HeaderValue: secretRef('OriginSecret') }],
            },
          ],
        },
      },
    },
  },
};

describe('an edge=on template in the emulator', () => {
  const dir = mkdtempSync(join(tmpdir(), 'gw-emulator-edge-'));
  const file = join(dir, 'GwManagement-dev.template.json');
  writeFileSync(file, JSON.stringify(template));
  const stage = readCloudStage(file, { region: 'us-east-1', account: '000000000000', tableName: 'gw-test' });

  it("names the origin secret after the variable that takes its value, so ORIGIN_VERIFY sets it as GW_SECRET sets the gateway's", () => {
    expect(stage.secrets.map((s) => s.envName)).toEqual(['ORIGIN_VERIFY']);
  });

  it('finds the headers the distribution adds, and notes that CloudFront itself is not emulated', () => {
    expect(Object.keys(stage.edgeHeaders)).toEqual(['X-Origin-Verify']);
    expect(stage.warnings.some((w) => w.includes('CloudFront distribution Edge'))).toBe(true);
  });

  it("resolves the header and the functions' ORIGIN_VERIFY to one local value", () => {
    const values = secretValues(dir, { ORIGIN_VERIFY: 'local-origin-value' }, stage.secrets);
    expect(resolveDynamicReferences(stage.edgeHeaders['X-Origin-Verify']!, values)).toBe('local-origin-value');
    expect(resolveDynamicReferences(stage.functions.get('Fn')!.environment.ORIGIN_VERIFY!, values)).toBe('local-origin-value');
    expect(resolveDynamicReferences('no reference here', values)).toBe('no reference here');
  });

  it('serves a template without a distribution with no added headers', () => {
    const plain = join(dir, 'plain.template.json');
    const { Edge: _edge, ...rest } = template.Resources;
    writeFileSync(plain, JSON.stringify({ Resources: rest }));
    expect(readCloudStage(plain, { region: 'us-east-1', account: '000000000000', tableName: 'gw-test' }).edgeHeaders).toEqual({});
  });
});
