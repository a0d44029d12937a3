// ESLint with typescript-eslint's type-aware rules. Prettier owns layout (eslint-config-prettier turns
// off every rule it would fight). `projectService` types each file with its nearest tsconfig.json: the
// service's for src/, test/, bench/ and scripts/, console/tsconfig.json for the console.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'build/**', 'node_modules/**', 'console/dist/**'] },
  {
    files: ['src/**/*.{ts,tsx}', 'test/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts', 'console/src/**/*.{ts,tsx}'],
    extends: [js.configs.recommended, ...tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // node:test's test() and describe() return promises the runner itself awaits.
      '@typescript-eslint/no-floating-promises': [
        'error',
        { allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['test', 'describe', 'it', 'suite'] }] },
      ],
      // A leading underscore marks a binding kept on purpose (a field left out of a rest copy, a fixed signature).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      // `async` without `await` is how hooks, handlers and drivers here meet a promise-returning contract:
      // it also turns a synchronous throw into a rejection, which callers of those contracts expect.
      '@typescript-eslint/require-await': 'off',
      // It calls an assertion unnecessary when the assertion is what infers a generic's type
      // (`res.json() as T`, `Object.fromEntries(…) as R`): its fix then widens the value to any.
      '@typescript-eslint/no-unnecessary-type-assertion': 'off',
      // Values of unknown type are shown with String() on purpose (echoed input in messages, exports);
      // `unknown ?? ''` types as `{}`, which the rule takes for an object. Templates stay checked.
      '@typescript-eslint/no-base-to-string': 'off',
      // A `let` assigned once after a closure that reads it (a logger that exists later) cannot be const.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      // The driver's version depends on the Node.js line (src/store/sqlite/sqlite-driver.ts): a direct
      // import would load better-sqlite3 12 on Node.js 24, whose destructors can abort the process at exit.
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'better-sqlite3', allowTypeImports: true, message: 'Use BetterSqlite3 from src/store/sqlite/sqlite-driver.ts.' }],
        },
      ],
    },
  },
  {
    // Tests read response bodies as untyped JSON and check the wire shape by asserting on it; typing
    // them would assert the shape by cast instead.
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  {
    // Plain JavaScript build and test-runner helpers: no tsconfig covers them, so untyped rules only.
    files: ['scripts/**/*.mjs', 'bin/*.js'],
    extends: [js.configs.recommended],
    languageOptions: { globals: globals.node },
  },
  prettier,
);
