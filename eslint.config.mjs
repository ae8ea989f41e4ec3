// @ts-check
// Lint for the whole repository, configured once: typescript-eslint's type-checked recommendations
// over the sources, with Prettier (eslint-config-prettier) owning every formatting question.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    // Generated (codegen.yml, `npm run openapi:examples`, `npm run migration:create`), built, or
    // outside the scope; a migration is never edited once committed, so it is not linted either.
    ignores: [
      'dist/**',
      'node_modules/**',
      'coverage/**',
      '**/generated/**',
      'rest-compat/openapi/examples.ts',
      'src/persistence/migrations/**',
    ],
  },
  {
    files: ['{src,rest-compat,test,scripts,bench}/**/*.ts', 'console/src/**/*.{ts,tsx}'],
    extends: [js.configs.recommended, ...tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
  },
  {
    // Tests and benchmarks read HTTP and GraphQL answers as the JSON the description documents
    // (`res.body.data.order.status`) and assert it exactly; typing every answer would restate the
    // schema in each test, and a wrong field fails the assertion anyway.
    files: ['test/**/*.ts', 'bench/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  prettier,
);
