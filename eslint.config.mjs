// House rules that tools enforce (npm run lint, inside npm test).
import js from "@eslint/js";
import nextPlugin from "@next/eslint-plugin-next";
import boundaries from "eslint-plugin-boundaries";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      ".next/**",
      "node_modules/**",
      "lib/db/generated/**",
      "test-results/**",
      "playwright-report/**",
      "e2e/.artifacts/**",
      "public/**",
      "data/**",
      "next-env.d.ts",
      "bench/results/**",
      "bench/floor/next/**",
    ],
  },
  { linterOptions: { reportUnusedDisableDirectives: "error" } },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx,mts,cts}"],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // A promise nobody awaits loses its errors; mark the deliberate ones with `void`.
      "@typescript-eslint/no-floating-promises": ["error", { ignoreVoid: false }],
      "@typescript-eslint/no-misused-promises": ["error", { checksVoidReturn: { attributes: false } }],
      // A double cast silences the type checker: allowed only with an eslint-disable comment saying why.
      "no-restricted-syntax": [
        "error",
        {
          selector: "TSAsExpression > TSAsExpression[typeAnnotation.type='TSUnknownKeyword']",
          message: "`as unknown as` hides a type error: narrow the value, or disable this rule for the line with `-- why`.",
        },
        {
          // The studio's own errors may come from the other copy of lib/ that Next loads (lib/errors/errors.ts).
          selector:
            "BinaryExpression[operator='instanceof'][right.name=/Error$/]:not([right.name=/^(Error|TypeError|RangeError|SyntaxError|ProtocolError|SdkError|SdkHttpError|APIError|RunRequestError|ApiError)$/])",
          message: "Tell a StudioError by `X.isInstance(err)`: instanceof fails across the two copies of lib/ that Next loads.",
        },
      ],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none", ignoreRestSiblings: true }],
      "@typescript-eslint/no-explicit-any": "error",
    },
  },
  {
    files: ["**/*.{js,mjs,cjs}"],
    languageOptions: {
      globals: { process: "readonly", console: "readonly", URL: "readonly", setTimeout: "readonly", clearTimeout: "readonly", Buffer: "readonly" },
    },
  },
  {
    files: ["app/**/*.{ts,tsx}", "components/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks, "@next/next": nextPlugin },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "error",
      ...nextPlugin.configs.recommended.rules,
      ...nextPlugin.configs["core-web-vitals"].rules,
    },
    settings: { next: { rootDir: import.meta.dirname } },
  },
  // The config file is reached through the studio (studio.config.store), never beside it.
  {
    files: ["app/**/*.{ts,tsx}", "components/**/*.{ts,tsx}"],
    rules: {
      "no-restricted-imports": [
        "error",
        { paths: [{ name: "@/lib/config/store", importNames: ["getConfigStore"], message: "Use (await getStudio()).config.store." }] },
      ],
    },
  },
  // Process-wide state has one home (lib/process/slots.ts), the only module that touches globalThis.
  {
    files: ["lib/**/*.{ts,tsx}", "app/**/*.{ts,tsx}", "components/**/*.{ts,tsx}", "scripts/**/*.{ts,mjs}", "proxy.ts", "instrumentation.ts"],
    ignores: ["lib/process/slots.ts", "**/*.test.ts", "**/*.test.tsx"],
    rules: { "no-restricted-globals": ["error", { name: "globalThis", message: "Keep process-wide state in a slot of lib/process/slots.ts (processSlot)." }] },
  },
  // The rooms of the house (docs/ARCHITECTURE.md): lib/ is the core and imports only lib/;
  // components/ take props and import lib/ (never app/); only app/ wires them together; test
  // helpers live with the tests, never in lib/.
  {
    files: ["**/*.{ts,tsx,mjs}"],
    plugins: { boundaries },
    settings: {
      "boundaries/elements": [
        { type: "lib", pattern: ["lib/*", "lib/**/*"], partialMatch: false },
        { type: "app", pattern: ["app/*", "app/**/*"], partialMatch: false },
        { type: "components", pattern: ["components/*", "components/**/*"], partialMatch: false },
        { type: "tests", pattern: ["tests/*", "tests/**/*"], partialMatch: false },
        { type: "e2e", pattern: ["e2e/*", "e2e/**/*"], partialMatch: false },
        { type: "bench", pattern: ["bench/*", "bench/**/*"], partialMatch: false },
        { type: "scripts", pattern: ["scripts/*", "scripts/**/*"], partialMatch: false },
        { type: "root", pattern: "*.{ts,mjs}", partialMatch: false },
      ],
      "boundaries/include": ["lib/**", "app/**", "components/**", "tests/**", "e2e/**", "bench/**", "scripts/**", "*.ts", "*.mjs"],
      "import/resolver": { typescript: { alwaysTryTypes: true } },
    },
    rules: {
      "boundaries/dependencies": [
        "error",
        {
          default: "disallow",
          policies: [
            { from: { element: { type: "lib" } }, allow: { to: { element: { type: "lib" } } } },
            { from: { element: { type: "components" } }, allow: { to: { element: { types: { anyOf: ["components", "lib"] } } } } },
            { from: { element: { type: "app" } }, allow: { to: { element: { types: { anyOf: ["app", "components", "lib"] } } } } },
            { from: { element: { type: "tests" } }, allow: { to: { element: { types: { anyOf: ["tests", "lib", "app", "components"] } } } } },
            { from: { element: { type: "e2e" } }, allow: { to: { element: { types: { anyOf: ["e2e", "lib"] } } } } },
            { from: { element: { type: "bench" } }, allow: { to: { element: { types: { anyOf: ["bench", "lib", "tests"] } } } } },
            { from: { element: { type: "scripts" } }, allow: { to: { element: { types: { anyOf: ["scripts", "lib"] } } } } },
            { from: { element: { type: "root" } }, allow: { to: { element: { type: "lib" } } } },
          ],
        },
      ],
    },
  },
  {
    // A test beside its module may use the test helpers (a real database, real servers); the module never imports them.
    files: ["lib/**/*.test.ts"],
    rules: {
      "boundaries/dependencies": [
        "error",
        { default: "disallow", policies: [{ from: { element: { type: "lib" } }, allow: { to: { element: { types: { anyOf: ["lib", "tests"] } } } } }] },
      ],
    },
  },
  {
    // A component's test beside it renders it against an in-process studio (tests/helpers/render.tsx).
    files: ["components/**/*.test.tsx"],
    rules: {
      "boundaries/dependencies": [
        "error",
        {
          default: "disallow",
          policies: [{ from: { element: { type: "components" } }, allow: { to: { element: { types: { anyOf: ["components", "lib", "tests"] } } } } }],
        },
      ],
    },
  },
);
