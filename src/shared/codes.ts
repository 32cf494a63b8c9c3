/** Codes people read aloud and type, made from the platform's CSPRNG in any runtime: the client's too. */

/** Letters and digits a person reads aloud without doubt (Crockford's base 32: no I, L, O, U). */
const CODE_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'

/**
 * A code a person reads and types, from the platform's CSPRNG: `groups` of four characters, five
 * random bits each, joined by dashes. The approval code an application shows is two groups (40
 * bits, `7KQM-2XPD`); a production's link code four (80 bits).
 */
export function readableCode(groups: number): string {
  const chars = Array.from(crypto.getRandomValues(new Uint8Array(groups * 4)), (byte) => CODE_ALPHABET[byte & 31]!)
  return Array.from({ length: groups }, (_, g) => chars.slice(g * 4, g * 4 + 4).join('')).join('-')
}
