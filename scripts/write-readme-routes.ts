/** npm run readme:routes: rewrites the README's routes and permissions tables from the route table. */
import { readFileSync, writeFileSync } from 'node:fs';
import { END, PERMISSIONS_END, PERMISSIONS_START, permissionsMarkdown, ROUTES_DOCUMENT, routesMarkdown, START, withSection } from './routes-table';

const readme = readFileSync(ROUTES_DOCUMENT, 'utf8');
const routes = withSection(readme, START, END, routesMarkdown());
writeFileSync(ROUTES_DOCUMENT, withSection(routes, PERMISSIONS_START, PERMISSIONS_END, permissionsMarkdown()));
console.log(`${ROUTES_DOCUMENT} routes and permissions updated`);
