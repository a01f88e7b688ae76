import * as z from 'zod';

/** Rate-limit smoothing (contract §6). */
export const smoothingSchema = z.looseObject({
  enabled: z.boolean().optional(),
  delay: z.number().int().min(1).optional(),
  step: z.number().int().min(1).optional(),
  threshold: z.number().int().min(1).optional(),
  trigger: z
    .number()
    .min(0)
    // A multiple of 0.01, tolerant of binary floating point (0.07 * 100 = 7.000000000000001).
    .refine((t) => Math.abs(t * 100 - Math.round(t * 100)) < 1e-6, 'must be a multiple of 0.01')
    .optional(),
});
export type Smoothing = z.infer<typeof smoothingSchema>;
