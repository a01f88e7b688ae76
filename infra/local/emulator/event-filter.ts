/**
 * Lambda's event filtering (an event source mapping's FilterCriteria), as far as the templates of
 * this project use it: a pattern is an object whose leaves are arrays of rules; a record matches
 * when every key of the pattern matches (nested objects recursively) and, at each leaf, any rule
 * does. Rules: a literal (equal), `{exists: true|false}`, `{prefix: "..."}` and
 * `{"anything-but": [...]}`. Any other rule is refused when the template is read, so a filter
 * the emulator cannot evaluate is never read as "everything" or "nothing".
 */

type Pattern = { [key: string]: Pattern | unknown[] };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Why a pattern cannot be evaluated here, or undefined when it can. */
export function unsupportedRule(pattern: unknown): string | undefined {
  if (!isObject(pattern)) return 'a pattern is an object';
  for (const [key, v] of Object.entries(pattern)) {
    if (Array.isArray(v)) {
      for (const rule of v) {
        if (!isObject(rule)) continue;
        const [name, ...more] = Object.keys(rule);
        if (more.length || !['exists', 'prefix', 'anything-but'].includes(name ?? '')) return `rule ${JSON.stringify(rule)} of ${key}`;
      }
    } else {
      const inner = unsupportedRule(v);
      if (inner) return inner;
    }
  }
  return undefined;
}

function ruleMatches(rule: unknown, value: unknown, present: boolean): boolean {
  if (!isObject(rule)) return present && value === rule;
  if ('exists' in rule) return rule.exists === present;
  if ('prefix' in rule) return present && typeof value === 'string' && value.startsWith(String(rule.prefix));
  if ('anything-but' in rule) {
    const not = rule['anything-but'];
    return present && !(Array.isArray(not) ? not : [not]).includes(value);
  }
  return false;
}

/** Whether `event` matches the pattern (a FilterCriteria Filter's parsed Pattern). */
function matchesPattern(pattern: Pattern, event: unknown): boolean {
  const obj = isObject(event) ? event : {};
  return Object.entries(pattern).every(([key, rules]) => {
    const present = key in obj && obj[key] !== undefined;
    if (Array.isArray(rules)) return rules.some((rule) => ruleMatches(rule, obj[key], present));
    return present && matchesPattern(rules as Pattern, obj[key]);
  });
}

/** Whether any of the mapping's patterns lets the record through (no pattern: every record). */
export function passesFilters(patterns: readonly Pattern[], event: unknown): boolean {
  return patterns.length === 0 || patterns.some((p) => matchesPattern(p, event));
}

export type { Pattern };
