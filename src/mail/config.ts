import { parseMailbox, type Mailbox } from './address'

const PROVIDERS = ['resend', 'postmark', 'sendgrid', 'custom'] as const
export type ProviderName = (typeof PROVIDERS)[number]

/** Delivery settings from `.dev.vars`, read per request so a changed file needs no new code path. */
export type MailConfig = {
  provider: ProviderName | null
  from: Mailbox | null
  apiKey: string
  apiUrl: string
  /** Why a named provider cannot send yet, in the operator's words; null when it can. */
  problem: string | null
}

/** What the console may know about delivery: never the key. */
export type Delivery = {
  provider: ProviderName | null
  configured: boolean
  from: string | null
  problem: string | null
}

export function mailConfig(env: Env): MailConfig {
  const name = (env.EMAIL_PROVIDER ?? '').trim().toLowerCase()
  const apiKey = (env.EMAIL_API_KEY ?? '').trim()
  const apiUrl = (env.EMAIL_API_URL ?? '').trim()
  const fromText = (env.EMAIL_FROM ?? '').trim()
  const from = fromText ? parseMailbox(fromText) : null
  if (!name) return { provider: null, from, apiKey, apiUrl, problem: null }
  if (!(PROVIDERS as readonly string[]).includes(name)) {
    return { provider: null, from, apiKey, apiUrl, problem: `EMAIL_PROVIDER must be one of ${PROVIDERS.join(', ')}` }
  }
  const provider = name as ProviderName
  return { provider, from, apiKey, apiUrl, problem: problemOf(provider, fromText, from, apiKey, apiUrl) }
}

function problemOf(
  provider: ProviderName,
  fromText: string,
  from: Mailbox | null,
  apiKey: string,
  apiUrl: string,
): string | null {
  if (!fromText) return 'EMAIL_FROM is not set: add the sender address to .dev.vars'
  if (!from) return 'EMAIL_FROM is not a valid address such as "DIT <dit@example.com>"'
  // A custom endpoint may take no credentials (a relay on the local network).
  if (!apiKey && provider !== 'custom') return 'EMAIL_API_KEY is not set: add the provider’s API key to .dev.vars'
  if (provider === 'custom' && !apiUrl) return 'EMAIL_API_URL is not set: the custom provider needs the URL to post to'
  if (apiUrl && (provider === 'custom' || provider === 'sendgrid') && !isHttpUrl(apiUrl))
    return 'EMAIL_API_URL must be an http or https URL'
  return null
}

function isHttpUrl(text: string) {
  try {
    const url = new URL(text)
    return url.protocol === 'https:' || url.protocol === 'http:'
  } catch {
    return false
  }
}

export const deliveryOf = (config: MailConfig): Delivery => ({
  provider: config.provider,
  configured: config.provider !== null && config.problem === null,
  from: config.from ? formatMailbox(config.from) : null,
  problem: config.problem,
})

export const formatMailbox = ({ name, address }: Mailbox) => (name ? `${name} <${address}>` : address)
