/**
 * What every write of access rights (a key's or a policy's) must keep of `allowed_urls`
 * (docs/reference/limits.md): each `url` is RE2 syntax (one that is not would match nothing, so it
 * can only refuse), and all the rules of the access rights together, every API's, are at most
 * `ALLOWED_URL_LIMITS.rules` and compile to at most `ALLOWED_URL_LIMITS.program` instructions. Each
 * breach is a 400 naming the member. Rules stored before these limits keep working.
 */
import type * as z from 'zod';
import { ALLOWED_URL_LIMITS } from '../limits';
import { thousands } from '../lib/thousands';
import { loadRe2, re2 } from '../lib/re2-engine';
import { re2SizeEstimate } from './re2-size';

/** A rule's compiled program size, or why re2js refuses its pattern. */
function compileRule(url: string): { size: number } | { error: string } {
  try {
    return { size: re2().RE2JS.compile(url).programSize() };
  } catch (e) {
    return { error: e instanceof Error ? e.message : String(e) };
  }
}

type Rights = Record<string, { allowed_urls?: ReadonlyArray<{ url: string }> | null | undefined }>;

/** An async refinement: the RE2 engine is loaded only for rights that carry rules (requests are validated with safeParseAsync). */
export async function checkAllowedUrls(rights: Rights, ctx: z.RefinementCtx): Promise<void> {
  const rules = Object.entries(rights).flatMap(([api, entry]) =>
    (entry.allowed_urls ?? []).map((rule, i) => ({ path: [api, 'allowed_urls', i], url: rule.url })),
  );
  if (rules.length === 0) return;
  const { rules: maxRules, program: maxProgram } = ALLOWED_URL_LIMITS;
  if (rules.length > maxRules) {
    ctx.addIssue({
      code: 'custom',
      path: rules[maxRules]!.path,
      message: `at most ${maxRules} allowed_urls rules in one key's or policy's access_rights, all APIs together (${thousands(rules.length)} given)`,
    });
    return;
  }
  await loadRe2();
  let program = 0;
  for (const rule of rules) {
    const path = [...rule.path, 'url'];
    const over = (size: string) =>
      ctx.addIssue({
        code: 'custom',
        path,
        message:
          `the allowed_urls rules of one key or policy may compile to at most ${thousands(maxProgram)} RE2 instructions together; ` +
          `with this one they take ${size}`,
      });
    // A pattern far past what is left is refused unread: compiling it alone could take seconds.
    const estimate = re2SizeEstimate(rule.url);
    if (program + estimate > 2 * maxProgram) {
      over(`about ${thousands(program + estimate)}`);
      return;
    }
    const compiled = compileRule(rule.url);
    if ('error' in compiled) {
      ctx.addIssue({ code: 'custom', path, message: `not an RE2 regular expression: ${compiled.error}` });
      continue;
    }
    program += compiled.size;
    if (program > maxProgram) {
      over(thousands(program));
      return;
    }
  }
}
