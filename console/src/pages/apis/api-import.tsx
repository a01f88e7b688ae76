/**
 * Import an OpenAPI document as a new API (POST /api/apis/oas/import): from a file, pasted text or a
 * URL the service fetches, with the import's options. JSON goes as JSON; YAML as application/x-yaml
 * (the service parses it, so the console ships no YAML parser).
 */
import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso/router';
import { api, call, get } from '../../api/client';
import { ServiceError } from '../../api/errors';
import type { Paths } from '../../api/paths';
import { ErrorNotice } from '../../components/error-notice';
import { SubmitButton, useFormAction } from '../../components/form-action';
import { Check, Field } from '../../components/field';
import { flash } from '../../components/flash';
import { Page } from '../../components/page';
import { useResource } from '../../components/use-resource';
import { BASE } from '../../layout';
import { useSession } from '../../session/context';
import { apiIdOf, apiNameOf } from './api-fields';

type ImportQuery = NonNullable<Paths['/api/apis/oas/import']['post']['parameters']['query']>;
type Source = 'file' | 'text' | 'url';

const FORM = 'api-import';
const TEXT_FIELDS: Array<{ name: 'listenPath' | 'upstreamURL' | 'customDomain' | 'templateID'; label: string; hint: string }> = [
  { name: 'listenPath', label: 'Listen path', hint: 'Default: /<title as a slug>/. Listen paths are unique per domain.' },
  { name: 'upstreamURL', label: 'Upstream URL', hint: "Default: the document's first server." },
  { name: 'customDomain', label: 'Custom domain', hint: 'Serve the API on this domain.' },
  { name: 'templateID', label: 'Template', hint: "An OAS template asset's id, merged under the document." },
];
const FLAGS: Array<{ name: 'authentication' | 'allowList' | 'validateRequest' | 'mockResponse'; label: string; hint: string }> = [
  { name: 'authentication', label: 'Authentication', hint: "with the document's security schemes" },
  { name: 'allowList', label: 'Allow list', hint: 'only the operations of the document are served' },
  { name: 'validateRequest', label: 'Validate requests', hint: 'against the operations’ parameters and JSON bodies' },
  { name: 'mockResponse', label: 'Mock responses', hint: 'answer from the examples and schemas' },
];

/**
 * How a document's text is sent: as it is, JSON when it looks like JSON (a .json file, or text
 * starting with `{`), else YAML. The service parses and validates it and names what is wrong.
 */
export const contentTypeOf = (text: string, fileName = ''): 'application/json' | 'application/x-yaml' =>
  /\.json$/i.test(fileName) || /^\s*\{/.test(text) ? 'application/json' : 'application/x-yaml';

export function ApiImport() {
  const { can } = useSession();
  const { route } = useLocation();
  const [source, setSource] = useState<Source>('file');
  const [file, setFile] = useState<File>();
  const [pasted, setPasted] = useState('');
  const [url, setUrl] = useState('');
  const [texts, setTexts] = useState<Record<string, string>>({});
  const [flags, setFlags] = useState<Record<string, boolean>>({});
  const [version, setVersion] = useState({ base_api_id: '', new_version_name: '', base_api_version_name: '', set_default: false });
  const { busy, error, onSubmit } = useFormAction(async () => {
    const query: ImportQuery = {};
    for (const f of TEXT_FIELDS) if (texts[f.name]?.trim()) query[f.name] = texts[f.name]!.trim();
    for (const f of FLAGS) if (flags[f.name]) query[f.name] = 'true';
    if (version.base_api_id) {
      query.base_api_id = version.base_api_id;
      query.new_version_name = version.new_version_name.trim();
      if (version.base_api_version_name.trim()) query.base_api_version_name = version.base_api_version_name.trim();
      if (version.set_default) query.set_default = 'true';
    }
    let reply;
    if (source === 'url') reply = await call(api.POST('/api/apis/oas/import', { params: { query }, body: { url: url.trim() } }));
    else {
      if (source === 'file' && !file) throw new ServiceError(400, undefined, [{ path: 'document', message: 'Choose a file.' }]);
      const text = source === 'file' ? await file!.text() : pasted;
      if (!text.trim()) throw new ServiceError(400, undefined, [{ path: 'document', message: 'The document is empty.' }]);
      const contentType = contentTypeOf(text, source === 'file' ? file!.name : '');
      reply = await call(api.POST('/api/apis/oas/import', { params: { query }, body: text, bodySerializer: (b) => b, headers: { 'Content-Type': contentType } }));
    }
    const { data } = reply;
    flash(`Imported the API ${data.ID}. `);
    route(`${BASE}/apis?${new URLSearchParams({ q: data.ID })}`);
  });
  const apis = useResource(async () => (await get(api.GET('/api/apis', { params: { query: { p: -1, sort: 'name' } } }))).apis, []);

  if (!can('apis', 'write')) {
    return (
      <Page title="Import an API">
        <p>Your permission for APIs is read only: importing is not available to you.</p>
      </Page>
    );
  }

  const shown = ['document', 'url', ...TEXT_FIELDS.map((f) => f.name), 'base_api_id', 'new_version_name', 'base_api_version_name'];
  return (
    <Page title="Import an API">
      <p>
        <a href={`${BASE}/apis`}>All APIs</a>
      </p>
      <ErrorNotice error={error} shownFields={shown} />
      <form onSubmit={onSubmit}>
        <fieldset>
          <legend>OpenAPI document (3.0 or 3.1, JSON or YAML)</legend>
          <div class="choices" role="radiogroup" aria-label="Where the document comes from">
            {(
              [
                ['file', 'From a file'],
                ['text', 'Paste it'],
                ['url', 'From a URL'],
              ] as const
            ).map(([value, label]) => (
              <label key={value} class="check">
                <input type="radio" name="source" value={value} checked={source === value} onChange={() => setSource(value)} /> {label}
              </label>
            ))}
          </div>
          {source === 'file' && (
            <Field form={FORM} name="document" label="Document file" error={error}>
              {(c) => <input {...c} type="file" accept=".json,.yaml,.yml,application/json,application/yaml" onChange={(e) => setFile(e.currentTarget.files?.[0])} />}
            </Field>
          )}
          {source === 'text' && (
            <Field form={FORM} name="document" label="Document" error={error}>
              {(c) => <textarea {...c} rows={14} spellcheck={false} value={pasted} onInput={(e) => setPasted(e.currentTarget.value)} />}
            </Field>
          )}
          {source === 'url' && (
            <Field form={FORM} name="url" label="Document URL" hint="The service fetches it (http or https, public addresses only, 5 MB, 5 s)." error={error}>
              {(c) => <input {...c} type="url" required value={url} onInput={(e) => setUrl(e.currentTarget.value)} />}
            </Field>
          )}
        </fieldset>

        <fieldset>
          <legend>Options</legend>
          {TEXT_FIELDS.map((f) => (
            <Field key={f.name} form={FORM} name={f.name} label={f.label} hint={f.hint} error={error}>
              {(c) => <input {...c} type="text" value={texts[f.name] ?? ''} onInput={(e) => setTexts({ ...texts, [f.name]: e.currentTarget.value })} />}
            </Field>
          ))}
          {FLAGS.map((f) => (
            <Check key={f.name} name={f.name} label={f.label} hint={f.hint} checked={Boolean(flags[f.name])} onChange={(v) => setFlags({ ...flags, [f.name]: v })} />
          ))}
        </fieldset>

        <fieldset>
          <legend>Version of another API (optional)</legend>
          <Field form={FORM} name="base_api_id" label="Base API" error={error}>
            {(c) => (
              <select {...c} value={version.base_api_id} onChange={(e) => setVersion({ ...version, base_api_id: e.currentTarget.value })}>
                <option value="">None: a new API</option>
                {(apis.data ?? []).map((a) => (
                  <option key={apiIdOf(a)} value={apiIdOf(a)}>
                    {apiNameOf(a)} ({apiIdOf(a)})
                  </option>
                ))}
              </select>
            )}
          </Field>
          {version.base_api_id && (
            <>
              <Field form={FORM} name="new_version_name" label="Name of this version" error={error}>
                {(c) => <input {...c} type="text" required value={version.new_version_name} onInput={(e) => setVersion({ ...version, new_version_name: e.currentTarget.value })} />}
              </Field>
              <Field form={FORM} name="base_api_version_name" label="Name of the base's own version" hint="Optional." error={error}>
                {(c) => <input {...c} type="text" value={version.base_api_version_name} onInput={(e) => setVersion({ ...version, base_api_version_name: e.currentTarget.value })} />}
              </Field>
              <Check label="Make this version the default" checked={version.set_default} onChange={(v) => setVersion({ ...version, set_default: v })} />
            </>
          )}
        </fieldset>
        <SubmitButton busy={busy} label="Import" busyLabel="Importing…" />
      </form>
    </Page>
  );
}
