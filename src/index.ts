import { router } from './router'

export { Workspace } from './workspace/Workspace'

export default { fetch: router.fetch } satisfies ExportedHandler<Env>
