// The service as the README's "Deploying to Cloudflare" sets it up: `wrangler deploy` builds its
// bundle, and that bundle, served with the deploy configuration (OPERATOR_KEY as a secret,
// ALLOWED_HOSTS naming the worker's own host), takes an application through approval and a log
// round trip when reached by that name, and refuses any other name.
import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { ONE_CLIP_LOG, copyOfTree, launch, type Launched } from './launch'
import { approvedToken, jsonCaller } from './server'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const WRANGLER = join(ROOT, 'node_modules', 'wrangler', 'bin', 'wrangler.js')
const HOST = 'media-log.example-production.workers.dev'
const PORT = 5631

const tree = copyOfTree()
const out = mkdtempSync(join(tmpdir(), 'media-log-deploy-'))
let service: Launched | undefined

afterAll(async () => {
  await service?.stop()
  tree.remove()
  rmSync(out, { recursive: true, force: true })
})

describe('deployed as the README says', () => {
  it('builds with wrangler deploy --dry-run', { timeout: 120_000 }, () => {
    execFileSync(process.execPath, [WRANGLER, 'deploy', '--dry-run', '--outdir', out], {
      cwd: tree.dir,
      env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CI: '1' },
      stdio: 'pipe',
    })
    expect(existsSync(join(out, 'index.js'))).toBe(true)
    expect(statSync(join(out, 'index.js')).size).toBeGreaterThan(100_000)
  })

  it(
    'answers its own host name: approval and a log round trip; other names refused',
    { timeout: 120_000 },
    async () => {
      writeFileSync(join(tree.dir, '.dev.vars'), `OPERATOR_KEY=deploy-operator-key-0123456789\nALLOWED_HOSTS=${HOST}\n`)
      service = await launch('start', { dir: tree.dir, port: PORT, state: join(tree.dir, '.wrangler', 'state') })
      const call = jsonCaller(service, HOST)
      const token = await approvedToken(call)
      expect((await call('POST', '/project/create', { token, body: { project_name: 'Deployed' } })).status).toBe(201)
      expect(await call('POST', '/log', { token, body: ONE_CLIP_LOG })).toEqual({
        status: 201,
        body: { success: true },
      })
      expect(await call('GET', '/log/D001', { token })).toEqual({ status: 200, body: ONE_CLIP_LOG })

      const elsewhere = jsonCaller(service, 'media-log.example-attacker.dev')
      expect(await elsewhere('GET', '/logs', { token })).toEqual({ status: 403, body: { error: 'Host not allowed' } })
    },
  )
})
