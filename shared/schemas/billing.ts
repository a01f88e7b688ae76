/** Usage for billing (contract §14): what the admin routes take and answer. */
import * as z from 'zod';
import { BILLED_REFUSALS } from './value-lists';

/** `2026-11`: a month the figures can be asked for (none before 2000, none past 9999). */
const MONTH_PATTERN = /^(2\d{3}|[3-9]\d{3})-(0[1-9]|1[0-2])$/;

export const usageMonthQuerySchema = /* @__PURE__ */ (() =>
  z.object({
    month: z.string().regex(MONTH_PATTERN, 'must be a month as YYYY-MM').optional().describe('The month, YYYY-MM (UTC); this month when left out'),
    format: z.enum(['json', 'csv']).optional().describe('csv: the same figures as text/csv, one line per row'),
  }))();

const figuresSchema = /* @__PURE__ */ (() => ({
  allowed: z.number().int().describe('Requests the check allowed'),
  refused: z.number().int().describe('Requests the check refused, every reason together (a refused unknown key belongs to no organisation)'),
  refused_by_reason: z.object(Object.fromEntries(BILLED_REFUSALS.map((r) => [r, z.number().int().optional()]))).describe('Refusals per reason'),
}))();
const figures = /* @__PURE__ */ (() => z.object(figuresSchema))();

export const installationUsageSchema = /* @__PURE__ */ (() =>
  z.object({
    month: z.string(),
    total: figures,
    organisations: z.array(z.object({ org_id: z.string(), ...figuresSchema })).describe('Every organisation with a figure this month, by id'),
  }))();

export const organisationUsageSchema = /* @__PURE__ */ (() =>
  z.object({
    org_id: z.string(),
    month: z.string(),
    total: figures,
    apis: z.array(z.object({ api_id: z.string(), ...figuresSchema })).describe('The month per API, by id'),
    days: z.array(z.object({ day: z.string(), api_id: z.string(), ...figuresSchema })).describe('Each day per API, in day order'),
  }))();
