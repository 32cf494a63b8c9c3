import { reset } from 'cloudflare:test'
import { afterEach } from 'vitest'

// Storage is isolated per file; every test here starts from an empty workspace as well.
afterEach(async () => {
  await reset()
})
