// The typed client as JavaScript, for plain Node and anything else that does not read TypeScript:
// dist/client/index.js, built on install (and by `npm run build:client`). Its types are the
// TypeScript source's (package.json `exports`). The file stands alone: the route declarations
// and the valibot schemas they name are bundled in.
import { build } from 'esbuild'
import { resolve } from 'node:path'

const ROOT = resolve(import.meta.dirname, '..')

await build({
  entryPoints: [resolve(ROOT, 'src/client/index.ts')],
  outfile: resolve(ROOT, 'dist/client/index.js'),
  bundle: true,
  format: 'esm',
  platform: 'neutral',
  target: 'es2022',
  logLevel: 'warning',
})
