// ESLint for efuda's browser code: one dialect (ECMAScript 2022) across static/js/.
// The entry form's and the outbox's scripts are ES modules (entry*.js, outbox*.js, logout.js,
// and the phone's scoring, scoring-core.js);
// entry-head.js stays a classic script (it must run in <head> before the page paints, which a
// module cannot), and so do the service worker (not every phone starts module workers) and the
// small deferred page scripts. Vendored files are not ours.
import js from "@eslint/js";
import globals from "globals";

const shared = {
  ...js.configs.recommended.rules,
  "no-var": "error",
  "prefer-const": "error",
  "prefer-arrow-callback": "error",
  "object-shorthand": ["error", "properties"],
  eqeqeq: ["error", "always"],
  "no-implicit-globals": "error",
  "no-unused-vars": ["error", { caughtErrors: "none" }],
  "no-empty": ["error", { allowEmptyCatch: true }],
  curly: ["error", "multi-line"]
};

export default [
  { ignores: ["static/vendor/**", "node_modules/**", "staticfiles/**"] },
  {
    files: ["static/js/**/*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "script", globals: { ...globals.browser } },
    rules: shared
  },
  {
    files: ["static/js/entry*.js", "static/js/outbox*.js", "static/js/logout.js", "static/js/scoring-core.js"],
    ignores: ["static/js/entry-head.js"],
    languageOptions: { sourceType: "module" }
  },
  {
    files: ["static/js/entry-preview.js"],
    languageOptions: { globals: { Idiomorph: "readonly" } }
  },
  {
    files: ["static/js/sw.js"],
    languageOptions: { globals: { ...globals.serviceworker } },
    rules: { "no-implicit-globals": "off" } // a worker's top level is its own scope
  },
  {
    files: ["tests/js/**/*.js", "eslint.config.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: { ...globals.node } },
    rules: shared
  }
];
