/** The usage figures as the admin routes answer them (contract §14): JSON, or CSV for a spreadsheet. */
import { addFigures, FIGURE_COLUMNS, figureCells, figuresRow, noFigures, toCsv, type Figures } from '../domain/billing';
import { NotFound } from '../errors';
import { organisationExists } from '../store/organisations';
import { loadMonthFigures, loadOrgMonth } from '../store/usage-figures';

/** This month (UTC) as `YYYY-MM`. */
export const thisMonth = (): string => new Date().toISOString().slice(0, 7);

const sum = (all: readonly Figures[]): Figures => all.reduce((into, f) => addFigures(into, f), noFigures());

/** Every organisation's figures for the month, and their sum. */
export async function installationUsage(month: string) {
  const orgs = await loadMonthFigures(month);
  return {
    month,
    total: figuresRow(sum(orgs.map((o) => o.figures))),
    organisations: orgs.map((o) => ({ org_id: o.org_id, ...figuresRow(o.figures) })),
  };
}

/** The month of every organisation as CSV: one line per organisation. */
export async function installationUsageCsv(month: string): Promise<string> {
  const orgs = await loadMonthFigures(month);
  return toCsv(
    ['month', 'org_id', ...FIGURE_COLUMNS],
    orgs.map((o) => ({ month, org_id: o.org_id, ...figureCells(o.figures) })),
  );
}

/** One organisation's month: its sum, per API, and per day and API; 404 for an organisation that does not exist. */
async function orgRows(orgId: string, month: string) {
  // Side by side: the answer waits for one round trip, not two.
  const [exists, rows] = await Promise.all([organisationExists(orgId), loadOrgMonth(orgId, month)]);
  if (!exists) throw new NotFound(`organisation ${orgId} not found`);
  return rows;
}

export async function organisationUsage(orgId: string, month: string) {
  const days = await orgRows(orgId, month);
  const perApi = new Map<string, Figures>();
  for (const d of days) perApi.set(d.api_id, addFigures(perApi.get(d.api_id) ?? noFigures(), d.figures));
  return {
    org_id: orgId,
    month,
    total: figuresRow(sum(days.map((d) => d.figures))),
    apis: [...perApi].sort(([a], [b]) => (a < b ? -1 : 1)).map(([api_id, f]) => ({ api_id, ...figuresRow(f) })),
    days: days.map((d) => ({ day: d.day, api_id: d.api_id, ...figuresRow(d.figures) })),
  };
}

/** One organisation's month as CSV: one line per day and API. */
export async function organisationUsageCsv(orgId: string, month: string): Promise<string> {
  const days = await orgRows(orgId, month);
  return toCsv(
    ['day', 'api_id', ...FIGURE_COLUMNS],
    days.map((d) => ({ day: d.day, api_id: d.api_id, ...figureCells(d.figures) })),
  );
}
