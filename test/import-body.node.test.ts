// An import body read in bytes (large-logs/scan.ts): the files' contents never become strings, and
// what comes out must be what JSON.parse and TextEncoder would have made of the same body.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { jsonStringBytes, scanImport } from '../src/large-logs/scan'
import { Problem } from '../src/shared/problem'

const encoder = new TextEncoder()
const decoder = new TextDecoder()

/** Well-formed strings of any code points, escapes and controls included. */
const text = fc.string({ unit: 'grapheme-composite', maxLength: 60 })

describe('a content read from the bytes of its JSON string', () => {
  it('is the UTF-8 of the string JSON.parse reads, however it was escaped', () => {
    fc.assert(
      fc.property(text, fc.boolean(), (s, asciiOnly) => {
        // JSON.stringify escapes only what it must; an ASCII-only writer escapes every other code unit.
        const json = asciiOnly
          ? JSON.stringify(s).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
          : JSON.stringify(s)
        expect(jsonStringBytes(encoder.encode(json), 'files.0.content')).toEqual(encoder.encode(s))
      }),
    )
  })

  it('refuses what JSON.parse refuses, and a lone surrogate, naming the content', () => {
    for (const bad of ['"a\nb"', '"\\x41"', '"\\u12"', '"\\ud800"', '"\\udc00x"', '"\\ud800\\u0041"']) {
      let thrown: unknown
      try {
        jsonStringBytes(encoder.encode(bad), 'files.3.content')
      } catch (err) {
        thrown = err
      }
      expect(thrown).toBeInstanceOf(Problem)
      expect((thrown as Problem).details?.[0]?.prop).toBe('files.3.content')
    }
  })
})

describe('an import body with its contents cut out', () => {
  it('parses to the body with every content "", and gives each content where it lies', () => {
    const file = fc.record(
      { name: text, content: text, volume: fc.constantFrom('SHUTTLE_A', 'RAID'), encoding: fc.constant('text') },
      { requiredKeys: ['name', 'content'] },
    )
    fc.assert(
      fc.property(fc.array(file, { maxLength: 5 }), fc.integer({ min: 1, max: 400 }), (files, day) => {
        const body = encoder.encode(JSON.stringify({ day, files, volume: 'X' }, null, day % 2 ? 2 : undefined))
        const { skeleton, contents } = scanImport(body)
        expect(JSON.parse(decoder.decode(skeleton))).toEqual({
          day,
          files: files.map((f) => ({ ...f, content: '' })),
          volume: 'X',
        })
        expect(contents.map((span) => decoder.decode(jsonStringBytes(body.subarray(...span!), 'c')))).toEqual(
          files.map((f) => f.content),
        )
      }),
    )
  })

  it('leaves a content that is no string in place, for the schema to refuse', () => {
    const { skeleton, contents } = scanImport(encoder.encode('{"files":[{"name":"a","content":7},"x"]}'))
    expect(decoder.decode(skeleton)).toBe('{"files":[{"name":"a","content":7},"x"]}')
    expect(contents).toEqual([undefined, undefined])
  })

  it('refuses a body JSON.parse would refuse', () => {
    for (const bad of ['{"files":[{"content":"a"}]', '{"files":[{"content":"a"}],}', '[]'])
      expect(() => scanImport(encoder.encode(bad))).toThrow(Problem)
  })

  it('takes the last of files named twice, as JSON.parse does', () => {
    const body = encoder.encode('{"files":[{"content":"a"}],"files":[{"name":"b","content":"bc"},{"content":"d"}]}')
    const { skeleton, contents } = scanImport(body)
    expect(JSON.parse(decoder.decode(skeleton))).toEqual({ files: [{ name: 'b', content: '' }, { content: '' }] })
    expect(contents.map((span) => decoder.decode(jsonStringBytes(body.subarray(...span!), 'c')))).toEqual(['bc', 'd'])
  })
})
