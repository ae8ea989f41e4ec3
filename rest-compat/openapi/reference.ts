import express from 'express';
import { dirname, join } from 'node:path';
import type { RestRoute } from '../route';
import { nameRoute } from '../../src/ops/metrics';
import { openApiDocument } from './document';

/** Where the documents are served, under the REST prefix, without credentials. */
export const OPENAPI_PATHS = { R: '/openapi-r.json', O: '/openapi-o.json' } as const;
export const DOCS_PATH = '/docs';

/** Redoc's standalone bundle, from the npm package (no CDN). */
const REDOC_DIR = join(dirname(require.resolve('redoc/package.json')), 'bundles');

/**
 * The OpenAPI documents of both surfaces, generated once at start from the route tables, and
 * `/docs`, an interactive reference page (Redoc) over them.
 */
export function apiReference(restPrefix: string, surfaceR: RestRoute[], surfaceO: RestRoute[]) {
  const documents = { R: openApiDocument('R', surfaceR, restPrefix), O: openApiDocument('O', surfaceO, restPrefix) };
  const openapi = express.Router();
  for (const surface of ['R', 'O'] as const) {
    const body = JSON.stringify(documents[surface]);
    openapi.get(OPENAPI_PATHS[surface], (_req, res) => {
      nameRoute(res, OPENAPI_PATHS[surface]);
      res.type('application/json').send(body);
    });
  }

  const docs = express.Router();
  docs.use('/assets', express.static(REDOC_DIR, { index: false, maxAge: '1d' }));
  docs.get('/', (req, res) => {
    // Express 5's simple query parser gives a string, or an array for a repeated key (never 'O').
    const asked = req.query.surface;
    const surface = typeof asked === 'string' && asked.toUpperCase() === 'O' ? 'O' : 'R';
    res.type('html').send(page(`${restPrefix}${OPENAPI_PATHS[surface]}`, surface));
  });
  return { documents, openapi, docs };
}

function page(specUrl: string, surface: 'R' | 'O'): string {
  const other = surface === 'R' ? 'O' : 'R';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Fund distribution gateway: surface ${surface} reference</title>
<style>body{margin:0}nav{font:14px sans-serif;padding:8px 16px;background:#f4f4f4}</style>
</head>
<body>
<nav>Surface ${surface} · <a href="${DOCS_PATH}?surface=${other.toLowerCase()}">surface ${other}</a> · <a href="${specUrl}">OpenAPI document</a></nav>
<redoc spec-url="${specUrl}"></redoc>
<script src="${DOCS_PATH}/assets/redoc.standalone.js"></script>
</body>
</html>`;
}
