import pkg from '../../package.json'

export const API_VERSION = '0.1.0'

/** Liveness for scripts and the start command: no token needed. */
export const ping = () => ({ status: 'ok' })

export const version = () => ({ version: { app: pkg.version, api: API_VERSION } })
