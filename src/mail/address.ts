export type Mailbox = { name: string; address: string }

// Deliberately plain: one local part, one domain with a dot, nothing that needs quoting in a header.
const ADDRESS =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$/

export const isAddress = (text: string) => text.length <= 254 && ADDRESS.test(text)

/** `DIT Cart <dit@example.com>`, `"Doe, Jane" <j@example.com>` or a bare address; null when neither. */
export function parseMailbox(text: string): Mailbox | null {
  const trimmed = text.trim()
  const angle = /^(.*?)\s*<([^<>\s]+)>$/.exec(trimmed)
  if (angle) {
    const name = angle[1]!
      .trim()
      .replace(/^"(.*)"$/, '$1')
      .replace(/\\(.)/g, '$1')
    const address = angle[2]!
    // Control characters in a display name would break the header they go into.
    return isAddress(address) && !/[\u0000-\u001f\u007f]/.test(name) ? { name, address } : null
  }
  return isAddress(trimmed) ? { name: '', address: trimmed } : null
}
