import express, { type Router } from 'express';
import { existsSync } from 'node:fs';
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

/**
 * The ops console's single-page application at /console: its built files, and index.html for any
 * other path under it (the page routes itself). Every asset is served from here, so the page
 * loads no script from elsewhere; the CSP keeps it that way and lets it call only this gateway.
 */
export function consoleRouter(buildDir = CONSOLE_BUILD_DIR): Router {
  const router = express.Router();
  const index = join(buildDir, 'index.html');
  router.use((_req, res, next) => {
    res.set({
      'content-security-policy':
        "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self' ws: wss:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
    });
    next();
  });
  // Vite names assets by content hash: they never change under the same name.
  router.use('/assets', express.static(join(buildDir, 'assets'), { immutable: true, maxAge: '1y' }), (_req, res) => {
    res.status(404).json(failure('not found'));
  });
  router.use(express.static(buildDir, { index: false, maxAge: 0, redirect: false }));
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
    res.set('cache-control', 'no-cache').sendFile(index);
  });
  return router;
}
