// Lint rules the compiler does not check: which folder of src/ may use which. The layers, top to
// bottom: index → router → routes → flows, openapi → api → mail, reports, http → workspace, checks → import,
// large-logs → summary → schemas, console → shared. A folder uses only those below it (and mail
// uses reports); client/, for applications, calls the routes api/ declares.
// Formatting is Prettier's job.
import tseslint from 'typescript-eslint'

const FOLDERS = [
  'index',
  'router',
  'routes',
  'openapi',
  'api',
  'flows',
  'mail',
  'reports',
  'http',
  'workspace',
  'checks',
  'import',
  'large-logs',
  'summary',
  'schemas',
  'console',
  'shared',
  'client',
]

/** The files of src/`folder` import from their own folder and `uses` only (paths as written, '../http/body'). */
const layer = (folder, uses, why) => ({
  files: [`src/${folder}/**`],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            group: FOLDERS.filter((f) => f !== folder && !uses.includes(f)).flatMap((f) => [`../${f}`, `../${f}/*`]),
            message: why,
          },
        ],
      },
    ],
  },
})

export default [
  { ignores: ['node_modules/', '.wrangler/', 'bench/results/', 'src/env.d.ts'] },
  { files: ['**/*.ts'], languageOptions: { parser: tseslint.parser } },
  layer('shared', [], 'shared/ is the bottom layer: it uses nothing else of the service'),
  layer('schemas', ['shared'], 'schemas/ use only shared/'),
  layer('console', ['shared'], 'console/ uses only shared/'),
  layer('summary', ['schemas', 'shared'], 'a summary is computed from a log alone: schemas/ and shared/ only'),
  layer(
    'large-logs',
    ['summary', 'schemas', 'shared'],
    'large-logs/ reads, checks and merges a log from its bytes alone: schemas/, summary/ and shared/ only',
  ),
  layer(
    'checks',
    ['large-logs', 'summary', 'schemas', 'shared'],
    'checks/ tell what a log holds from the log alone: large-logs/, summary/, schemas/ and shared/ only',
  ),
  layer(
    'import',
    ['schemas', 'shared'],
    'import/ reads offload files and merges them into a log, pure: schemas/ and shared/ only',
  ),
  layer(
    'workspace',
    ['import', 'large-logs', 'summary', 'schemas', 'shared'],
    'the workspace knows nothing of HTTP, mail, reports or the console: it throws Problems (shared/problem.ts)',
  ),
  layer(
    'http',
    ['schemas', 'shared'],
    'http/ turns requests into values and Problems into answers; it calls nothing of the workspace',
  ),
  layer('reports', ['checks', 'large-logs', 'summary', 'schemas', 'shared'], 'reports draw what they are given'),
  layer(
    'mail',
    ['reports', 'workspace', 'checks', 'large-logs', 'summary', 'schemas', 'shared'],
    'mail composes and sends; routes call it',
  ),
  layer(
    'flows',
    ['mail', 'reports', 'http', 'workspace', 'checks', 'large-logs', 'summary', 'schemas', 'shared'],
    'flows/ are what routes share: the token before a large body, the days of a report, a send window as it reads now',
  ),
  layer(
    'api',
    ['mail', 'schemas', 'shared'],
    'api/ declares the routes: their paths, schemas and answer shapes, nothing that runs them',
  ),
  layer('openapi', ['api', 'mail', 'schemas', 'shared'], 'openapi/ renders the declared routes as the contract'),
  layer(
    'routes',
    FOLDERS.filter((f) => !['index', 'router', 'client'].includes(f)),
    'routes are called by the router',
  ),
  layer(
    'client',
    ['api', 'schemas', 'shared'],
    'the client runs in applications: it calls the declared routes, typed by their schemas and shapes',
  ),
]
