/** npm run readme:routes: rewrites the README's routes section from the route table. */
import { readFileSync, writeFileSync } from 'node:fs';
import { END, START, routesMarkdown } from './routes-table';

const readme = readFileSync('README.md', 'utf8');
const [head, rest] = readme.split(START);
const tail = rest?.split(END)[1];
if (head === undefined || tail === undefined) throw new Error('README.md has no routes markers');
writeFileSync('README.md', `${head}${START}\n${routesMarkdown()}\n${END}${tail}`);
console.log('README.md routes updated');
