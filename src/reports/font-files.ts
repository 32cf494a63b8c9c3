// Bundled as Data modules (wrangler.toml [[rules]]): the bytes arrive as an ArrayBuffer, read once per isolate.
import regular from 'dejavu-fonts-ttf/ttf/DejaVuSansCondensed.ttf'
import bold from 'dejavu-fonts-ttf/ttf/DejaVuSansCondensed-Bold.ttf'

/** DejaVu Sans Condensed (Bitstream Vera licence: free to embed): Latin, Greek, Cyrillic and many symbols. */
export const FONT_FILES: { regular: ArrayBuffer | Uint8Array; bold: ArrayBuffer | Uint8Array } = { regular, bold }
