import { defineConfig } from 'drizzle-kit'

// drizzle-kit reads the schema and writes plain SQL migrations into db/migrations;
// `bun db/embed.ts` then embeds them into src/db/migrations.gen.ts for the compiled binary.
export default defineConfig({
  dialect: 'sqlite',
  schema: './src/db/schema.ts',
  out: './db/migrations',
})
