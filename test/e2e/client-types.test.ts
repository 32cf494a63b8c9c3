/**
 * The typed client as another project compiles it: a consumer with the package linked in
 * (`npm install /path/to/media-log-service` makes that link), under `moduleResolution` `nodenext`
 * and `bundler`, with its own strict options. A well-typed use compiles; a log with a field of the
 * wrong type does not.
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const ROOT = resolve(import.meta.dirname, '../..')
const TSC = join(ROOT, 'node_modules/.bin/tsc')
const made: string[] = []
// The declarations as this tree's source makes them now, not as the last install left them.
beforeAll(
  () => execFileSync(process.execPath, [join(ROOT, 'scripts/build-client.mjs'), '--types-only'], { stdio: 'inherit' }),
  60_000,
)
afterAll(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })))

const GOOD = `import { MediaLogClient, MediaLogError, type LogInput } from 'media-log-service/client'

const client = await MediaLogClient.connect({ appName: 'Consumer', baseUrl: 'http://localhost:5252' })
const day: LogInput = {
  id: 'D001',
  day: 1,
  date: '2024-03-01',
  ocf: { copies: ['RAID'], clips: [{ clip: 'A001C001', size: 12, copies: [{ volume: 'RAID', hash: null }], ei: 800 }] },
}
await client.createLog(day)
await client.patchLog('D001', { unit: '2nd Unit' })
const { summary } = await client.checks('D001')
const errors: number = summary.errors
const pdf: Uint8Array = await client.logPdf('D001', 'clp01')
try {
  await client.generatePdf({ presetId: 'clp01', logId: ['D001'] })
} catch (err) {
  if (err instanceof MediaLogError) console.log(err.status, err.details.map((d) => d.prop), errors, pdf.length)
}
`

/** A consumer project compiled with `tsc`: its diagnostics, empty when it compiles. */
function compile(resolution: 'nodenext' | 'bundler', main: string): string {
  const dir = mkdtempSync(join(tmpdir(), `client-${resolution}-`))
  made.push(dir)
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', type: 'module', private: true }))
  mkdirSync(join(dir, 'node_modules'))
  symlinkSync(ROOT, join(dir, 'node_modules/media-log-service'), 'dir')
  const module = resolution === 'nodenext' ? 'nodenext' : 'esnext'
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        module,
        moduleResolution: resolution,
        target: 'es2022',
        lib: ['es2022', 'dom'],
        types: [],
        strict: true,
        noEmit: true,
        // Declarations are not checked themselves (slow), but one that failed to resolve would
        // type the client `any`, and the wrong log below would compile.
        skipLibCheck: true,
      },
      files: ['main.ts'],
    }),
  )
  writeFileSync(join(dir, 'main.ts'), main)
  try {
    execFileSync(TSC, ['-p', dir], { encoding: 'utf8' })
    return ''
  } catch (err) {
    return (err as { stdout: string }).stdout
  }
}

describe('the client in a consumer project', () => {
  for (const resolution of ['nodenext', 'bundler'] as const) {
    it(`compiles under moduleResolution ${resolution}, and refuses a log field of the wrong type`, () => {
      expect(compile(resolution, GOOD)).toBe('')
      const errors = compile(resolution, GOOD.replace("date: '2024-03-01',", ''))
      expect(errors).toMatch(/main\.ts\(\d+,\d+\): error TS2322:[\s\S]*Property 'date' is missing/)
      expect(compile(resolution, GOOD.replace('size: 12', "size: '12'"))).toMatch(
        /main\.ts\(\d+,\d+\): error TS2322: Type 'string' is not assignable to type 'number'/,
      )
    }, 60_000)
  }
})
