/**
 * Regular expressions on client input (RELIABILITY.md): every one must run in linear time, or
 * only on input bounded before it runs. Proved with a ReDoS checker (recheck: automata theory
 * and seeded fuzzing, deterministic), not with a clock, over every regex the service can run:
 * - every regex literal in shared/, functions/ and infra/local/ (found by the TypeScript parser,
 *   so a new one cannot escape), and no `RegExp` built from a string;
 * - every `pattern` of the route table's schemas (our `.regex()` and zod's own formats), as the
 *   OpenAPI document publishes them;
 * - the YAML parser's and secure-json-parse's regexes, with the reviewed exceptions below;
 * - the OpenAPI validator's patterns and format checks on an imported document.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { createRequire } from 'node:module';
import { check, type Diagnostics } from 'recheck';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { BOUNDED_MEMBERS } from '../../shared/domain/oas-urls';
import { openApiDocument } from '../../shared/openapi/document';
import { LIMITS } from '../../shared/limits';

const ROOT = join(__dirname, '..', '..');
const require = createRequire(import.meta.url);
const CHECK_TIMEOUT_MS = 60_000;

function sourceFiles(dir: string, ext: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path, ext));
    else if (path.endsWith(ext) && !path.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

interface Found {
  source: string;
  flags: string;
  where: string;
}

/** Regex literals of a file, and `RegExp(...)` / `new RegExp(...)` calls (patterns built at run time). */
function scan(file: string): { literals: Found[]; dynamic: string[] } {
  const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const literals: Found[] = [];
  const dynamic: string[] = [];
  const where = (n: ts.Node) => `${relative(ROOT, file)}:${sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1}`;
  const visit = (n: ts.Node) => {
    if (n.kind === ts.SyntaxKind.RegularExpressionLiteral) {
      const text = n.getText(sf);
      const end = text.lastIndexOf('/');
      literals.push({ source: text.slice(1, end), flags: text.slice(end + 1), where: where(n) });
    }
    if ((ts.isNewExpression(n) || ts.isCallExpression(n)) && ts.isIdentifier(n.expression) && n.expression.text === 'RegExp') {
      dynamic.push(where(n));
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return { literals, dynamic };
}

async function verdict(source: string, flags: string): Promise<Diagnostics> {
  return check(source, flags, { timeout: CHECK_TIMEOUT_MS });
}

/** Checks many regexes, answering those not proved linear with the checker's reason. */
async function notLinear(found: Found[]): Promise<Array<Found & { why: string }>> {
  const unique = new Map(found.map((f) => [`/${f.source}/${f.flags}`, f]));
  const out: Array<Found & { why: string }> = [];
  for (const f of unique.values()) {
    const d = await verdict(f.source, f.flags);
    if (d.status === 'safe') continue;
    const why = d.status === 'vulnerable' ? d.complexity.summary : `unknown (${d.error.kind})`;
    out.push({ ...f, why });
  }
  return out;
}

describe('regexes on client input run in linear time', () => {
  it('every regex literal of the service is linear, and none is built from a string at run time', async () => {
    const files = ['shared', 'functions', 'infra/local'].flatMap((d) => sourceFiles(join(ROOT, d), '.ts'));
    const scans = files.map(scan);
    const literals = scans.flatMap((s) => s.literals);
    expect(literals.length).toBeGreaterThan(20);
    expect(scans.flatMap((s) => s.dynamic)).toEqual([]);
    expect(await notLinear(literals)).toEqual([]);
  }, 600_000);

  it('every pattern of the route table schemas (ours and zod formats such as e-mail) is linear', async () => {
    const patterns: Found[] = [];
    (function walk(v: unknown, where: string) {
      if (v === null || typeof v !== 'object') return;
      const o = v as Record<string, unknown>;
      if (typeof o.pattern === 'string') patterns.push({ source: o.pattern, flags: '', where });
      for (const [k, child] of Object.entries(o)) walk(child, `${where}/${k}`);
    })(openApiDocument(), '#');
    expect(patterns.some((p) => p.where.includes('email'))).toBe(true);
    expect(await notLinear(patterns)).toEqual([]);
  }, 600_000);

  it('the YAML parser and the JSON parser run only linear regexes on a body, but for reviewed exceptions', async () => {
    const yamlDir = dirname(require.resolve('yaml'));
    const files = [...sourceFiles(yamlDir, '.js'), require.resolve('secure-json-parse')];
    const found = await notLinear(files.flatMap((f) => scan(f).literals));
    // Each of these was read where it runs; none sees unbounded client text in parseYaml.
    const reviewed: Record<string, string> = {
      // Fallbacks for browsers without lookbehind: Node takes the `(?<![ \t])[ \t]+$` forms.
      'node_modules/yaml/dist/compose/resolve-flow-scalar.js /[ \\t]+$/': 'lookbehind fallback',
      'node_modules/yaml/dist/compose/resolve-flow-scalar.js /^[ \\t]+|[ \\t]+$/g': 'lookbehind fallback',
      // Pretty errors only; parseYaml sets prettyErrors: false (39 s on a line of 100,000 CRs).
      'node_modules/yaml/dist/errors.js /[\\n\\r]+$/': 'prettyErrors off',
      // YAML 1.1 timestamps; parseYaml reads the 1.2 core schema only.
      'node_modules/yaml/dist/schema/yaml-1.1/timestamp.js /000000\\d*$/': 'yaml-1.1 schema unused',
    };
    const unreviewed = found.map((f) => `${f.where.replace(/:\d+$/, '')} /${f.source}/${f.flags}`).filter((k) => !(k in reviewed));
    expect(unreviewed).toEqual([]);
    // The fallback is dead only while Node supports lookbehind.
    expect(() => /(?<![ \t])[ \t]+$/).not.toThrow();
  }, 600_000);

  it('the OpenAPI validator runs only linear patterns, and its format checks only on members bounded before it runs', async () => {
    const schemaDir = join(dirname(require.resolve('@seriousme/openapi-schema-validator')), 'schemas');
    const patterns: Found[] = [];
    /** format -> the document members it checks */
    const formats = new Map<string, Set<string>>();
    for (const version of readdirSync(schemaDir).filter((v) => v.startsWith('v3.'))) {
      const schema = JSON.parse(readFileSync(join(schemaDir, version, 'schema.json'), 'utf8')) as unknown;
      (function walk(v: unknown, path: string[]) {
        if (v === null || typeof v !== 'object') return;
        const o = v as Record<string, unknown>;
        if (typeof o.pattern === 'string') patterns.push({ source: o.pattern, flags: 'u', where: version });
        if (o.patternProperties && typeof o.patternProperties === 'object') {
          for (const p of Object.keys(o.patternProperties)) patterns.push({ source: p, flags: 'u', where: version });
        }
        if (typeof o.format === 'string') {
          const [holder, name] = path.slice(-2);
          // properties/<name>, or patternProperties/^\$ref$ for the 3.0 Reference object.
          const member =
            holder === 'patternProperties' ? name!.replace(/^\^|\$$/g, '').replace(/\\/g, '') : holder === 'properties' ? name! : `(${holder}/${name})`;
          formats.set(o.format, (formats.get(o.format) ?? new Set()).add(member));
        }
        for (const [k, child] of Object.entries(o)) walk(child, [...path, k]);
      })(schema, []);
    }
    expect(await notLinear(patterns)).toEqual([]);

    const { fullFormats } = require('ajv-formats/dist/formats') as { fullFormats: Record<string, unknown> };
    expect([...formats.keys()].sort()).toEqual(['email', 'media-range', 'regex', 'uri', 'uri-reference']);
    const unbounded: string[] = [];
    for (const [format, members] of formats) {
      const check = format === 'media-range' ? true : fullFormats[format]; // the validator registers media-range as `true`
      if (check === true) continue;
      if (check instanceof RegExp) {
        const d = await verdict(check.source, check.flags);
        if (d.status === 'safe') continue;
        // Polynomial at worst: on a bounded string it stays bounded.
        expect(d.status === 'vulnerable' && d.complexity.type, format).toBe('polynomial');
      }
      for (const m of members) if (!(BOUNDED_MEMBERS[m]! <= LIMITS.longString)) unbounded.push(`${format}: ${m}`);
    }
    expect(unbounded).toEqual([]);
  }, 600_000);
});
