/**
 * The schemas a file's `spec` must match: the write bodies of the service's OpenAPI document
 * (generated/openapi.json, the copy the typed client was generated from), checked with Ajv on the
 * document's JSON Schema dialect (2020-12), offline.
 */
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { readFileSync } from 'node:fs';
import type { ConfigObject, Json } from './model';
import { isObject } from './model';

const DOC_ID = 'gw-openapi.json';
let ajv: Ajv2020 | undefined;
const compiled = new Map<string, ValidateFunction>();

function validatorFor(component: string): ValidateFunction {
  if (!ajv) {
    const doc = JSON.parse(readFileSync(new URL('./generated/openapi.json', import.meta.url), 'utf8')) as { components: Json };
    // Annotation keywords of OpenAPI (example, discriminator, x-...) are not JSON Schema's: not strict.
    ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema({ $id: DOC_ID, components: doc.components });
  }
  let v = compiled.get(component);
  if (!v) {
    v = ajv.compile({ $ref: `${DOC_ID}#/components/schemas/${component}` });
    compiled.set(component, v);
  }
  return v;
}

/** The component a spec of this object is checked against. */
function componentOf(o: ConfigObject): string {
  switch (o.kind) {
    case 'hook':
      return 'WebhookInput';
    case 'template':
      return 'AssetInput';
    case 'api':
      return isObject(o.spec['x-gw-api-gateway']) ? 'OasWriteDocument' : 'ClassicApiInput';
    case 'policy':
      return 'PolicyInput';
    case 'oauth-client':
      return 'OAuthClientCreate';
  }
}

/** `spec`'s problems against its schema, each with a path inside the file (`spec.a.b[0]`). */
export function schemaProblems(o: ConfigObject, spec: Json): Array<{ path: string; message: string }> {
  const component = componentOf(o);
  const v = validatorFor(component);
  if (v(spec)) return [];
  return (v.errors ?? []).map((e) => {
    const at = e.instancePath
      .split('/')
      .slice(1)
      .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
      .map((p) => (/^\d+$/.test(p) ? `[${p}]` : `.${p}`))
      .join('');
    const extra =
      e.keyword === 'additionalProperties'
        ? ` (${String((e.params as { additionalProperty?: string }).additionalProperty)})`
        : e.keyword === 'enum'
          ? `: ${JSON.stringify((e.params as { allowedValues?: unknown }).allowedValues)}`
          : '';
    return { path: `spec${at}`, message: `${e.message ?? 'invalid'}${extra} (${component})` };
  });
}
