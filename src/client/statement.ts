// The statement verifier of this package's `./statement` export. The statement format is a ledger
// fact: it lives in src/domain/statement.ts, where the server, the `svc` CLI and the `/verify` page
// import it too, so that all four check a statement with the same code.
export * from '../domain/statement.js'
