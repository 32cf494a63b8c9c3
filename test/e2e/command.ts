/**
 * `media-log` (bin/media-log.mjs) run as a shell runs it, against a service, with a token folder of
 * the test's own: its exit status (or the signal that ended it) and what it wrote.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { join, resolve } from 'node:path'

export const COMMAND = join(resolve(import.meta.dirname, '../..'), 'bin', 'media-log.mjs')

export type Run = { status: number | null; signal?: NodeJS.Signals; stdout: string; stderr: string }

export type RunOptions = {
  /** The service it is pointed at (MEDIA_LOG_URL). */
  base: string
  /** The token folder (MEDIA_LOG_CONFIG_DIR). */
  configDir: string
  /** Added to the environment; `undefined` removes a variable. PORT is removed unless given. */
  env?: Record<string, string | undefined>
  /** The program and the arguments before `args`: the command, unless said. */
  argv0?: string[]
  /** Gets the child as soon as it runs (to signal it). */
  onStarted?: (child: ChildProcess) => void
}

export function runCommand(
  args: string[],
  { base, configDir, env = {}, argv0 = [process.execPath, COMMAND], onStarted }: RunOptions,
): Promise<Run> {
  const environment: Record<string, string | undefined> = {
    ...process.env,
    MEDIA_LOG_CONFIG_DIR: configDir,
    MEDIA_LOG_URL: base,
    PORT: undefined,
    ...env,
  }
  for (const [name, value] of Object.entries(environment)) if (value === undefined) delete environment[name]
  return new Promise<Run>((done) => {
    const child = spawn(argv0[0]!, [...argv0.slice(1), ...args], {
      env: environment as NodeJS.ProcessEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d) => (stdout += d))
    child.stderr.on('data', (d) => (stderr += d))
    child.on('close', (status, signal) => done({ status, ...(signal && { signal }), stdout, stderr }))
    onStarted?.(child)
  })
}
