/**
 * The exports the database owner builds (`owner/store-ops.ts`), in one
 * module it loads on its first export: their messages and the workbook
 * library stay out of an owner that never exports.
 */
export { listExport } from './list-csv'
export { reconcileExport } from './reconcile-export'
export { changesExport } from './changes-export'
