import pkg from '../../package.json'
import { workspace } from '../workspace/client'

const API_VERSION = '0.1.0'

/** Liveness for scripts and the start command, and whether a project is loaded: no token needed. */
export const ping = async (_request: Request, env: Env) => ({
  status: 'ok',
  active: await workspace(env).hasActiveProject(),
})

export const version = () => ({ version: { app: pkg.version, api: API_VERSION } })
