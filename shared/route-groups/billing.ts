/** Usage for billing (admin, contract §14). Part of the route table (shared/routes.ts). */
import * as z from 'zod';
import { route, routeGroup } from '../route-builders';
import type { RouteDef } from '../route-def';
import { installationUsageSchema, organisationUsageSchema, usageMonthQuerySchema } from '../schemas/billing';
import { idSchema } from '../schemas/common';

const FIGURES_RULE =
  'The figures are what the data-plane check decided (every gateway path: POST /gw/sessions/check, the external authorization, ' +
  'the Lambda authorizer): requests allowed, and refused by reason, counted by the change feed from the counter writes of the check, ' +
  'so they trail the check by the delay of the feed (seconds). A refusal of an unknown key belongs to no organisation and is not counted. ' +
  'Days and months are UTC.';

export const billingInstallation = /* @__PURE__ */ (() =>
  route({
    method: 'GET',
    path: '/admin/usage',
    group: 'admin',
    access: 'read',
    csv: true,
    tableActions: ['Query'],
    tableEntities: ['usage_month'],
    summary: "Every organisation's usage for a month: requests allowed and refused, by reason",
    description: `${FIGURES_RULE} Organisations without a request that month are left out. \`format=csv\` answers one line per organisation.`,
    success: 'The month: its total and each organisation with a figure, by id',
    query: usageMonthQuerySchema,
    result: installationUsageSchema,
  }))();

export const billingOrganisation = /* @__PURE__ */ (() =>
  route({
    method: 'GET',
    path: '/admin/organisations/{orgID}/usage',
    group: 'admin',
    access: 'read',
    csv: true,
    tableActions: ['GetItem', 'Query'],
    tableEntities: ['org', 'usage_day'],
    summary: "An organisation's usage for a month: its total, per API, and per day and API",
    description: `${FIGURES_RULE} \`format=csv\` answers one line per day and API.`,
    success: 'The month of one organisation',
    statuses: { 404: 'The organisation does not exist' },
    params: z.object({ orgID: idSchema }),
    query: usageMonthQuerySchema,
    result: organisationUsageSchema,
  }))();

export const billingRoutes = /* @__PURE__ */ (() =>
  routeGroup('billing', {
    billingInstallation,
    billingOrganisation,
  }))() satisfies Record<string, RouteDef>;
