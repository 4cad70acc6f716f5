import type { DatabaseSync } from 'node:sqlite'

/**
 * Counts that never scan, and what the list queries need to choose a plan:
 *
 * - `list_counts`: not-gone records per (list, status, review mark), and
 *   `list_day_counts` the same per registration day (`YYYY-MM-DD`, the
 *   first ten characters of `registered_at`, `''` when none), so tabs,
 *   badges, totals and a date range are sums over a few small rows. A
 *   record without a status has `has_status = 0` and `status = ''`; `mark`
 *   is `reviewed`, `follow_up` (any mark but `none`), or `''` for no mark or
 *   `none`. Rows may hold `n = 0`.
 * - `list_order`: per list, how many neighbours in `idx` order have their
 *   registration times the other way round. While it is 0 (the service
 *   numbers records as it registers them), `idx` order is the list's
 *   `(registered_at, idx)` order, and a query may walk the FTS index by rowid.
 * - `review_marks_by_mark`: the records with a given mark, without a scan.
 * - `<list>_fts_terms`: the FTS vocabulary, to spell a one-character prefix
 *   as the few terms it stands for.
 *
 * Triggers keep all of it in the same transaction as the rows, whichever
 * statement writes them (insert, upsert, status change, gone and back,
 * delete; a mark set, changed or cleared). The tables are filled here for
 * an existing database. Self-contained: imports nothing of the app.
 */
export function up(db: DatabaseSync): void {
  db.exec(`
    CREATE TABLE list_counts (
      resource TEXT NOT NULL,
      has_status INTEGER NOT NULL,
      status TEXT NOT NULL,
      mark TEXT NOT NULL,
      n INTEGER NOT NULL,
      PRIMARY KEY (resource, has_status, status, mark)
    ) STRICT, WITHOUT ROWID;
    CREATE TABLE list_day_counts (
      resource TEXT NOT NULL,
      day TEXT NOT NULL,
      has_status INTEGER NOT NULL,
      status TEXT NOT NULL,
      mark TEXT NOT NULL,
      n INTEGER NOT NULL,
      PRIMARY KEY (resource, day, has_status, status, mark)
    ) STRICT, WITHOUT ROWID;
    CREATE TABLE list_order (
      resource TEXT PRIMARY KEY,
      inversions INTEGER NOT NULL
    ) STRICT;
    CREATE INDEX review_marks_by_mark ON review_marks (resource, mark, record_idx);
  `)
  for (const list of ['guarantees', 'inspections']) {
    db.exec(listTriggers(list) + markTriggers(list))
    db.exec(`
      CREATE VIRTUAL TABLE ${list}_fts_terms USING fts5vocab(${list}_fts, 'row');
      INSERT INTO list_counts (resource, has_status, status, mark, n)
        SELECT '${list}', t.status IS NOT NULL, ifnull(t.status, ''), ${markOf('r.mark')}, count(*)
        FROM ${list} t LEFT JOIN review_marks r ON r.resource = '${list}' AND r.record_idx = t.idx
        WHERE t.gone_at IS NULL GROUP BY 2, 3, 4;
      INSERT INTO list_day_counts (resource, day, has_status, status, mark, n)
        SELECT '${list}', substr(t.registered_at, 1, 10), t.status IS NOT NULL, ifnull(t.status, ''),
          ${markOf('r.mark')}, count(*)
        FROM ${list} t LEFT JOIN review_marks r ON r.resource = '${list}' AND r.record_idx = t.idx
        WHERE t.gone_at IS NULL GROUP BY 2, 3, 4, 5;
      INSERT INTO list_order (resource, inversions)
        SELECT '${list}', count(*) FROM (
          SELECT registered_at > lead(registered_at) OVER (ORDER BY idx) AS inverted FROM ${list}
        ) WHERE inverted;
    `)
  }
}

/** The counted mark of a `review_marks.mark` value (NULL: no row). */
function markOf(mark: string): string {
  return `CASE WHEN ${mark} IS NULL OR ${mark} = 'none' THEN '' ELSE ${mark} END`
}

/** Adds `delta` to the cells of one record (`row`: `NEW` or `OLD` of the list, `mark` its counted mark). */
function bump(list: string, row: string, mark: string, delta: 1 | -1, when = 'true'): string {
  const key = `${row}.status IS NOT NULL, ifnull(${row}.status, ''), ${mark}`
  return `
    INSERT INTO list_counts (resource, has_status, status, mark, n)
      SELECT '${list}', ${key}, ${delta} WHERE ${when}
      ON CONFLICT DO UPDATE SET n = n + ${delta};
    INSERT INTO list_day_counts (resource, day, has_status, status, mark, n)
      SELECT '${list}', substr(${row}.registered_at, 1, 10), ${key}, ${delta} WHERE ${when}
      ON CONFLICT DO UPDATE SET n = n + ${delta};`
}

/** The counted mark of list row `row` (`NEW` or `OLD`), from `review_marks`. */
function storedMark(list: string, row: string): string {
  return `(SELECT ${markOf('max(mark)')} FROM review_marks
    WHERE resource = '${list}' AND record_idx = ${row}.idx)`
}

/** Registration time of the neighbour of `row` below (`<`) or above (`>`) it in idx order. */
function neighbour(list: string, row: string, side: '<' | '>'): string {
  return `(SELECT registered_at FROM ${list} WHERE idx ${side} ${row}.idx
    ORDER BY idx ${side === '<' ? 'DESC' : 'ASC'} LIMIT 1)`
}

/** Inversions between a record registered at `at` and its neighbours `b` (below) and `a` (above). */
function around(at: string): string {
  return `ifnull(b > ${at}, 0) + ifnull(${at} > a, 0)`
}

/**
 * Adds the change in inversions to `list_order`, the neighbours of `row`
 * read once; `delta` is written over them (`b`, `a`). Nothing is written
 * when it is 0, the usual case.
 */
function orderChange(list: string, row: string, delta: string): string {
  return `
    UPDATE list_order SET inversions = inversions + d.n
    FROM (SELECT ${delta} AS n FROM (SELECT ${neighbour(list, row, '<')} AS b, ${neighbour(list, row, '>')} AS a)) d
    WHERE resource = '${list}' AND d.n <> 0;`
}

function listTriggers(list: string): string {
  const mark = (row: string): string => storedMark(list, row)
  return `
    CREATE TRIGGER ${list}_insert AFTER INSERT ON ${list} BEGIN
      ${bump(list, 'NEW', mark('NEW'), 1, 'NEW.gone_at IS NULL')}
      ${orderChange(list, 'NEW', `${around('NEW.registered_at')} - ifnull(b > a, 0)`)}
    END;
    CREATE TRIGGER ${list}_counts_update AFTER UPDATE OF status, gone_at, registered_at ON ${list}
    WHEN OLD.status IS NOT NEW.status OR (OLD.gone_at IS NULL) <> (NEW.gone_at IS NULL)
      OR substr(OLD.registered_at, 1, 10) IS NOT substr(NEW.registered_at, 1, 10)
    BEGIN
      ${bump(list, 'OLD', mark('OLD'), -1, 'OLD.gone_at IS NULL')}
      ${bump(list, 'NEW', mark('NEW'), 1, 'NEW.gone_at IS NULL')}
    END;
    CREATE TRIGGER ${list}_order_update AFTER UPDATE OF registered_at ON ${list}
    WHEN OLD.registered_at IS NOT NEW.registered_at BEGIN
      ${orderChange(list, 'NEW', `(${around('NEW.registered_at')}) - (${around('OLD.registered_at')})`)}
    END;
    CREATE TRIGGER ${list}_delete AFTER DELETE ON ${list} BEGIN
      ${bump(list, 'OLD', mark('OLD'), -1, 'OLD.gone_at IS NULL')}
      ${orderChange(list, 'OLD', `ifnull(b > a, 0) - (${around('OLD.registered_at')})`)}
    END;`
}

/** Moves a marked record between mark cells; only a stored, not-gone record counts. */
function markTriggers(list: string): string {
  const row = `(SELECT status, registered_at FROM ${list} WHERE idx = %IDX% AND gone_at IS NULL)`
  const move = (idx: string, from: string, to: string): string => {
    const source = row.replace('%IDX%', idx)
    return `
      INSERT INTO list_counts (resource, has_status, status, mark, n)
        SELECT '${list}', r.status IS NOT NULL, ifnull(r.status, ''), m.mark, m.delta
        FROM ${source} r, (SELECT ${from} AS mark, -1 AS delta UNION ALL SELECT ${to}, 1) m WHERE true
        ON CONFLICT DO UPDATE SET n = n + excluded.n;
      INSERT INTO list_day_counts (resource, day, has_status, status, mark, n)
        SELECT '${list}', substr(r.registered_at, 1, 10), r.status IS NOT NULL, ifnull(r.status, ''),
          m.mark, m.delta
        FROM ${source} r, (SELECT ${from} AS mark, -1 AS delta UNION ALL SELECT ${to}, 1) m WHERE true
        ON CONFLICT DO UPDATE SET n = n + excluded.n;`
  }
  return `
    CREATE TRIGGER review_marks_${list}_insert AFTER INSERT ON review_marks
    WHEN NEW.resource = '${list}' AND ${markOf('NEW.mark')} <> '' BEGIN
      ${move('NEW.record_idx', "''", markOf('NEW.mark'))}
    END;
    CREATE TRIGGER review_marks_${list}_update AFTER UPDATE OF mark, resource, record_idx ON review_marks
    WHEN (OLD.resource = '${list}' OR NEW.resource = '${list}')
      AND (OLD.resource IS NOT NEW.resource OR OLD.record_idx IS NOT NEW.record_idx
        OR ${markOf('OLD.mark')} <> ${markOf('NEW.mark')}) BEGIN
      ${move(`(CASE WHEN OLD.resource = '${list}' THEN OLD.record_idx END)`, markOf('OLD.mark'), "''")}
      ${move(`(CASE WHEN NEW.resource = '${list}' THEN NEW.record_idx END)`, "''", markOf('NEW.mark'))}
    END;
    CREATE TRIGGER review_marks_${list}_delete AFTER DELETE ON review_marks
    WHEN OLD.resource = '${list}' AND ${markOf('OLD.mark')} <> '' BEGIN
      ${move('OLD.record_idx', markOf('OLD.mark'), "''")}
    END;`
}
