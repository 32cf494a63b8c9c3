/**
 * A report document: pages of one size, a running header on every page after a section's first,
 * and `n / N` footers written once the page count is known. Each page's content is deflated as
 * soon as the page is full, so a 20,000-clip log never holds its whole drawing uncompressed.
 */
import { PDFDocument, type PDFPage } from 'pdf-lib'
import { Canvas, FAINT, MUTED, RULE } from './canvas'
import { deflate } from './deflate'
import { documentFonts, fontResources, type Fonts } from './fonts'
import { clip } from './text'

const PAGE_SIZES = { A4: [595.28, 841.89], Letter: [612, 792] } as const

export type PageSetup = { size: keyof typeof PAGE_SIZES; orientation: 'portrait' | 'landscape' }

export type Metadata = { title: string; subject: string; keywords: string[]; created: Date }

/** Draws the page's top band and moves the cursor below it. */
export type RunningHeader = (report: ReportDocument) => void

const encoder = new TextEncoder()

export class ReportDocument {
  readonly fonts: Fonts
  readonly width: number
  readonly height: number
  readonly margin = { top: 30, right: 30, bottom: 34, left: 30 }
  readonly #doc: PDFDocument
  readonly #pages: PDFPage[] = []
  #canvas: Canvas | undefined
  #header: RunningHeader | undefined
  y = 0

  private constructor(doc: PDFDocument, setup: PageSetup) {
    this.#doc = doc
    this.fonts = documentFonts(doc.context)
    const [short, long] = PAGE_SIZES[setup.size]
    ;[this.width, this.height] = setup.orientation === 'portrait' ? [short, long] : [long, short]
  }

  static async create(setup: PageSetup) {
    return new ReportDocument(await PDFDocument.create({ updateMetadata: false }), setup)
  }

  get canvas(): Canvas {
    return this.#canvas!
  }

  get left() {
    return this.margin.left
  }

  get right() {
    return this.width - this.margin.right
  }

  get contentWidth() {
    return this.width - this.margin.left - this.margin.right
  }

  get bottom() {
    return this.height - this.margin.bottom
  }

  /** Room left on the current page below the cursor. */
  get room() {
    return this.bottom - this.y
  }

  /** Starts a section on a fresh page: no running header on it, `header` on the pages after. */
  async section(header: RunningHeader) {
    await this.#flush()
    this.#header = header
    this.#open()
    this.y = this.margin.top
  }

  /** Continues on the next page, below the section's running header. */
  async nextPage() {
    await this.#flush()
    this.#open()
    this.y = this.margin.top
    this.#header?.(this)
  }

  /** Makes room for `height` more points, breaking the page when needed; true when it did. */
  async ensure(height: number) {
    if (this.y + height <= this.bottom) return false
    await this.nextPage()
    return true
  }

  #open() {
    const page = this.#doc.addPage([this.width, this.height])
    for (const [name, ref] of fontResources(this.fonts)) page.node.setFontDictionary(name, ref)
    this.#pages.push(page)
    this.#canvas = new Canvas(this.width, this.height)
  }

  async #flush() {
    const canvas = this.#canvas
    if (!canvas) return
    this.#canvas = undefined
    const context = this.#doc.context
    const content = context.stream(deflate(encoder.encode(canvas.toString())), { Filter: 'FlateDecode' })
    this.#pages.at(-1)!.node.addContentStream(context.register(content))
    // One page at a time: between pages the runtime serves other requests, so a 20,000-clip
    // report does not hold every other client (and its own connection's timers) for seconds.
    await new Promise((resolve) => setTimeout(resolve, 0))
  }

  /** Page numbers and the document's footer line, then fonts, metadata and the file's bytes. */
  async save(footerLeft: string, meta: Metadata): Promise<Uint8Array> {
    await this.#flush()
    const { regular } = this.fonts
    const total = this.#pages.length
    const size = 7
    const baseline = this.height - this.margin.bottom + 18
    const left = regular.run(footerLeft)
    for (let i = 0; i < total; i++) {
      const canvas = new Canvas(this.width, this.height)
      canvas.line(this.left, baseline - 10, this.right, baseline - 10, RULE, 0.5)
      canvas.text(regular, size, FAINT, this.left, baseline, clip(regular, left.text, size, this.contentWidth * 0.7))
      canvas.text(regular, size + 0.5, MUTED, this.right, baseline, regular.run(`${i + 1} / ${total}`), 'right')
      // A few hundred bytes: not worth a deflate per page.
      this.#pages[i]!.node.addContentStream(this.#doc.context.register(this.#doc.context.stream(canvas.toString())))
    }
    this.fonts.regular.embed(this.#doc.context)
    this.fonts.bold.embed(this.#doc.context)
    const doc = this.#doc
    doc.setTitle(meta.title, { showInWindowTitleBar: true })
    doc.setSubject(meta.subject)
    doc.setKeywords(meta.keywords)
    doc.setCreator('Media-Log Service')
    doc.setProducer('pdf-lib')
    doc.setCreationDate(meta.created)
    doc.setModificationDate(meta.created)
    return doc.save({ useObjectStreams: false, objectsPerTick: Infinity })
  }
}
