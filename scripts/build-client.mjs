// The typed client as a package gives it, built on install (and by `npm run build:client`):
// - dist/client/index.js: JavaScript for plain Node and anything else that does not read
//   TypeScript; it stands alone (the route declarations and the valibot schemas they name are
//   bundled in);
// - dist/client/types/: its declarations, emitted from the source, with every relative import
//   naming its file (`./routes.js`), so that a consumer's compiler finds them under any
//   moduleResolution (`nodenext` refuses extensionless imports; `bundler` takes either). The
//   source itself is not what consumers compile: their compiler options are not ours.
import { build } from 'esbuild'
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import ts from 'typescript'

const ROOT = resolve(import.meta.dirname, '..')
const ENTRY = resolve(ROOT, 'src/client/index.ts')
const TYPES = resolve(ROOT, 'dist/client/types')

// `--types-only`: the declarations alone (a test compiling a consumer against the source as it is,
// while other tests run the built JavaScript).
if (!process.argv.includes('--types-only'))
  await build({
    entryPoints: [ENTRY],
    outfile: resolve(ROOT, 'dist/client/index.js'),
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    // A neutral build resolves no package's entry point by itself: saxes (the manifest reader's XML
    // parser) names its own by `main`.
    mainFields: ['module', 'main'],
    target: 'es2022',
    logLevel: 'warning',
  })

rmSync(TYPES, { recursive: true, force: true })
const program = ts.createProgram([ENTRY], {
  declaration: true,
  emitDeclarationOnly: true,
  outDir: TYPES,
  rootDir: resolve(ROOT, 'src'),
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  target: ts.ScriptTarget.ES2022,
  lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
  types: [],
  strict: true,
  skipLibCheck: true,
})
const emitted = program.emit()
const problems = ts.getPreEmitDiagnostics(program).concat(emitted.diagnostics)
if (problems.length) {
  const host = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => ROOT, getNewLine: () => '\n' }
  console.error(ts.formatDiagnostics(problems, host))
  process.exit(1)
}

/** `../api/routes` → `../api/routes.js`, `../reports` → `../reports/index.js`, as the files are. */
function withFile(from, specifier) {
  if (!specifier.startsWith('.') || specifier.endsWith('.js')) return specifier
  const target = resolve(dirname(from), specifier)
  if (existsSync(`${target}.d.ts`)) return `${specifier}.js`
  if (existsSync(join(target, 'index.d.ts'))) return `${specifier}/index.js`
  throw new Error(`${from}: no declarations for ${specifier}`)
}

for (const entry of readdirSync(TYPES, { recursive: true, encoding: 'utf8' })) {
  const file = join(TYPES, entry)
  if (!file.endsWith('.d.ts')) continue
  const text = readFileSync(file, 'utf8')
  const fixed = text
    .replace(/(from\s+')([^']+)(')/g, (_, a, s, b) => a + withFile(file, s) + b)
    .replace(/(import\(")([^"]+)("\))/g, (_, a, s, b) => a + withFile(file, s) + b)
  if (fixed !== text) writeFileSync(file, fixed)
}
