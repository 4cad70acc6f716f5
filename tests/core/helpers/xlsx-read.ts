import { strFromU8, unzipSync } from 'fflate'

/** One cell as a spreadsheet reads it back from the workbook's XML. */
export interface ReadCell {
  /** `s` (shared text), `n` (number, also a date), or another cell type Excel knows. */
  readonly type: string
  readonly value: string | number
  /** The cell's number format (`@` for text, `yyyy-mm-dd hh:mm:ss` for a date), or undefined. */
  readonly format: string | undefined
  readonly bold: boolean
  readonly formula: boolean
}

const decode = (text: string): string =>
  text
    .replace(/&lt;/gu, '<')
    .replace(/&gt;/gu, '>')
    .replace(/&quot;/gu, '"')
    .replace(/&apos;/gu, "'")
    .replace(/&amp;/gu, '&')

const attribute = (tag: string, name: string): string | undefined =>
  new RegExp(`\\s${name}="([^"]*)"`, 'u').exec(tag)?.[1]

/** Unzips a workbook and reads its first sheet into cells by address, with its parts. */
export function readBack(bytes: Buffer) {
  const files = unzipSync(new Uint8Array(bytes))
  const part = (name: string): string => {
    const data = files[name]
    if (!data) throw new Error(`no ${name} in the workbook`)
    return strFromU8(data)
  }
  const sheet = part('xl/worksheets/sheet1.xml')
  const shared = [
    ...part('xl/sharedStrings.xml').matchAll(/<si><t[^>]*>([\s\S]*?)<\/t><\/si>/gu),
  ].map((m) => decode(m[1] ?? ''))
  const styles = part('xl/styles.xml')
  const formats = new Map(
    [...styles.matchAll(/<numFmt numFmtId="(\d+)" formatCode="([^"]*)"\/>/gu)].map((m) => [
      m[1],
      decode(m[2] ?? ''),
    ]),
  )
  const fonts = [
    ...(/<fonts[^>]*>([\s\S]*?)<\/fonts>/u.exec(styles)?.[1] ?? '').matchAll(
      /<font>([\s\S]*?)<\/font>/gu,
    ),
  ].map((m) => (m[1] ?? '').includes('<b/>'))
  const xfs = [
    ...(/<cellXfs[^>]*>([\s\S]*?)<\/cellXfs>/u.exec(styles)?.[1] ?? '').matchAll(/<xf\b[^>]*>/gu),
  ].map((m) => m[0])
  const cells = new Map<string, ReadCell>()
  for (const m of sheet.matchAll(/<c\b([^>]*?)(?:\/>|>([\s\S]*?)<\/c>)/gu)) {
    const tag = m[1] ?? ''
    const inner = m[2] ?? ''
    const address = attribute(tag, 'r') ?? ''
    const type = attribute(tag, 't') ?? 'n'
    const xf = xfs[Number(attribute(tag, 's') ?? 0)] ?? ''
    const raw = decode(/<v>([\s\S]*?)<\/v>/u.exec(inner)?.[1] ?? '')
    cells.set(address, {
      type,
      value: type === 's' ? (shared[Number(raw)] ?? '') : Number(raw),
      format: formats.get(attribute(xf, 'numFmtId') ?? ''),
      bold: fonts[Number(attribute(xf, 'fontId') ?? 0)] ?? false,
      formula: /<f[\s>]/u.test(inner),
    })
  }
  return { files, sheet, cells, part }
}
