// `npm run lint`: ESLint (typescript-eslint, react-hooks, jsx-a11y) with zero warnings allowed, then
// Prettier's check (.prettierrc.json). Formatting is Prettier's alone: eslint-config-prettier turns off
// the stylistic rules that would disagree with it. Prettier reads TypeScript with its `babel-ts` parser, which
// prints the same files the same way at four fifths of the CPU (docs/decisions/006-testing.md).
import js from "@eslint/js";
import prettier from "eslint-config-prettier";
import jsxA11y from "eslint-plugin-jsx-a11y";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "build/**",
      "public/build/**",
      "node_modules/**",
      "tenants/**",
      "coverage/**",
      ".cache/**",
      "bench-data/**",
      "tests/artifacts/**",
      "app/api/client.d.ts",
      "tests/fixtures/**",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
    },
  },
  {
    files: ["app/**/*.tsx"],
    ...jsxA11y.flatConfigs.recommended,
    rules: {
      ...jsxA11y.flatConfigs.recommended.rules,
      // Checked on the one <input> that takes `autoFocus` (app/components/form.tsx), not on each caller.
      "jsx-a11y/no-autofocus": ["error", { ignoreNonDOM: true }],
    },
  },
  {
    // Node's own CommonJS files (a worker thread's script, puppeteer's settings).
    files: ["**/*.cjs"],
    languageOptions: { sourceType: "commonjs" },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
  {
    // Tests read replies of any shape; a test's `any` is checked by the assertion that follows it.
    files: ["tests/**"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  {
    languageOptions: {
      globals: { ...globals.node, ...globals.browser },
    },
    rules: {
      // An argument or binding named with a leading underscore is unused on purpose.
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }],
    },
  },
  prettier,
);
