import { handle } from './router'

export { Workspace } from './workspace/Workspace'

export default { fetch: handle } satisfies ExportedHandler<Env>
