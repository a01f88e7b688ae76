/**
 * An API's reference, drawn from its OpenAPI document (GET /portal/{orgID}/catalogue/{apiID}/openapi,
 * as `mode=public` shows it). A small renderer of our own rather than a packaged one: the well-kept
 * ones are not among the project's dependencies, and the console's Content-Security-Policy (no inline
 * style, no eval) rules out several of them. Text is rendered as text, never as HTML, so a document
 * cannot put markup on the page. Loaded on first use, apart from the portal's first load.
 */
import { get } from '../api/client';
import { ErrorNotice } from '../components/error-notice';
import { Loading, Page } from '../components/page';
import { useResource } from '../components/use-resource';
import { portalApi } from './client';
import { href, usePortal } from './context';

type Obj = Record<string, unknown>;
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** A local `$ref` (`#/components/schemas/Pet`) followed, up to a few hops so a loop cannot hang the page. */
function deref(doc: Obj, value: unknown, hops = 5): Obj {
  const o = obj(value);
  const ref = str(o.$ref);
  if (!ref.startsWith('#/') || hops === 0) return o;
  const target = ref
    .slice(2)
    .split('/')
    .reduce<unknown>((at, part) => obj(at)[part.replace(/~1/g, '/').replace(/~0/g, '~')], doc);
  return deref(doc, target, hops - 1);
}

/** A schema in one line: its type (of items for arrays), its $ref's name, or its format. */
function schemaText(schema: unknown): string {
  const s = obj(schema);
  if (s.$ref) return str(s.$ref).split('/').pop() ?? '';
  if (s.type === 'array') return `array of ${schemaText(s.items)}`;
  const type = Array.isArray(s.type) ? s.type.join(' | ') : str(s.type);
  return [type || 'object', s.format ? `(${str(s.format)})` : '', Array.isArray(s.enum) ? `one of ${s.enum.join(', ')}` : ''].filter(Boolean).join(' ');
}

function Operation(props: { doc: Obj; path: string; method: string; op: Obj; shared: unknown[] }) {
  const { doc, op } = props;
  const id = `op-${props.method}-${props.path}`.replace(/[^A-Za-z0-9_-]/g, '_');
  const params = [...props.shared, ...(Array.isArray(op.parameters) ? op.parameters : [])].map((p) => deref(doc, p));
  const body = deref(doc, op.requestBody);
  const content = Object.entries(obj(body.content));
  const responses = Object.entries(obj(op.responses));
  return (
    <section class="panel operation" aria-labelledby={id}>
      <h3 id={id}>
        <span class={`method method-${props.method}`}>{props.method.toUpperCase()}</span> <code>{props.path}</code>
        {str(op.summary) && <span class="muted"> {str(op.summary)}</span>}
      </h3>
      {str(op.description) && <p class="prose">{str(op.description)}</p>}
      {params.length > 0 && (
        <table>
          <caption>Parameters</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">In</th>
              <th scope="col">Type</th>
              <th scope="col">Required</th>
              <th scope="col">Description</th>
            </tr>
          </thead>
          <tbody>
            {params.map((p) => (
              <tr key={`${str(p.in)}:${str(p.name)}`}>
                <td>
                  <code>{str(p.name)}</code>
                </td>
                <td>{str(p.in)}</td>
                <td>{schemaText(p.schema)}</td>
                <td>{p.required ? 'yes' : 'no'}</td>
                <td>{str(p.description)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {content.length > 0 && (
        <>
          <h4>Request body{body.required ? ' (required)' : ''}</h4>
          <ul>
            {content.map(([type, media]) => (
              <li key={type}>
                <code>{type}</code>: {schemaText(obj(media).schema)}
              </li>
            ))}
          </ul>
        </>
      )}
      {responses.length > 0 && (
        <>
          <h4>Responses</h4>
          <dl class="facts">
            {responses.map(([code, r]) => (
              <div key={code}>
                <dt>{code}</dt>
                <dd>
                  {str(deref(doc, r).description)}
                  {Object.entries(obj(deref(doc, r).content)).map(([type, media]) => (
                    <span key={type} class="muted">
                      {' '}
                      <code>{type}</code> {schemaText(obj(media).schema)}
                    </span>
                  ))}
                </dd>
              </div>
            ))}
          </dl>
        </>
      )}
    </section>
  );
}

export default function Reference(props: { apiId: string }) {
  const { org, catalogue } = usePortal();
  const doc = useResource(
    async () => obj(await get(portalApi.GET('/portal/{orgID}/catalogue/{apiID}/openapi', { params: { path: { orgID: org, apiID: props.apiId } } }))),
    [props.apiId],
  );
  const entry = catalogue.apis.find((a) => a.api_id === props.apiId);
  const info = obj(doc.data?.info);
  const servers = Array.isArray(doc.data?.servers) ? doc.data.servers.map((s) => str(obj(s).url)).filter(Boolean) : [];
  const paths = Object.entries(obj(doc.data?.paths));
  return (
    <Page title={`${entry?.title ?? (str(info.title) || props.apiId)} reference`}>
      <p>
        <a href={href(org)}>All APIs</a>
      </p>
      <ErrorNotice error={doc.error} />
      {doc.loading && !doc.data && <Loading />}
      {doc.data && (
        <>
          {str(info.description) && <p class="prose">{str(info.description)}</p>}
          <dl class="facts">
            {str(info.version) && (
              <div>
                <dt>Version</dt>
                <dd>{str(info.version)}</dd>
              </div>
            )}
            {servers.length > 0 && (
              <div>
                <dt>Base {servers.length === 1 ? 'address' : 'addresses'}</dt>
                <dd>
                  {servers.map((s) => (
                    <code key={s}>{s} </code>
                  ))}
                </dd>
              </div>
            )}
          </dl>
          <h2>Operations</h2>
          {paths.length === 0 && <p>The document describes no operation yet.</p>}
          {paths.flatMap(([path, item]) => {
            const shared = Array.isArray(obj(item).parameters) ? (obj(item).parameters as unknown[]) : [];
            return METHODS.filter((m) => obj(item)[m]).map((m) => (
              <Operation key={`${m} ${path}`} doc={doc.data!} path={path} method={m} op={obj(obj(item)[m])} shared={shared} />
            ));
          })}
        </>
      )}
    </Page>
  );
}
