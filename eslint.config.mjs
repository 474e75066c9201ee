import js from "@eslint/js";
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";

export default tseslint.config(
  { ignores: ["node_modules/", ".next/", ".data/", ".scratch/", ".test-results/", "tests/.media/", "next-env.d.ts", "test-results/", "playwright-report/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { "react-hooks": reactHooks },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "warn",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "no-restricted-syntax": ["error", { selector: "CallExpression[callee.property.name='waitForTimeout']", message: "wait for a condition, not a fixed sleep" }],
    },
  },
  {
    // Next bundles route handlers and pages: a value import of server code would pull the engine (workers, ffmpeg, models) into the bundle
    files: ["app/**/*.ts", "app/**/*.tsx", "components/**/*.ts", "components/**/*.tsx"],
    rules: {
      "@typescript-eslint/no-restricted-imports": ["error", { patterns: [{ group: ["@/server/*", "!@/server/registry", "!@/server/auth", "@/server/auth/*", "!@/server/auth/guard"], allowTypeImports: true, message: "reach server objects through @/server/registry (type imports are fine; route handlers wrap themselves in @/server/auth/guard)" }] }],
    },
  },
  { files: ["**/*.mjs", "**/*.cjs"], languageOptions: { globals: { process: "readonly", console: "readonly" } } },
);
