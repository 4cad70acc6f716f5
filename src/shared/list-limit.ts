/** Default and largest page of a list query, in rows (a module of its own: the database owner needs it, not the contract). */
export const LIST_LIMIT = { default: 50, max: 500 } as const
