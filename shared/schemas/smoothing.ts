import * as z from 'zod';
import { storableNumber } from './numbers';

/** Rate-limit smoothing (contract §6). */
export const smoothingSchema = z.looseObject({
  enabled: z.boolean().optional(),
  delay: z.number().int().min(1).optional(),
  step: z.number().int().min(1).optional(),
  threshold: z.number().int().min(1).optional(),
  // Zod's multipleOf tolerates binary floating point (0.07 is a multiple of 0.01), and the
  // document says multipleOf 0.01 for clients to check as well.
  trigger: storableNumber.min(0).multipleOf(0.01, 'must be a multiple of 0.01').optional(),
});
