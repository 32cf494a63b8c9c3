// npm run bench:durability
//
// An acknowledged write is never lost (SPEC §2), also when the process is killed right after the
// answer. Starts the service as npm start does, on its own port and state; two applications get
// tokens through approval; 100 logs go into two projects (the second one active at the end), ten
// writers at a time, some big enough to span several rows. The moment the last answer arrives,
// workerd and its node parent get SIGKILL. The service is started again on the same state and
// must have every log exactly as sent, the active project and both tokens. Prints `100/100`;
// exits non-zero otherwise.
import { pathToFileURL } from 'node:url'
import { api, approvedToken, makeLog, startServer } from './client.mjs'

const TOTAL = 100

/** Log i of the run: 20 clips, every tenth one 1,000 (about 0.9 MB, stored in several rows). */
const logFor = (i) => makeLog(`D${String(i).padStart(3, '0')}`, i % 10 === 0 ? 1000 : 20, i)

export async function checkDurability({ port = 5730, print = console.log } = {}) {
  let server = await startServer({ kind: 'start', port })
  const key = server.operatorKey()
  const state = server.state
  const sent = new Map()
  try {
    let request = api(server.base)
    const offload = await approvedToken(request, key, 'Offload Tool (durability)')
    const dashboard = await approvedToken(request, key, 'Dashboard (durability)')
    const first = await request('POST', '/project/create', { token: offload, body: { project_name: 'Durability A' } })

    // Ten writers share the work; the one that gets the last answer kills the service at once.
    let acknowledged = 0
    let killed
    const write = async (token, ids) => {
      const queue = [...ids]
      await Promise.all(
        Array.from({ length: 10 }, async () => {
          for (let i; (i = queue.shift()) !== undefined;) {
            const text = JSON.stringify(logFor(i))
            await request('POST', '/log', { token, text })
            sent.set(logFor(i).id, { text, project: i <= TOTAL / 2 ? 'Durability A' : 'Durability B' })
            if (++acknowledged === TOTAL) killed = server.kill()
          }
        }),
      )
    }
    await write(
      offload,
      Array.from({ length: TOTAL / 2 }, (_, i) => i + 1),
    )
    await request('POST', '/project/create', { token: dashboard, body: { project_name: 'Durability B' } })
    await write(
      dashboard,
      Array.from({ length: TOTAL / 2 }, (_, i) => TOTAL / 2 + i + 1),
    )
    const workerd = await killed
    print(
      `${acknowledged} writes acknowledged; workerd (pid ${workerd}) and its node parent (pid ${server.pid}) killed with SIGKILL right after the last answer`,
    )

    server = await startServer({ kind: 'start', port, state })
    request = api(server.base)
    print(`restarted on the same state (pid ${server.pid})`)

    const problems = []
    const active = await request('GET', '/project', { token: offload, ok: false })
    if (active.status !== 200) problems.push(`the first token answers ${active.status} after the restart`)
    else if (active.body.project_name !== 'Durability B')
      problems.push(`the active project is ${active.body.project_name}, not Durability B`)
    const second = await request('GET', '/project', { token: dashboard, ok: false })
    if (second.status !== 200) problems.push(`the second token answers ${second.status} after the restart`)
    const { tokens } = await request('GET', '/approve/tokens', { headers: { 'x-operator-key': key } })
    const apps = tokens.map((t) => t.appName).sort()
    if (apps.join() !== 'Dashboard (durability),Offload Tool (durability)')
      problems.push(`the console lists ${JSON.stringify(apps)}`)

    // Every log, compared as text with what was sent, first in the active project, then in the other.
    let found = 0
    const compare = async (project) => {
      const { logs } = await request('GET', '/logs', { token: offload })
      const byId = new Map(logs.map((log) => [log.id, log]))
      for (const [id, { text, project: owner }] of sent) {
        if (owner !== project) continue
        const log = byId.get(id)
        if (log && JSON.stringify(log) === text) found++
        else problems.push(`${id} ${log ? 'differs from what was sent' : 'is missing'} in ${project}`)
      }
      if (logs.length !== TOTAL / 2) problems.push(`${project} lists ${logs.length} logs, not ${TOTAL / 2}`)
    }
    await compare('Durability B')
    await request('POST', '/project/load', { token: offload, body: { path: first.path } })
    await compare('Durability A')
    if (sent.size !== TOTAL) problems.push(`only ${sent.size} writes were sent`)

    print(
      `${found}/${TOTAL} logs found intact; active project ${active.body?.project_name ?? '(none)'}; tokens ${apps.length}/2`,
    )
    for (const problem of problems) print(`  ${problem}`)
    return {
      found,
      total: TOTAL,
      activeProject: active.body?.project_name,
      apps,
      problems,
      ok: found === TOTAL && problems.length === 0,
    }
  } finally {
    await server.stop({ keepState: false })
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const port = Number(process.env.PORT ?? 5730)
  const result = await checkDurability({ port })
  console.log(result.ok ? `${result.found}/${result.total}` : `FAILED: ${result.found}/${result.total}`)
  process.exitCode = result.ok ? 0 : 1
}
