/**
 * What a tenant's RE2 pattern will cost to compile, read from its text alone. Compiling is the
 * costly step (a few microseconds per instruction) and a short pattern can ask for a large
 * program: `(?:ab|cd){1000}` is 15 characters and 5,000 instructions, so 1,000 such characters
 * take seconds. A write estimates each `allowed_urls` pattern first and compiles only those that
 * fit what is left of its limit.
 *
 * The estimate is RE2's own (Go regexp/syntax `calcSize`, which re2js's parser also uses to refuse
 * a program over its size): a literal character 1, a class or `.` 1, a capture `2 + x`, `x*`
 * `2 + x`, `x+` and `x?` `1 + x`, `x{n,m}` `m·x + (m − n)`, `x{n,}` `1 + n·x`, an alternation its
 * branches plus one per `|`; plus 2 (the program's failure and match instructions). It follows
 * the syntax as far as sizes need and does not validate: re2js decides what is valid once the
 * pattern is compiled.
 */

/** Past RE2's repeat limit (1,000) a pattern is invalid; keeping counts below it keeps the sums finite. */
const COUNT_CAP = 1001;
/** Far above any limit; sizes are clamped to it so nested repetitions cannot overflow. */
const SIZE_CAP = 1e9;
/** RE2's deepest nesting; a deeper group is invalid, and the estimate stops descending there. */
const MAX_DEPTH = 1000;

const clamp = (n: number) => Math.min(n, SIZE_CAP);

export function re2SizeEstimate(pattern: string): number {
  let i = 0;
  let depth = 0;
  const n = pattern.length;
  // Where the next `:]` is (-1: none left), found once however many `[:` precede it: the scan
  // stays linear on a pattern made of unclosed `[:`.
  let colonClose = -2;
  const nextColonClose = (from: number) => {
    if (colonClose !== -1 && colonClose < from) colonClose = pattern.indexOf(':]', from);
    return colonClose;
  };

  /** Digits at i, as a number (capped), or undefined when there are none. */
  const number = (): number | undefined => {
    const start = i;
    let value = 0;
    while (i < n && pattern[i]! >= '0' && pattern[i]! <= '9') {
      value = Math.min(value * 10 + (pattern.charCodeAt(i) - 48), COUNT_CAP);
      i++;
    }
    return i > start ? value : undefined;
  };

  /** `{n}`, `{n,}` or `{n,m}` at i (i on the brace), or undefined (then the brace is a literal). */
  const counts = (): { min: number; max: number } | undefined => {
    const start = i;
    i++;
    const min = number();
    if (min !== undefined) {
      let max = min;
      if (pattern[i] === ',') {
        i++;
        max = number() ?? -1;
      }
      if (pattern[i] === '}') {
        i++;
        return { min, max };
      }
    }
    i = start;
    return undefined;
  };

  /** Skips `{...}` after `\p`, `\P` or `\x`, or the one character (two hex digits for `\x`) they take. */
  const braced = (single: number) => {
    if (pattern[i] === '{') {
      const close = pattern.indexOf('}', i);
      i = close < 0 ? n : close + 1;
    } else i += single;
  };

  /** An escape after its backslash; answers its size (`\Q...\E`: one per quoted character). */
  const escaped = (): number => {
    const c = pattern[i++];
    if (c === 'Q') {
      const end = pattern.indexOf('\\E', i);
      const quoted = (end < 0 ? n : end) - i;
      i = end < 0 ? n : end + 2;
      return quoted;
    }
    if (c === 'p' || c === 'P') braced(1);
    else if (c === 'x') braced(2);
    else if (c !== undefined && c >= '0' && c <= '7') {
      for (let k = 0; k < 2 && pattern[i]! >= '0' && pattern[i]! <= '7'; k++) i++;
    }
    return 1;
  };

  /** A character class after its `[`: one instruction, whatever it holds. */
  const charClass = (): number => {
    if (pattern[i] === '^') i++;
    if (pattern[i] === ']') i++;
    while (i < n && pattern[i] !== ']') {
      if (pattern[i] === '\\') {
        i++;
        escaped();
      } else if (pattern.startsWith('[:', i)) {
        const close = nextColonClose(i + 2);
        i = close < 0 ? i + 1 : close + 2;
      } else i++;
    }
    i++;
    return 1;
  };

  /** A group after its `(`: flags alone cost nothing; a capture adds 2. */
  const group = (): number => {
    // Past RE2's depth (re2js refuses the pattern) its `(` counts as a character: no deeper recursion.
    if (depth >= MAX_DEPTH) return 1;
    let capture = true;
    if (pattern[i] === '?') {
      i++;
      if (pattern[i] === 'P' || pattern[i] === '<') {
        const close = pattern.indexOf('>', i);
        i = close < 0 ? n : close + 1;
      } else {
        capture = false;
        while (i < n && pattern[i] !== ':' && pattern[i] !== ')') i++;
        if (pattern[i] === ')') {
          i++;
          return 0;
        }
        i++;
      }
    }
    depth++;
    const inner = alternation();
    depth--;
    if (pattern[i] === ')') i++;
    return capture ? clamp(2 + inner) : inner;
  };

  const atom = (): number => {
    const c = pattern[i++];
    if (c === '(') return group();
    if (c === '[') return charClass();
    if (c === '\\') return escaped();
    // A lone surrogate of a pair is half a character: the pair counts once.
    if (c !== undefined && c >= '\uD800' && c <= '\uDBFF' && i < n) i++;
    return 1;
  };

  /** The atom's size under the repetition operators that follow it. */
  const repeated = (size: number): number => {
    for (;;) {
      const c = pattern[i];
      if (c === '*') size = clamp(2 + size);
      else if (c === '+' || c === '?') size = clamp(1 + size);
      else if (c === '{') {
        const r = counts();
        if (!r) return size;
        size = r.max === -1 ? (r.min === 0 ? clamp(2 + size) : clamp(1 + r.min * size)) : clamp(r.max * size + Math.max(0, r.max - r.min));
        if (pattern[i] === '?') i++;
        continue;
      } else return size;
      i++;
      if (pattern[i] === '?') i++;
    }
  };

  const sequence = (): number => {
    let total = 0;
    while (i < n && pattern[i] !== '|' && pattern[i] !== ')') total = clamp(total + repeated(atom()));
    return total;
  };

  function alternation(): number {
    let total = sequence();
    while (pattern[i] === '|') {
      i++;
      total = clamp(total + 1 + sequence());
    }
    return total;
  }

  let total = 0;
  while (i < n) {
    total = clamp(total + alternation());
    // An unmatched `)` (invalid: re2js refuses it); the estimate goes on past it.
    if (pattern[i] === ')') i++;
  }
  // Every program also has its failure and match instructions, as re2js `programSize()` counts.
  return Math.max(1, total) + 2;
}
