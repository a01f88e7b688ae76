/** The portal's front page: its APIs, each with its plans (their limits and how they are granted) and a link to its reference. */
import { Page } from '../components/page';
import { href, usePortal } from './context';
import { quotaText, rateText } from './format';
import { RequestAccess } from './request-access';

export function CataloguePage() {
  const { org, catalogue } = usePortal();
  return (
    <Page title={catalogue.title}>
      {catalogue.apis.length === 0 && <p>No API is published here yet.</p>}
      {catalogue.apis.map((a) => (
        <section key={a.api_id} class="panel" aria-labelledby={`api-${a.api_id}`}>
          <h2 id={`api-${a.api_id}`}>{a.title}</h2>
          {a.description && <p>{a.description}</p>}
          <p>
            <a href={href(org, `apis/${encodeURIComponent(a.api_id)}`)}>Reference of {a.title}</a>
          </p>
          <h3>Plans</h3>
          <ul class="plans">
            {a.plans.map((p) => (
              <li key={p.id}>
                <h4>{p.name}</h4>
                {p.description && <p>{p.description}</p>}
                <ul>
                  <li>{rateText(p.rate, p.per)}</li>
                  <li>{quotaText(p.quota_max, p.quota_renewal_rate)}</li>
                  <li>{p.approval === 'auto' ? 'Granted at once' : 'Approved by the organisation'}</li>
                </ul>
                <RequestAccess api={a} plan={p} />
              </li>
            ))}
          </ul>
        </section>
      ))}
    </Page>
  );
}
