/**
 * Writing systems of a name, to mark look-alikes: "Dаytalog" with a Cyrillic "а" looks exactly
 * like "Daytalog" in the console. Following Unicode's restriction levels (UTS #39, "highly
 * restrictive"), a name may use one script, or Han with the Japanese or Korean scripts, each of
 * them alongside Latin; any other mix is marked. Digits, marks and punctuation belong to every
 * script.
 */
const SCRIPTS = [
  'Latin',
  'Greek',
  'Cyrillic',
  'Armenian',
  'Hebrew',
  'Arabic',
  'Devanagari',
  'Thai',
  'Georgian',
  'Cherokee',
  'Han',
  'Hiragana',
  'Katakana',
  'Hangul',
] as const
type Script = (typeof SCRIPTS)[number]

const LETTER_OF = SCRIPTS.map((script) => [script, new RegExp(`\\p{Script=${script}}`, 'u')] as const)
const LETTER = /\p{L}/u

/** Mixes a reader knows: Japanese (Han, kana) and Korean (Han, Hangul), each with Latin. */
const ALLOWED_MIXES: ReadonlySet<Script>[] = [
  new Set(['Latin', 'Han', 'Hiragana', 'Katakana']),
  new Set(['Latin', 'Han', 'Hangul']),
]

/** The scripts of `name`'s letters when they are a mix that can pass for another name; else []. */
export function mixedScripts(name: string): string[] {
  const found = new Set<string>()
  for (const char of name) {
    if (!LETTER.test(char)) continue
    const script = LETTER_OF.find(([, pattern]) => pattern.test(char))
    found.add(script ? script[0] : 'other')
  }
  if (found.size < 2) return []
  if (ALLOWED_MIXES.some((mix) => [...found].every((s) => mix.has(s as Script)))) return []
  return [...found]
}
