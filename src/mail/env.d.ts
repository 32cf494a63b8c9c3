// EMAIL_API_KEY is a secret, never in wrangler.toml, so `npm run types` does not see it. Declared
// as wrangler would declare it from a .dev.vars, so both declarations agree; unset, it is undefined.
declare namespace Cloudflare {
  interface Env {
    EMAIL_API_KEY: string
  }
}
