// Tailwind v4 runs as a PostCSS plugin; the legacy JS config is loaded from globals.css via @config.
export default {
  plugins: { "@tailwindcss/postcss": {} },
};
