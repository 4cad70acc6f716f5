import type { BrandRow, Brand } from '../../../shared/domain'
import { BRAND_FIELDS } from '../../../shared/record-fields'
import { createRanker, foldForSearch } from '../../text/hangul-search'
import type { StoreConnection, StoredBrand } from '../connection'
import { listedRow } from '../schema/stored-raw'
import { dataVersion } from '../data-version'

/**
 * The stored brand list as the app searches it: the brand search box
 * ({@link searchBrands}) and the brand aliases a record search adds
 * ({@link brandAliases}, used by `list-queries.ts`).
 */

/**
 * The other names of a brand the query names exactly (any case, accents and
 * spacing aside): its Korean name for its English one and back, so `chanel`
 * also finds products named `샤넬 …`. Empty when the query names no brand.
 */
export function brandAliases(db: StoreConnection, query: string): string[] {
  const folded = foldForSearch(query)
  if (folded.length < 2) return []
  const aliases = new Set<string>()
  for (const brand of storedBrands(db)) {
    if (foldForSearch(brand.englishName) === folded) aliases.add(brand.name.trim())
    else if (foldForSearch(brand.name) === folded) aliases.add(brand.englishName.trim())
  }
  aliases.delete('')
  return [...aliases].filter((alias) => foldForSearch(alias) !== folded).slice(0, 4)
}

/** The stored brand list in the service's order, read once per data version. */
function storedBrands(db: StoreConnection): StoredBrand[] {
  const version = dataVersion(db)
  const hit = db.brands
  if (hit?.version === version) return hit.rows
  const rows = db
    .prepare(
      `SELECT ${BRAND_FIELDS.map((f) => `b.${f.column}`).join(', ')},
         (SELECT count(*) FROM brands s WHERE s.name = b.name AND s.gone_at IS NULL) AS same
       FROM brands b WHERE b.gone_at IS NULL ORDER BY b.position`,
    )
    .all()
    .map((r) => ({ ...listedRow<Brand>('brands', BRAND_FIELDS, r), same: Number(r['same']) }))
  db.brands = { version, rows }
  return rows
}

/**
 * Stored brands matching `query` (Korean, 초성 or English, accents aside),
 * best first: exact names, then names starting with it, then 초성 matches,
 * then matches inside a name; the service's order within each rank.
 */
export function searchBrands(
  db: StoreConnection,
  query: string,
): { items: BrandRow[]; total: number } {
  const rows = storedBrands(db)
  const rank = createRanker(query)
  const items = rows
    .map((row, position) => ({ row, position, rank: rank(row.name, row.englishName) }))
    .filter((entry) => entry.rank !== null)
    .sort((a, b) => a.rank! - b.rank! || a.position - b.position)
    .map(({ row }) => ({
      idx: row.idx,
      name: row.name,
      englishName: row.englishName,
      sameNameCount: row.same,
    }))
  return { items, total: rows.length }
}
