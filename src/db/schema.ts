// The database schema, one file a concept in src/db/tables/: drizzle-kit reads it from here
// (drizzle.config.ts), and the stores import their tables from here.
export * from './tables/accounts.ts'
export * from './tables/programs.ts'
export * from './tables/tracking.ts'
export * from './tables/ledger.ts'
export * from './tables/sessions.ts'
export * from './tables/rollups.ts'
export * from './tables/outbox.ts'
export * from './tables/imports.ts'
