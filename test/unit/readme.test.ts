import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { END, START, routesMarkdown } from '../../scripts/routes-table';

it('README routes section matches the route table (npm run readme:routes)', () => {
  const readme = readFileSync('README.md', 'utf8');
  const section = readme.split(START)[1]?.split(END)[0]?.trim();
  expect(section).toBe(routesMarkdown());
});
