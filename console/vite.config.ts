/**
 * The console's build (docs/using/console.md): a static single-page app served under /console/ on the
 * service's own origin. No inline script or style is emitted (the Content-Security-Policy allows
 * none) and nothing is inlined as a data: URL; the manifest lets the size test follow the entry's
 * static imports. Two pages: the console (index.html) and the developer portal's web app
 * (portal/index.html, served under /console/portal/), which share components but not their entry chunks.
 * `npm run console:dev` serves it with hot reload, calling the `npm start` stage.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root,
  base: '/console/',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: 'dist',
    target: 'es2022',
    manifest: true,
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    rollupOptions: { input: { console: `${root}index.html`, portal: `${root}portal/index.html` } },
  },
  // In `npm run console:dev`, every page path of the developer portal is its page, as the stages and CloudFront answer it.
  plugins: [
    {
      name: 'portal-pages',
      configureServer(server) {
        server.middlewares.use((req, _res, next) => {
          if (req.url && /^\/console\/portal(\/[^.?]*)?(\?.*)?$/.test(req.url)) req.url = '/console/portal/index.html';
          next();
        });
      },
    },
  ],
  server: { proxy: Object.fromEntries(['/api', '/portal'].map((p) => [p, process.env.CONSOLE_API ?? 'http://127.0.0.1:8080'])) },
});
