import { Page } from '../components/page';
import { BASE } from '../layout';

export function NotFound() {
  return (
    <Page title="Page not found">
      <p>
        There is no page at this address. <a href={`${BASE}/`}>Go to the start</a>.
      </p>
    </Page>
  );
}
