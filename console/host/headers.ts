/**
 * The headers every console file is served with, locally (npm start, npm run emulate) and by
 * CloudFront's response headers policy (infra/constructs/console-hosting.ts): one definition, so
 * the browser tests run under the policy the cloud sends.
 *
 * The Content-Security-Policy allows nothing but this origin's own files and calls: no inline
 * script or style, no eval, no other host, no framing. The console needs no more (Vite emits
 * module scripts and stylesheets as files; Preact and Chart.js set styles through the DOM, which
 * the policy allows).
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** The rest of the security headers (HSTS only in the cloud: it means nothing over plain HTTP). */
export const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
};

/** Where the console lives on every host: the same origin as the service, beside `/api/`. */
export const CONSOLE_BASE = '/console/';

/** Built file names carry a content hash under assets/: cached for a year; everything else revalidates. */
export const cacheControlOf = (relativePath: string): string => (relativePath.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
