import PostalMime from 'postal-mime'
import { describe, expect, it } from 'vitest'
import { encodedWords, quotedPrintable, rfc5322Date, toEml, type OutgoingMessage } from '../src/mail/mime'

const pdf = (n: number) => new TextEncoder().encode(`%PDF-1.7\n${'x'.repeat(n)}\n%%EOF\n`)

function message(overrides: Partial<OutgoingMessage> = {}): OutgoingMessage {
  return {
    from: { name: 'DIT Cart', address: 'dit@example.com' },
    to: ['producer@example.com'],
    subject: 'Day 1',
    text: 'Hello',
    html: '<p>Hello</p>',
    attachments: [],
    ...overrides,
  }
}

const linesOf = (raw: string) => raw.split('\r\n')

/** Parses as a mail client would; postal-mime keeps the part's closing line break, hence the trim. */
async function roundTrip(m: OutgoingMessage) {
  const raw = toEml(m, { date: new Date(Date.UTC(2024, 0, 1, 20, 15, 7)), messageId: '<fixed@example.com>' })
  expect(raw).not.toMatch(/[^\r]\n|\r(?!\n)/)
  for (const line of linesOf(raw)) expect(line.length, line).toBeLessThanOrEqual(78)
  const parsed = await PostalMime.parse(raw)
  return { raw, parsed, text: parsed.text?.replace(/\n$/, ''), html: parsed.html?.replace(/\n$/, '') }
}

describe('.eml writer', () => {
  it('writes the headers a mail client needs', async () => {
    const { raw, parsed } = await roundTrip(message())
    expect(linesOf(raw).slice(0, 9)).toEqual([
      'From: DIT Cart <dit@example.com>',
      'To: producer@example.com',
      'Subject: Day 1',
      'Date: Mon, 01 Jan 2024 20:15:07 +0000',
      'Message-ID: <fixed@example.com>',
      'MIME-Version: 1.0',
      expect.stringMatching(/^Content-Type: multipart\/mixed;$/),
      expect.stringMatching(/^ boundary="=_mls_[0-9a-f]{32}"$/),
      '',
    ])
    expect(parsed).toMatchObject({
      subject: 'Day 1',
      messageId: '<fixed@example.com>',
      date: '2024-01-01T20:15:07.000Z',
      from: { name: 'DIT Cart', address: 'dit@example.com' },
    })
  })

  it('writes the same bytes for the same message once date, Message-ID and boundaries are given', async () => {
    const options = {
      date: new Date(Date.UTC(2024, 0, 1, 20, 15, 7)),
      messageId: '<0123456789abcdef0123456789abcdef@example.com>',
      boundaries: ['=_mls_' + 'a'.repeat(32), '=_mls_' + 'b'.repeat(32)] as [string, string],
    }
    const m = message({ attachments: [{ filename: 'day1.pdf', contentType: 'application/pdf', content: pdf(300) }] })
    const raw = toEml(m, options)
    expect(toEml(m, options)).toBe(raw)
    expect(raw).toContain(`Content-Type: multipart/mixed;\r\n boundary="=_mls_${'a'.repeat(32)}"`)
    expect(raw).toContain(`Content-Type: multipart/alternative;\r\n boundary="=_mls_${'b'.repeat(32)}"`)
    const parsed = await PostalMime.parse(raw)
    expect(parsed.attachments.map((a) => new Uint8Array(a.content as ArrayBuffer))).toEqual([pdf(300)])
    // Without them, each file is its own message.
    expect(toEml(m)).not.toBe(toEml(m))
  })

  it('keeps any text intact through quoted-printable: long lines, =, trailing blanks, accents, emoji, dots', async () => {
    const text = [
      'x'.repeat(200),
      'a = b, c == d, =3D stays literal',
      'trailing spaces   ',
      'trailing tab\t',
      'é'.repeat(90),
      `${'y'.repeat(74)}é and an emoji 🎬 across the soft break ${'🎞️'.repeat(30)}`,
      '.a line starting with a dot',
      'From the set, with love',
      '',
      '   leading spaces',
      'Ünïcödé – 日本語 – Ελληνικά – кириллица',
    ].join('\n')
    const { text: decoded, raw } = await roundTrip(message({ text, html: `<pre>${text}</pre>` }))
    expect(decoded).toBe(text)
    expect(raw).toContain('\r\n=2Ea line starting with a dot\r\n')
    expect(raw).toContain('\r\n=46rom the set, with love\r\n')
    // No line ends in a blank a relay could strip.
    for (const line of linesOf(raw)) expect(line).not.toMatch(/[ \t]$/)
  })

  it('never cuts a character\u2019s bytes across a soft line break', () => {
    for (const line of quotedPrintable('é'.repeat(100) + '€'.repeat(100)).split('\r\n')) {
      expect(line.length).toBeLessThanOrEqual(76)
      expect(line.replace(/=$/, '')).toMatch(/^(?:=C3=A9|=E2=82=AC)*$/)
    }
  })

  it('encodes subjects outside ASCII as encoded-words of whole characters, short enough to fold', async () => {
    const subject = 'Überstunden genehmigt ✓ – 日本語の件名もきちんと届くように長くしておきます – Ελληνικά 🎬🎬🎬'
    const words = encodedWords(subject)
    for (const word of words) {
      expect(word).toMatch(/^=\?UTF-8\?B\?[A-Za-z0-9+/=]+\?=$/)
      expect(word.length).toBeLessThanOrEqual(64)
      // Each word decodes on its own: no character is split between two words.
      expect(() =>
        new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(
          Uint8Array.from(atob(word.slice(10, -2)), (c) => c.charCodeAt(0)),
        ),
      ).not.toThrow()
    }
    expect((await roundTrip(message({ subject }))).parsed.subject).toBe(subject)
  })

  it('folds a long ASCII subject at spaces and one without spaces as encoded-words', async () => {
    const spaced = 'NightShoot Day 12 wrapped: ' + 'all cards backed up and verified '.repeat(5).trim()
    const { raw, parsed } = await roundTrip(message({ subject: spaced }))
    expect(parsed.subject).toBe(spaced)
    expect(raw).toMatch(/^Subject: NightShoot Day 12 wrapped: all cards.*\r\n /m)
    const unbroken = 'x'.repeat(120)
    expect((await roundTrip(message({ subject: unbroken }))).parsed.subject).toBe(unbroken)
  })

  it('writes display names as atoms, quoted strings or encoded-words, and lists many recipients', async () => {
    const to = Array.from({ length: 12 }, (_, i) => `recipient.number${i}@production.example.com`)
    for (const [name, line] of [
      ['DIT Cart', 'From: DIT Cart <dit@example.com>'],
      ['Doe, Jane "DIT"', 'From: "Doe, Jane \\"DIT\\"" <dit@example.com>'],
      ['Jürgen Dörr', expect.stringMatching(/^From: =\?UTF-8\?B\?[^?]+\?= <dit@example\.com>$/)],
    ] as const) {
      const { raw, parsed } = await roundTrip(message({ from: { name, address: 'dit@example.com' }, to }))
      expect(linesOf(raw)[0]).toEqual(line)
      expect(parsed.from).toEqual({ name, address: 'dit@example.com' })
      expect(parsed.to?.map((a) => a.address)).toEqual(to)
    }
  })

  it('leaves From out when no sender is configured', async () => {
    const { raw, parsed } = await roundTrip(message({ from: null }))
    expect(raw).not.toMatch(/^From:/m)
    expect(parsed.from).toBeUndefined()
  })

  it('attaches PDFs in base64 lines of 76 with their names, also long and non-ASCII ones', async () => {
    const names = [
      'NightShoot_20240101_D01_clips.pdf',
      `Café Noir – 撮影日 ${'長い名前'.repeat(12)}.pdf`,
      `${'long_ascii_name_'.repeat(6)}.pdf`,
    ]
    const files = names.map((filename, i) => ({ filename, contentType: 'application/pdf', content: pdf(3000 + i) }))
    const { raw, parsed } = await roundTrip(message({ attachments: files }))
    expect(parsed.attachments.map((a) => [a.filename, a.mimeType, a.disposition])).toEqual(
      names.map((n) => [n, 'application/pdf', 'attachment']),
    )
    parsed.attachments.forEach((a, i) => expect(new Uint8Array(a.content as ArrayBuffer)).toEqual(files[i]!.content))
    const body = raw.slice(raw.indexOf('Content-Transfer-Encoding: base64'))
    const base64 = linesOf(body)
      .slice(2)
      .filter((l) => /^[A-Za-z0-9+/=]+$/.test(l))
    // Full lines of 76, except the last line of each attachment.
    expect(base64.every((l) => l.length <= 76)).toBe(true)
    expect(base64.filter((l) => l.length < 76).length).toBeLessThanOrEqual(files.length)
    expect(base64.length).toBeGreaterThan(3 * 50)
    expect(raw).toContain(`Content-Disposition: attachment;\r\n filename="NightShoot_20240101_D01_clips.pdf"`)
    expect(raw).toContain(`Content-Disposition: attachment;\r\n filename*0*=UTF-8''Caf%C3%A9%20Noir%20%E2%80%93%20`)
  })

  it('formats dates as RFC 5322 wants them, in UTC', () => {
    expect(rfc5322Date(new Date(Date.UTC(2026, 10, 21, 9, 5, 3)))).toBe('Sat, 21 Nov 2026 09:05:03 +0000')
  })

  it("writes the date on the project's clocks, with that zone's offset on that day", () => {
    const winter = new Date(Date.UTC(2026, 10, 21, 23, 30, 9, 750))
    const summer = new Date(Date.UTC(2026, 6, 1, 4, 0, 0))
    // Berlin: +0100 in winter (already Sunday there), +0200 in summer.
    expect(rfc5322Date(winter, 'Europe/Berlin')).toBe('Sun, 22 Nov 2026 00:30:09 +0100')
    expect(rfc5322Date(summer, 'Europe/Berlin')).toBe('Wed, 01 Jul 2026 06:00:00 +0200')
    // West of Greenwich, a day behind; half-hour zones keep their minutes.
    expect(rfc5322Date(summer, 'America/Los_Angeles')).toBe('Tue, 30 Jun 2026 21:00:00 -0700')
    expect(rfc5322Date(winter, 'Asia/Kolkata')).toBe('Sun, 22 Nov 2026 05:00:09 +0530')
    expect(rfc5322Date(winter, 'UTC')).toBe('Sat, 21 Nov 2026 23:30:09 +0000')
    // The same moment whatever the zone: a mail client reading any of them shows one time.
    for (const zone of ['Europe/Berlin', 'America/Los_Angeles', 'Asia/Kolkata'])
      expect(Date.parse(rfc5322Date(winter, zone))).toBe(Date.parse(rfc5322Date(winter)))
  })
})
