import type { DatabaseSync } from 'node:sqlite'

/**
 * The first schema: records with typed columns plus the raw JSON the service
 * sent (nothing is lost), per-resource sync state, and the local tables of
 * later features (review marks, wallet-link history). Every table is STRICT.
 */
export function up(db: DatabaseSync): void {
  /** The columns and indexes both record tables end with. */
  const recordTail = (table: string): string => `registered_at TEXT NOT NULL,
      modified_at TEXT,
      raw TEXT NOT NULL,
      seen_pass INTEGER NOT NULL DEFAULT 0,
      gone_at TEXT,
      stored_at TEXT NOT NULL
    ) STRICT;
    CREATE INDEX ${table}_by_time ON ${table} (registered_at, idx);
    CREATE INDEX ${table}_by_status ON ${table} (status, registered_at, idx);
    CREATE INDEX ${table}_by_member ON ${table} (ref_user_id, registered_at, idx);`
  db.exec(`
    CREATE TABLE guarantees (
      idx INTEGER PRIMARY KEY,
      status TEXT NOT NULL,
      product_name TEXT NOT NULL,
      card_url TEXT NOT NULL,
      ref_user_id TEXT,
      ref_order_id TEXT,
      ref_order_detail_id TEXT,
      ref_product_code TEXT,
      ref_category_code TEXT,
      ref_brand_code TEXT,
      ${recordTail('guarantees')}

    CREATE TABLE inspections (
      idx INTEGER PRIMARY KEY,
      inspection_num TEXT NOT NULL,
      status TEXT,
      result TEXT,
      product_name TEXT NOT NULL,
      ref_user_id TEXT NOT NULL,
      ref_order_id TEXT NOT NULL,
      ref_order_detail_id TEXT NOT NULL,
      ref_product_code TEXT NOT NULL,
      ${recordTail('inspections')}

    CREATE TABLE brands (
      idx INTEGER PRIMARY KEY,
      name TEXT NOT NULL,
      english_name TEXT NOT NULL,
      position INTEGER NOT NULL,
      raw TEXT NOT NULL,
      seen_pass INTEGER NOT NULL DEFAULT 0,
      gone_at TEXT
    ) STRICT;

    CREATE TABLE sync_state (
      resource TEXT PRIMARY KEY,
      status TEXT NOT NULL DEFAULT 'idle',
      mode TEXT,
      checkpoint TEXT,
      pass INTEGER NOT NULL DEFAULT 0,
      started_at TEXT,
      last_success_at TEXT,
      last_full_at TEXT,
      last_error TEXT,
      rejected INTEGER NOT NULL DEFAULT 0
    ) STRICT;

    CREATE TABLE review_marks (
      resource TEXT NOT NULL,
      record_idx INTEGER NOT NULL,
      mark TEXT NOT NULL,
      note TEXT,
      updated_at TEXT NOT NULL,
      PRIMARY KEY (resource, record_idx)
    ) STRICT;

    CREATE TABLE wallet_links (
      id INTEGER PRIMARY KEY,
      flow TEXT NOT NULL,
      ref_user_id TEXT NOT NULL,
      guarantee_idx INTEGER,
      outcome TEXT NOT NULL,
      detail TEXT,
      started_at TEXT NOT NULL,
      ended_at TEXT
    ) STRICT;
  `)
}
