import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "sqlite",
  schema: "./db/platform.ts",
  out: "./migrations/platform",
});
