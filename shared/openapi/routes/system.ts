import type { systemRoutes } from '../../route-groups/system';
import type { GroupDocs } from '../route-doc';

export const systemDocs: GroupDocs<typeof systemRoutes> = {
  hello: {
    description: 'Needs no credential. Reads one item of the table to tell whether storage answers.',
    success: 'Storage answers (status pass)',
    answers: { 503: 'Storage does not answer (status fail)' },
    models: { 503: 'Health' },
  },
  openapi: {
    description: 'Needs no credential. The document is generated from the route table and its Zod schemas, never written by hand.',
    success: 'This document',
  },
};
