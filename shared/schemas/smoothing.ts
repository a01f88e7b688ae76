import * as z from 'zod';
import { storableNumber, storedLooseObject } from './storable';

/** Rate-limit smoothing (contract §6): its members, kept in keys and policies and in OAS definitions. */
export const smoothingFields = /* @__PURE__ */ (() => ({
  enabled: z.boolean().optional(),
  delay: z.number().int().min(1).optional(),
  step: z.number().int().min(1).optional(),
  threshold: z.number().int().min(1).optional(),
  // Zod's multipleOf tolerates binary floating point (0.07 is a multiple of 0.01), and the
  // document says multipleOf 0.01 for clients to check as well.
  trigger: storableNumber.min(0).multipleOf(0.01, 'must be a multiple of 0.01').optional(),
}))();

/** Smoothing of a key or policy, stored as attributes. */
export const smoothingSchema = /* @__PURE__ */ (() => storedLooseObject(smoothingFields))();
