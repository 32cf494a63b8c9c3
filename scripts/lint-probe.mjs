// The layer rule proved on files that are not there: each probe is linted as if it sat at its path
// in src/, and must fail (or, for the controls, pass) for the layer reason. Nothing is written.
import { ESLint } from 'eslint'
import tseslint from 'typescript-eslint'

const RULE = 'boundaries/dependencies'

/** @type {Array<[path: string, code: string, mustFail: boolean]>} where the probe pretends to be, what it says, whether the layer rule must stop it */
const PROBES = [
  [
    'src/checks/deep/probe.ts',
    "import { workspaceOf } from '../../workspace/client'\nexport const probe = workspaceOf\n",
    true,
  ],
  ['src/checks/deep/er/probe.ts', "export * from '../../../workspace/client'\n", true],
  ['src/shared/deep/probe.ts', "export const load = () => import('../../http/body')\n", true],
  ['src/client/deep/probe.ts', "import type { Env } from '../../workspace/Workspace'\nexport type Probe = Env\n", true],
  ['src/http/probe.ts', "import { workspaceOf } from '../workspace/client'\nexport const probe = workspaceOf\n", true],
  ['src/checks/deep/probe.ts', "import { Problem } from '../../shared/problem'\nexport const probe = Problem\n", false],
  [
    'src/routes/deep/probe.ts',
    "import { workspaceOf } from '../../workspace/client'\nexport const probe = workspaceOf\n",
    false,
  ],
]

// The probes are in no tsconfig: they are linted without the type-checked rules, which are not
// what they prove.
const eslint = new ESLint({ overrideConfig: { ...tseslint.configs.disableTypeChecked, files: ['src/**/*.ts'] } })
let wrong = 0
for (const [filePath, code, mustFail] of PROBES) {
  const [result] = await eslint.lintText(code, { filePath })
  const messages = result?.messages ?? []
  const stopped = messages.some((m) => m.ruleId === RULE)
  const other = messages.filter((m) => m.ruleId !== RULE && m.severity === 2)
  if (stopped !== mustFail || other.length > 0) {
    wrong++
    console.error(`lint probe ${filePath}: ${code.split('\n')[0]}`)
    console.error(`  expected ${mustFail ? 'the layer rule to stop it' : 'no layer error'}, got:`)
    for (const m of messages) console.error(`  ${m.ruleId ?? 'fatal'}: ${m.message}`)
  }
}
if (wrong > 0) {
  console.error(`${wrong} of ${PROBES.length} lint probes wrong: the layer rule does not hold`)
  process.exit(1)
}
console.log(`${PROBES.length} lint probes: crossings stopped, allowed imports pass`)
