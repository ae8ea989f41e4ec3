import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = fileURLToPath(new URL('.', import.meta.url));

/**
 * The ops console's build: served by the gateway under /console (src/console/serve-console.ts)
 * from dist/console, every asset local. Not checked in; `npm run build` writes it.
 */
export default defineConfig({
  root: here,
  base: '/console/',
  publicDir: false,
  logLevel: 'warn',
  oxc: { jsx: { runtime: 'automatic' } },
  build: {
    outDir: `${here}../dist/console`,
    emptyOutDir: true,
    sourcemap: true,
    chunkSizeWarningLimit: 600,
  },
});
