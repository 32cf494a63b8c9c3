// Lint rules the compiler does not check: which folder of src/ may use which. The layers, top to
// bottom: index.ts and router.ts → routes → flows, openapi → api → mail, reports, http →
// workspace, checks → import, large-logs → summary → copies → schemas, console → shared. A folder uses only
// those below it (and mail uses reports); client/, for applications, calls the routes api/ declares.
// A layer is told by where a file is, not by how an import is written: eslint-plugin-boundaries
// resolves each import to its file, so '../../workspace/client' from two folders down is caught as
// surely as '../workspace/client'. `npm run lint` proves it on probes (scripts/lint-probe.mjs).
// Renaming a folder is one line: its name below (LARGE_LOG for the large-log path).
// Formatting is Prettier's job.
import boundaries from 'eslint-plugin-boundaries'
import { readdirSync } from 'node:fs'
import tseslint from 'typescript-eslint'

/** The folder of the large-log path (reading, scanning and checking a log piece by piece). */
const LARGE_LOG = 'large-logs'

/** A layer of src/: its `folder` (or, for index and router, its one file) may use itself and `uses`. */
const layer = (folder, uses, why) => ({ folder, uses, why })

const BELOW_ROUTES = [
  'flows',
  'openapi',
  'api',
  'mail',
  'reports',
  'http',
  'workspace',
  'checks',
  'import',
  LARGE_LOG,
  'copies',
]
const BOTTOM = ['summary', 'schemas', 'console', 'shared']

const LAYERS = [
  layer('shared', [], 'shared/ is the bottom layer: it uses nothing else of the service'),
  layer('schemas', ['shared'], 'schemas/ use only shared/'),
  layer('console', ['shared'], 'console/ uses only shared/'),
  layer(
    'copies',
    ['shared'],
    'copies/ is the one account of a day’s copies, their states and words: shared/ only, so every surface above can say them',
  ),
  layer(
    'summary',
    ['copies', 'schemas', 'shared'],
    'a summary is computed from a log alone: copies/, schemas/ and shared/ only',
  ),
  layer(
    LARGE_LOG,
    ['summary', 'copies', 'schemas', 'shared'],
    `${LARGE_LOG}/ checks a log from its bytes alone: schemas/, summary/, copies/ and shared/ only`,
  ),
  layer(
    'checks',
    [LARGE_LOG, 'summary', 'copies', 'schemas', 'shared'],
    `checks/ tell what a log holds from the log alone: ${LARGE_LOG}/, summary/, copies/, schemas/ and shared/ only`,
  ),
  layer(
    'import',
    ['copies', 'schemas', 'shared'],
    'import/ reads offload files and merges them into a log, pure: copies/ (its words), schemas/ and shared/ only',
  ),
  layer(
    'workspace',
    ['api', 'import', LARGE_LOG, 'summary', 'copies', 'schemas', 'shared'],
    'the workspace serves no HTTP and knows nothing of mail, reports or the console: it throws Problems (shared/problem.ts); a cart reaches its production as a client of the declared routes (workspace/production.ts, api/paths.ts)',
  ),
  layer(
    'http',
    ['schemas', 'shared'],
    'http/ turns requests into values and Problems into answers; it calls nothing of the workspace',
  ),
  layer('reports', ['checks', LARGE_LOG, 'summary', 'copies', 'schemas', 'shared'], 'reports draw what they are given'),
  layer(
    'mail',
    ['reports', 'workspace', 'checks', LARGE_LOG, 'summary', 'copies', 'schemas', 'shared'],
    'mail composes and sends; routes call it',
  ),
  layer(
    'api',
    ['mail', 'http', 'copies', 'schemas', 'shared'],
    'api/ declares the routes (their paths, schemas and answer shapes) and what a handler is given and answers, nothing that runs them',
  ),
  layer('openapi', ['api', 'mail', 'schemas', 'shared'], 'openapi/ renders the declared routes as the contract'),
  layer(
    'flows',
    ['mail', 'reports', 'http', 'workspace', 'checks', LARGE_LOG, 'summary', 'copies', 'schemas', 'shared'],
    'flows/ are what routes share: the token before a large body, the days of a report, a send window as it reads now',
  ),
  layer('routes', [...BELOW_ROUTES, ...BOTTOM], 'routes are called by the router'),
  layer(
    'client',
    ['api', 'import', 'copies', 'schemas', 'shared'],
    'the client runs in applications: it calls the routes api/ declares, typed by their schemas and shapes, and gives the one vocabulary of copies and the reading of a manifest',
  ),
  // Last, as a folder's files belong to the first layer that matches: the files of src/ itself.
  layer('src', ['routes', ...BELOW_ROUTES, ...BOTTOM], 'index.ts and router.ts call routes and what is below them'),
]

const TYPES = LAYERS.map(({ folder }) => folder)

// A new folder of src/ would fall to the last layer, the files of src/ itself, and pass unchecked:
// every folder has to be placed in the layers above.
const unplaced = readdirSync(new URL('src/', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !TYPES.includes(entry.name))
  .map((entry) => `src/${entry.name}/`)
if (unplaced.length > 0) throw new Error(`eslint.config.js: place ${unplaced.join(', ')} in LAYERS`)

/** Where a layer's files are: a folder of src/, or (for 'src') the files of src/ itself, index.ts and router.ts. */
const pattern = (folder) => (folder === 'src' ? 'src' : `src/${folder}`)

export default [
  { ignores: ['node_modules/', '.wrangler/', 'bench/results/', 'src/env.d.ts'] },
  { files: ['**/*.ts'], languageOptions: { parser: tseslint.parser } },
  // The type-checked rules: what a value's type says it may be used for (promises awaited or let go on
  // purpose, nothing `any` spreading, rejections that are errors).
  ...tseslint.configs.recommendedTypeChecked.map((config) => ({ ...config, files: ['src/**/*.ts'] })),
  {
    files: ['src/**/*.ts'],
    languageOptions: { parserOptions: { projectService: true } },
    rules: {
      // The compiler's noUnusedLocals has the last word; `_` names what is left out on purpose.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      // Passing on a caught error as it came is allowed; making up a rejection that is no Error is not.
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingUnknown: true }],
    },
  },
  // The Node programs (bin/, scripts/): the same type-checked rules. The command (bin/) is typed
  // throughout (tsconfig.bin.json): nothing `any` may spread there either.
  ...tseslint.configs.recommendedTypeChecked.map((config) => ({ ...config, files: ['bin/*.mjs', 'scripts/*.mjs'] })),
  { files: ['bin/*.mjs'], languageOptions: { parserOptions: { project: './tsconfig.bin.json' } } },
  {
    files: ['scripts/*.mjs'],
    languageOptions: { parserOptions: { project: './tsconfig.scripts.json' } },
    rules: {
      // Plain JavaScript: an unannotated parameter is `any` by design (noImplicitAny is off there),
      // so these would flag every use of one.
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    files: ['src/**'],
    plugins: { boundaries },
    settings: {
      // Imports are written without extensions, as the bundler resolves them.
      'import/resolver': { node: { extensions: ['.ts', '.js', '.mjs', '.d.ts'] } },
      'boundaries/elements': LAYERS.map(({ folder }) => ({
        type: folder,
        pattern: pattern(folder),
        partialMatch: false,
      })),
    },
    rules: {
      'boundaries/dependencies': [
        'error',
        {
          default: 'disallow',
          policies: [
            ...LAYERS.flatMap(({ folder, uses, why }) => [
              {
                from: { element: { type: folder } },
                allow: { to: { element: { types: { anyOf: [folder, ...uses] } } } },
              },
              {
                from: { element: { type: folder } },
                disallow: {
                  to: { element: { types: { anyOf: TYPES.filter((t) => t !== folder && !uses.includes(t)) } } },
                },
                message: `${pattern(folder)}: ${why}`,
              },
            ]),
          ],
        },
      ],
    },
  },
]
