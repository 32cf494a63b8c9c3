import { base16, base64 } from '@scure/base'
import { wallClock } from '../shared/time-zone'
import type { Mailbox } from './address'

export type OutgoingAttachment = { filename: string; contentType: string; content: Uint8Array }

/** One e-mail, ready for a provider or for a .eml file. */
export type OutgoingMessage = {
  from: Mailbox | null
  to: string[]
  subject: string
  text: string
  html: string
  attachments: OutgoingAttachment[]
}

const CRLF = '\r\n'
const encoder = new TextEncoder()

/**
 * The whole message as RFC 5322 text: multipart/mixed holding a multipart/alternative (text, then
 * HTML, both quoted-printable UTF-8) and the attachments in base64, CRLF line endings throughout.
 * `unsent` adds `X-Unsent: 1`, which makes Outlook open the file as a draft ready to send; `zone`
 * is the project's time zone, which the Date header is written in. Date,
 * Message-ID and the boundaries (mixed, alternative) are made up unless given: a send window gives
 * them, so that its message is the same bytes each time.
 */
export function toEml(
  message: OutgoingMessage,
  options: { date?: Date; zone?: string; messageId?: string; boundaries?: [string, string]; unsent?: boolean } = {},
): string {
  const date = options.date ?? new Date()
  const domain = message.from?.address.split('@')[1] ?? 'media-log.localhost'
  const messageId = options.messageId ?? `<${crypto.randomUUID()}@${domain}>`
  const [mixed, alternative] = options.boundaries ?? [boundary(), boundary()]

  const headers = [
    // RFC 5322 wants a From; without a configured sender the mail client fills in its own account.
    message.from ? header('From', mailbox(message.from), true) : '',
    message.to.length ? header('To', message.to.join(', '), true) : '',
    header('Subject', message.subject),
    `Date: ${rfc5322Date(date, options.zone)}`,
    `Message-ID: ${messageId}`,
    'MIME-Version: 1.0',
    options.unsent ? 'X-Unsent: 1' : '',
    `Content-Type: multipart/mixed;${CRLF} boundary="${mixed}"`,
  ].filter(Boolean)

  const parts = [
    `--${mixed}`,
    `Content-Type: multipart/alternative;${CRLF} boundary="${alternative}"`,
    '',
    `--${alternative}`,
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: quoted-printable',
    '',
    quotedPrintable(message.text),
    `--${alternative}`,
    'Content-Type: text/html; charset=utf-8',
    'Content-Transfer-Encoding: quoted-printable',
    '',
    quotedPrintable(message.html),
    `--${alternative}--`,
    '',
  ]
  for (const attachment of message.attachments) {
    parts.push(
      `--${mixed}`,
      `Content-Type: ${attachment.contentType};${CRLF} ${nameParameter(attachment.filename)}`,
      `Content-Disposition: attachment;${CRLF} ${filenameParameter(attachment.filename)}`,
      'Content-Transfer-Encoding: base64',
      '',
      base64Lines(attachment.content),
    )
  }
  parts.push(`--${mixed}--`, '')
  return headers.join(CRLF) + CRLF + CRLF + parts.join(CRLF)
}

const boundary = () => `=_mls_${crypto.randomUUID().replace(/-/g, '')}`

// ---- headers

const ASCII_PRINTABLE = /^[\x20-\x7e]*$/

/**
 * A header line within 78 characters where it can be: plain ASCII folds at spaces (or commas for
 * address lists); anything else becomes RFC 2047 encoded-words of whole UTF-8 characters.
 */
function header(name: string, value: string, addressList = false): string {
  const plain = `${name}: ${value}`
  if (ASCII_PRINTABLE.test(value) && plain.length <= 78) return plain
  if (ASCII_PRINTABLE.test(value) || addressList) {
    const folded = fold(plain, addressList)
    if (folded) return folded
  }
  return `${name}: ${encodedWords(value).join(`${CRLF} `)}`
}

/** Folds at spaces; undefined when a single word is too long to fit a line (address lists keep it). */
function fold(line: string, addressList: boolean): string | undefined {
  const words = line.split(/(?<=\S) (?=\S)/)
  const lines: string[] = []
  let current = ''
  for (const word of words) {
    if (!current) current = word
    else if (current.length + 1 + word.length <= 78) current += ` ${word}`
    else {
      lines.push(current)
      current = word
    }
  }
  lines.push(current)
  if (lines.some((l) => l.length > 998)) return undefined
  return lines.every((l) => l.length <= 78) || addressList ? lines.join(`${CRLF} `) : undefined
}

/** `=?UTF-8?B?…?=` words of at most 39 bytes (64 characters), so even `Subject: ` and one fit 78. */
export function encodedWords(text: string): string[] {
  const words: string[] = []
  let chunk: number[] = []
  for (const char of text) {
    const bytes = encoder.encode(char)
    if (chunk.length + bytes.length > 39) {
      words.push(word(chunk))
      chunk = []
    }
    chunk.push(...bytes)
  }
  if (chunk.length || !words.length) words.push(word(chunk))
  return words
}

const word = (bytes: number[]) => `=?UTF-8?B?${base64.encode(new Uint8Array(bytes))}?=`

/** A display name travels as an atom, a quoted string, or encoded-words when not ASCII. */
function mailbox({ name, address }: Mailbox): string {
  if (!name) return address
  if (!ASCII_PRINTABLE.test(name)) return `${encodedWords(name).join(' ')} <${address}>`
  if (/^[A-Za-z0-9!#$%&'*+/=?^_`{|}~ -]+$/.test(name)) return `${name} <${address}>`
  return `"${name.replace(/["\\]/g, '\\$&')}" <${address}>`
}

const quoted = (value: string) => `"${value.replace(/["\\]/g, '\\$&')}"`

/** Content-Type `name`: older clients read only this; encoded-words where it is not short ASCII. */
function nameParameter(filename: string): string {
  if (ASCII_PRINTABLE.test(filename) && filename.length <= 60) return `name=${quoted(filename)}`
  return `name="${encodedWords(filename).join(`${CRLF} `)}"`
}

/**
 * Content-Disposition `filename`: short ASCII as it is, anything else as RFC 2231 percent-encoded
 * UTF-8 in numbered sections (`filename*0*=UTF-8''…; filename*1*=…`) so no line passes 78.
 */
function filenameParameter(filename: string): string {
  if (ASCII_PRINTABLE.test(filename) && filename.length <= 60) return `filename=${quoted(filename)}`
  const encoded = Array.from(encoder.encode(filename), (b) =>
    /[A-Za-z0-9!#$&+.^_`|~-]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : escaped('%', Uint8Array.of(b)),
  ).join('')
  const sections: string[] = []
  for (let at = 0; at < encoded.length;) {
    // ` filename*NN*=` + `UTF-8''` on the first + `;` leaves 56 characters, 49 on the first line.
    let end = Math.min(at + (at ? 56 : 49), encoded.length)
    // Never cut a %XX escape in two.
    const percent = encoded.lastIndexOf('%', end - 1)
    if (percent > end - 3 && percent >= at) end = percent
    sections.push(encoded.slice(at, end))
    at = end
  }
  return sections.map((part, i) => `filename*${i}*=${i ? '' : "UTF-8''"}${part}`).join(`;${CRLF} `)
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat']
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']

/**
 * `Sat, 21 Nov 2026 10:05:03 +0100`: the moment on the clocks of `zone` (the project's), with that
 * zone's offset then, as a mail client reads it. The offset is found by reading the moment's wall
 * time in the zone back as if it were UTC.
 */
export function rfc5322Date(date: Date, zone = 'UTC'): string {
  const pad = (n: number) => String(n).padStart(2, '0')
  const parts = wallClock(date, zone)
  const wall = new Date(Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second))
  // The wall time has whole seconds: the moment's milliseconds are dropped before comparing.
  const offset = Math.round((wall.getTime() - Math.floor(date.getTime() / 1000) * 1000) / 60000)
  const sign = offset < 0 ? '-' : '+'
  const hhmm = pad(Math.floor(Math.abs(offset) / 60)) + pad(Math.abs(offset) % 60)
  return `${DAYS[wall.getUTCDay()]}, ${pad(wall.getUTCDate())} ${MONTHS[wall.getUTCMonth()]} ${wall.getUTCFullYear()} ${pad(wall.getUTCHours())}:${pad(wall.getUTCMinutes())}:${pad(wall.getUTCSeconds())} ${sign}${hhmm}`
}

// ---- bodies

function base64Lines(bytes: Uint8Array): string {
  const text = base64.encode(bytes)
  const lines: string[] = []
  for (let i = 0; i < text.length; i += 76) lines.push(text.slice(i, i + 76))
  return lines.join(CRLF)
}

/**
 * RFC 2045 quoted-printable of UTF-8 text: lines of at most 76 characters with soft breaks, a
 * character's bytes never split across lines, trailing blanks encoded. A line starting with
 * `.` or `From ` is encoded too, so no relay or mailbox format can alter it.
 */
export function quotedPrintable(text: string): string {
  const out: string[] = []
  for (const line of text.replace(/\r\n?/g, '\n').split('\n')) {
    const chars = [...line]
    const tokens = chars.map((char, i) => {
      const code = char.codePointAt(0)!
      const last = i === chars.length - 1
      if ((code === 0x20 || code === 0x09) && !last) return char
      if (code >= 33 && code <= 126 && code !== 61) {
        if (i === 0 && (char === '.' || (char === 'F' && line.startsWith('From ')))) return hexOf(char)
        return char
      }
      return hexOf(char)
    })
    let current = ''
    for (const token of tokens) {
      if (current.length + token.length > 75) {
        out.push(`${current}=`)
        current = ''
      }
      current += token
    }
    out.push(current)
  }
  return out.join(CRLF)
}

const hexOf = (char: string) => escaped('=', encoder.encode(char))

/** Each byte as `prefix` and two upper-case hex digits: `=C3=A9` (quoted-printable), `%C3%A9` (RFC 2231). */
const escaped = (prefix: string, bytes: Uint8Array) => base16.encode(bytes).replace(/../g, `${prefix}$&`)
