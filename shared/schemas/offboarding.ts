import * as z from 'zod';
import { okEnvelope } from './common';

/**
 * What an offboarding does, in order (contract §9, docs/operating/organisations.md "Offboard an
 * organisation"): each step empties one kind of object with everything stored under it, children
 * before the object that lists them, so a run stopped anywhere finds the rest again.
 */
export const OFFBOARDING_STEPS = ['apis', 'keys', 'policies', 'hooks', 'assets', 'users', 'portal', 'domains', 'usage', 'audit', 'organisation'] as const;
export type OffboardingStep = (typeof OFFBOARDING_STEPS)[number];

/**
 * `fencing`: the organisation refuses every write and its keys; the run waits for every process's
 * caches (CACHE_SECONDS) to know it before it deletes. `deleting`: the steps run. `done`: nothing of
 * the organisation is stored but this record.
 */
const OFFBOARDING_STATES = ['fencing', 'deleting', 'done'] as const;

const offboardingSchema = /* @__PURE__ */ (() =>
  z
    .object({
      org_id: z.string(),
      state: z.enum(OFFBOARDING_STATES),
      step: z.enum(OFFBOARDING_STEPS).nullable().meta({ description: 'The step under way; null before the first and once done' }),
      steps_done: z
        .number()
        .int()
        .min(0)
        .meta({ description: `Steps finished, of ${OFFBOARDING_STEPS.length}` }),
      started_at: z.string(),
      deleting_from: z.string().meta({ description: 'When the deletions start: the caches of every process know the organisation is offboarding' }),
      finished_at: z.string().nullable(),
      deleted: z
        .record(z.string(), z.number().int().min(0))
        .meta({ description: 'Items deleted so far, by what they are (the stored entity: api, key, live_quota, delivery, usage_day, ...)' }),
      deleted_total: z.number().int().min(0),
    })
    .meta({ description: "An organisation's offboarding run" }))();
export type Offboarding = z.infer<typeof offboardingSchema>;

export const offboardingResultSchema = /* @__PURE__ */ (() => okEnvelope(offboardingSchema))();
