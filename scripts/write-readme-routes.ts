/** npm run readme:routes: rewrites the README's routes and permissions tables from the route table. */
import { readFileSync, writeFileSync } from 'node:fs';
import { END, PERMISSIONS_END, PERMISSIONS_START, permissionsMarkdown, routesMarkdown, START, withSection } from './routes-table';

const readme = readFileSync('README.md', 'utf8');
const routes = withSection(readme, START, END, routesMarkdown());
writeFileSync('README.md', withSection(routes, PERMISSIONS_START, PERMISSIONS_END, permissionsMarkdown()));
console.log('README.md routes and permissions updated');
