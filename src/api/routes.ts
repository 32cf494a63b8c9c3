/**
 * The service's routes, declared once. Each names its method and path, who may call it, the
 * schema its body is validated with, the shape of its answer, the refusals it can give, and an
 * example. The router binds a handler to each (router.ts), GET /openapi.json is built from them
 * (openapi/document.ts), and the typed client calls them by name (client/index.ts).
 *
 * The order is the router's: the table is tried from the top, one pattern match per route of the
 * request's method, so the routes clients call all day come first.
 */
import { LOG_ROUTES } from './log-routes'
import { OPERATOR_ROUTES } from './operator-routes'
import { PROJECT_ROUTES } from './project-routes'
import type { Route } from './route'
import { UNIT_ROUTES } from './unit-routes'
import { WATCH_ROUTES } from './watch-routes'

export { ID, type Route, type Who } from './route'

export const ROUTES = {
  ...LOG_ROUTES,
  ...PROJECT_ROUTES,
  ...OPERATOR_ROUTES,
  ...UNIT_ROUTES,
  ...WATCH_ROUTES,
} as const satisfies Record<string, Route>

export type RouteName = keyof typeof ROUTES
