import express, { type Router } from 'express';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { failure } from '../../rest-compat/envelope';

export const CONSOLE_PATH = '/console';

/** The package root: the folder of package.json, whether this runs from src/ (tests) or dist/src/. */
function packageRoot(): string {
  let dir = __dirname;
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

/** Where `npm run build` writes the console (`vite build`, console/vite.config.ts). */
export const CONSOLE_BUILD_DIR = join(packageRoot(), 'dist', 'console');

/** The page's meta tag that lets it sign in from a `#token=` link (console/src/api/session.ts). */
export const SIGN_IN_LINK_META = '<meta name="console-sign-in-link" content="on" />';

/**
 * The ops console's single-page application at /console: its built files, and index.html for any
 * other path under it (the page routes itself). Every asset is served from here, so the page
 * loads no script from elsewhere; the CSP keeps it that way and lets it call only this gateway.
 * Development conveniences stay in development (and test): the source maps, a `connect-src`
 * open to any socket, and the `#token=` sign-in link (the page signs in from a link only when
 * index.html carries SIGN_IN_LINK_META; a link elsewhere could sign a victim in as someone else).
 */
export function consoleRouter(options: { development: boolean; buildDir?: string }): Router {
  const buildDir = options.buildDir ?? CONSOLE_BUILD_DIR;
  const router = express.Router();
  const index = join(buildDir, 'index.html');
  const connectSrc = options.development ? "'self' ws: wss:" : "'self'";
  router.use((req, res, next) => {
    res.set({
      'content-security-policy': `default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src ${connectSrc}; frame-ancestors 'none'; base-uri 'none'; form-action 'none'`,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
    });
    if (!options.development && req.path.endsWith('.map')) {
      res.status(404).json(failure('not found'));
      return;
    }
    next();
  });
  // Vite names assets by content hash: they never change under the same name.
  router.use('/assets', express.static(join(buildDir, 'assets'), { immutable: true, maxAge: '1y' }), (_req, res) => {
    res.status(404).json(failure('not found'));
  });
  router.use(express.static(buildDir, { index: false, maxAge: 0, redirect: false }));
  let page: string | null = null;
  router.get('/{*path}', (req, res) => {
    // Relative asset URLs need the trailing slash; the browser keeps the #fragment across the redirect.
    if (req.originalUrl === CONSOLE_PATH) {
      res.redirect(301, `${CONSOLE_PATH}/`);
      return;
    }
    if (!existsSync(index)) {
      res.status(503).json(failure('the console is not built: run npm run build'));
      return;
    }
    page ??= options.development ? readFileSync(index, 'utf8').replace('<head>', `<head>\n    ${SIGN_IN_LINK_META}`) : readFileSync(index, 'utf8');
    res.set('cache-control', 'no-cache').type('html').send(page);
  });
  return router;
}
