import type { Config } from "tailwindcss";

// Risk colours live here once so every badge, border and bar uses the same three hues.
const config: Config = {
  content: ["./app/**/*.{ts,tsx}", "./components/**/*.{ts,tsx}"],
  theme: {
    extend: {
      colors: {
        risk: {
          pass: "#22c55e",
          review: "#f59e0b",
          reject: "#ef4444",
        },
        surface: {
          DEFAULT: "#0f1115",
          raised: "#161a20",
          sunken: "#0b0d10",
          line: "#262b33",
        },
      },
      fontFamily: {
        sans: ["ui-sans-serif", "system-ui", "-apple-system", "Segoe UI", "Roboto", "sans-serif"],
        mono: ["ui-monospace", "SFMono-Regular", "Menlo", "Consolas", "monospace"],
      },
    },
  },
};

export default config;
