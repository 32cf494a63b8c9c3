import * as v from 'valibot'
import { isAddress } from './address'

const MAX_RECIPIENTS = 50 // Resend's and Postmark's limit per message
const MAX_SUBJECT = 998 // RFC 5322 line limit
const MAX_MESSAGE = 100_000
const MAX_ATTACHMENTS = 20

const Address = v.pipe(
  v.string('must be a string'),
  v.trim(),
  v.check(isAddress, 'must be a valid e-mail address such as name@example.com'),
)

/** A window's `fingerprint` as its listing gives it. */
const Fingerprint = v.pipe(
  v.string('must be a string: the window’s fingerprint'),
  v.regex(/^[0-9a-f]{64}$/, 'must be the window’s fingerprint as listed: 64 hexadecimal digits'),
)

/** PATCH /approve/windows/:id: what the operator may change in a send window. */
export const WindowEditSchema = v.strictObject(
  {
    recipients: v.optional(
      v.pipe(
        v.array(Address, 'must be an array of e-mail addresses'),
        v.maxLength(MAX_RECIPIENTS, `must name at most ${MAX_RECIPIENTS} recipients`),
        v.transform((list) => [...new Map(list.map((a) => [a.toLowerCase(), a])).values()]),
      ),
    ),
    subject: v.optional(
      v.pipe(
        v.string('must be a string'),
        v.trim(),
        v.minLength(1, 'must not be empty'),
        v.maxLength(MAX_SUBJECT, `must be at most ${MAX_SUBJECT} characters`),
        v.check((s) => !/[\u0000-\u001f\u007f]/.test(s), 'must be one line without control characters'),
      ),
    ),
    message: v.optional(
      v.pipe(v.string('must be a string'), v.maxLength(MAX_MESSAGE, `must be at most ${MAX_MESSAGE} characters`)),
    ),
    attachments: v.optional(
      v.pipe(
        v.array(
          v.pipe(
            v.string('must be a string'),
            v.minLength(1, 'must not be empty'),
            v.maxLength(100, 'must be at most 100 characters'),
          ),
          'must be an array of PDF preset ids',
        ),
        v.maxLength(MAX_ATTACHMENTS, `must name at most ${MAX_ATTACHMENTS} attachments`),
      ),
    ),
    seen: v.optional(Fingerprint),
  },
  'must be an object with recipients, subject, message, attachments or seen',
)

/**
 * POST /approve/windows/:id/send: the fingerprint of the message as the operator saw it (SPEC §11).
 * Required: a send that names no message could send one nobody looked at.
 */
export const WindowSendSchema = v.strictObject(
  { fingerprint: Fingerprint },
  'must be an object with the fingerprint of the window as shown: {"fingerprint": "…"}',
)
