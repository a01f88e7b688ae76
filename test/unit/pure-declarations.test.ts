/**
 * A house rule: shared/route-groups and shared/schemas only declare. Each of their top-level values
 * that runs code to be built (a call, a template, an object or list holding one) is a pure IIFE,
 * `/* @__PURE__ *\/ (() => ...)()`, so esbuild drops those a function's code does not reach: a
 * function builds its own route and the schemas its code reads, not its whole group's
 * (test/infra/bundles.test.ts; bench/analysis.md, cold start). esbuild keeps an annotated call
 * whose arguments might run code (a template, a property read), so the IIFE is what makes it go.
 */
import { readdirSync, readFileSync } from 'node:fs';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const FOLDERS = ['shared/route-groups', 'shared/schemas'];

/** Whether evaluating the expression calls nothing: literals, names, reads and functions not called. */
function inert(e: ts.Expression): boolean {
  if (ts.isSatisfiesExpression(e) || ts.isAsExpression(e) || ts.isParenthesizedExpression(e)) return inert(e.expression);
  if (ts.isStringLiteral(e) || ts.isNumericLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e) || ts.isRegularExpressionLiteral(e)) return true;
  if (ts.isArrowFunction(e) || ts.isFunctionExpression(e) || ts.isIdentifier(e)) return true;
  if (e.kind === ts.SyntaxKind.TrueKeyword || e.kind === ts.SyntaxKind.FalseKeyword) return true;
  // Text put together from names and literals (esbuild keeps it, as a name's text could run code, but it builds nothing).
  if (ts.isBinaryExpression(e) && e.operatorToken.kind === ts.SyntaxKind.PlusToken) return inert(e.left) && inert(e.right);
  if (ts.isTemplateExpression(e)) return e.templateSpans.every((span) => inert(span.expression));
  if (ts.isPropertyAccessExpression(e)) return inert(e.expression);
  if (ts.isArrayLiteralExpression(e)) return e.elements.every((x) => inert(x));
  if (ts.isObjectLiteralExpression(e))
    return e.properties.every((p) => ts.isPropertyAssignment(p) && !ts.isComputedPropertyName(p.name) && inert(p.initializer));
  return false;
}

/** `/* @__PURE__ *\/ (() => ...)()` with no arguments. */
function pureIife(e: ts.Expression, text: string): boolean {
  while (ts.isSatisfiesExpression(e) || ts.isAsExpression(e)) e = e.expression;
  if (!ts.isCallExpression(e) || e.arguments.length || !ts.isParenthesizedExpression(e.expression)) return false;
  if (!ts.isArrowFunction(e.expression.expression)) return false;
  return /\/\* @__PURE__ \*\/\s*$/.test(text.slice(0, e.getStart()));
}

describe('route groups and schemas only declare, and build only what is used', () => {
  for (const folder of FOLDERS)
    for (const file of readdirSync(folder).filter((f) => f.endsWith('.ts'))) {
      it(`${folder}/${file}`, () => {
        const path = `${folder}/${file}`;
        const text = readFileSync(path, 'utf8');
        const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
        const faults: string[] = [];
        for (const s of source.statements) {
          if (ts.isImportDeclaration(s) || ts.isExportDeclaration(s) || ts.isTypeAliasDeclaration(s) || ts.isInterfaceDeclaration(s)) continue;
          if (ts.isFunctionDeclaration(s)) continue;
          if (!ts.isVariableStatement(s)) {
            faults.push(`line ${source.getLineAndCharacterOfPosition(s.getStart()).line + 1}: a statement that runs at import`);
            continue;
          }
          for (const d of s.declarationList.declarations)
            if (d.initializer && !inert(d.initializer) && !pureIife(d.initializer, text))
              faults.push(`${d.name.getText(source)}: built at import; declare it as /* @__PURE__ */ (() => ...)()`);
        }
        expect(faults).toEqual([]);
      });
    }
});
