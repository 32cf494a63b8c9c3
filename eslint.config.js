// Lint rules the compiler does not check: which folder of src/ may use which. The layers, top to
// bottom: index → router → routes → openapi → mail, reports, http → workspace, checks → import, piecewise → summary → schemas, console → shared.
// A folder uses only those below it (and mail uses reports); client/, for applications, takes the
// types of schemas/ and openapi/shapes only. Formatting is Prettier's job.
import tseslint from 'typescript-eslint'

/** `files` may not import from any of `folders` (paths as written in src/, e.g. '../http/body'). */
const only = (files, folders, why) => ({
  files,
  rules: {
    'no-restricted-imports': [
      'error',
      { patterns: [{ group: folders.flatMap((f) => [`../${f}`, `../${f}/*`]), message: why }] },
    ],
  },
})

export default [
  { ignores: ['node_modules/', '.wrangler/', 'bench/results/', 'src/env.d.ts'] },
  { files: ['**/*.ts'], languageOptions: { parser: tseslint.parser } },
  only(
    ['src/shared/**'],
    [
      'index',
      'router',
      'routes',
      'mail',
      'reports',
      'http',
      'checks',
      'import',
      'piecewise',
      'workspace',
      'summary',
      'schemas',
      'console',
    ],
    'shared/ is the bottom layer: it uses nothing else of the service',
  ),
  only(
    ['src/schemas/**', 'src/console/**'],
    [
      'index',
      'router',
      'routes',
      'openapi',
      'mail',
      'reports',
      'http',
      'checks',
      'import',
      'piecewise',
      'workspace',
      'summary',
    ],
    'schemas/ and console/ use only shared/',
  ),
  only(
    ['src/summary/**'],
    [
      'index',
      'router',
      'routes',
      'openapi',
      'mail',
      'reports',
      'http',
      'checks',
      'import',
      'piecewise',
      'workspace',
      'console',
    ],
    'a summary is computed from a log alone: schemas/ and shared/ only',
  ),
  only(
    ['src/piecewise/**'],
    ['index', 'router', 'routes', 'openapi', 'mail', 'reports', 'http', 'checks', 'import', 'workspace', 'console'],
    'piecewise/ checks a log from its bytes alone: schemas/, summary/ and shared/ only',
  ),
  only(
    ['src/checks/**'],
    ['index', 'router', 'routes', 'openapi', 'mail', 'reports', 'http', 'import', 'workspace', 'console'],
    'checks/ tell what a log holds from the log alone: piecewise/, summary/, schemas/ and shared/ only',
  ),
  only(
    ['src/import/**'],
    ['index', 'router', 'routes', 'openapi', 'mail', 'reports', 'http', 'checks', 'piecewise', 'workspace', 'console'],
    'import/ reads offload files and merges them into a log, pure: schemas/ and shared/ only',
  ),
  only(
    ['src/workspace/**'],
    ['index', 'router', 'routes', 'openapi', 'mail', 'reports', 'http', 'checks', 'console'],
    'the workspace knows nothing of HTTP, mail, reports or the console: it throws Problems (shared/problem.ts)',
  ),
  only(
    ['src/http/**'],
    ['index', 'router', 'routes', 'openapi', 'mail', 'reports', 'checks', 'workspace', 'console'],
    'http/ turns requests into values and Problems into answers; it calls nothing of the workspace',
  ),
  only(
    ['src/reports/**'],
    ['index', 'router', 'routes', 'openapi', 'mail', 'http', 'workspace', 'console'],
    'reports draw what they are given',
  ),
  only(
    ['src/mail/**'],
    ['index', 'router', 'routes', 'openapi', 'http', 'console'],
    'mail composes and sends; routes call it',
  ),
  only(
    ['src/openapi/**'],
    ['index', 'router', 'routes', 'http', 'workspace', 'console'],
    'openapi/ describes the contract from the schemas; routes serve it',
  ),
  only(['src/routes/**'], ['index', 'router', 'client'], 'routes are called by the router'),
  only(
    ['src/client/**'],
    ['index', 'router', 'routes', 'http', 'workspace', 'mail', 'reports', 'console', 'checks', 'piecewise', 'summary'],
    'the client runs in applications: it takes only the types of the schemas and the answer shapes',
  ),
]
