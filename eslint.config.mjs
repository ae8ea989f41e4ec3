// @ts-check
// Lint for the whole repository, configured once: typescript-eslint's type-checked recommendations
// over the sources, with Prettier (eslint-config-prettier) owning every formatting question.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

const placeholderList =
  'Bind the list as one array parameter (`= any(?::text[])`, rows as one jsonb array): a placeholder per element makes a statement text per list length.';

// Any arrow function that returns placeholders, as `.map` or `Array.from({ length })` call it.
const placeholderSelectors = [
  { selector: 'ArrowFunctionExpression > Literal.body[value=/[?]/]', message: placeholderList },
  { selector: 'ArrowFunctionExpression > TemplateLiteral.body > TemplateElement[value.raw=/[?]/]', message: placeholderList },
];

const sqlOutsideQueries =
  'SQL lives in its module\'s `<m>.queries.ts` (typed rows, one function per statement; docs/architecture.md, "SQL"): call that function, or the ORM.';
// `em.execute(sql)` / `em.getConnection().execute(sql)` with a statement (a string, a template or a
// constant); a call with an object (a chain intent, an approval) or qb.execute('all') is not one.
const sqlCallSelectors = [
  {
    selector: "CallExpression[callee.property.name='execute'][arguments.0.type=/^(TemplateLiteral|Identifier|BinaryExpression)$/]",
    message: sqlOutsideQueries,
  },
  { selector: "CallExpression[callee.property.name='execute'][arguments.0.type='Literal'][arguments.0.value=/\\s/]", message: sqlOutsideQueries },
];

/**
 * Where SQL may be written: each module's queries files, and the infrastructure below the modules,
 * each for its reason.
 */
const SQL_FILES = [
  // A module's statements, one function each with its typed row (split by aggregate past 300 lines).
  'src/modules/*/*.queries.ts',
  // rawRows and the plain transaction themselves.
  'src/persistence/raw-query.ts',
  'src/persistence/raw-transaction.ts',
  // The event log is the outbox: appended in the writer's transaction, drained by the relay in
  // plain transactions, read back by the event feed in its order.
  'src/events/event-log.ts',
  'src/events/relay.ts',
  'src/transports/graphql/event-feed.ts',
  // Ids are drawn from PostgreSQL sequences.
  'src/common/ids.ts',
  // The operational gauges of /metrics read the state of queues and the register (the relay's lag,
  // pending deliveries, the chain's difference, unanswered audit rows).
  'src/ops/state-gauges.ts',
  // Readiness asks the database `select 1`.
  'src/ops/readiness.ts',
  // Not moved yet (issue 45): the chain follower still writes its own statements, to move to
  // src/modules/chain/*.queries.ts. The list only shrinks; a new file is never added to it.
  'src/modules/chain/follower.ts',
  'src/modules/chain/follower-reorg.ts',
];

/** rawRows is imported only where SQL may be written (SQL_FILES). */
const rawRowsImport = { group: ['**/persistence/raw-query'], importNames: ['rawRows'], message: sqlOutsideQueries };

/*
 * The chain is a port (docs/architecture.md#the-chain-port): the domain speaks to the token ledger
 * (src/ledger/token-ledger.ts), and only its adapter, src/modules/chain/, knows viem, the ABIs and
 * calldata. Tests, benchmarks and scripts may drive a chain directly.
 */
const chainImports = [
  {
    group: ['viem', 'viem/*'],
    message: "viem is the chain adapter's alone (src/modules/chain/): speak to the TokenLedger port (src/ledger/token-ledger.ts).",
  },
  {
    group: ['**/chain/abis', '**/chain/abis/*', '**/chain/contracts', '**/chain/ledger-calls'],
    message: "ABIs and calldata are the chain adapter's alone: speak to the TokenLedger port (src/ledger/token-ledger.ts).",
  },
];

export default tseslint.config(
  {
    // Generated (codegen.yml, `npm run openapi:examples`, `npm run migration:create`, `npm run abis`), built, or
    // outside the scope; a migration is never edited once committed, so it is not linted either.
    ignores: [
      'dist/**',
      'node_modules/**',
      'coverage/**',
      '**/generated/**',
      'rest-compat/openapi/examples.ts',
      'src/persistence/migrations/**',
      'src/modules/chain/abis/**',
    ],
  },
  {
    files: ['{src,rest-compat,test,scripts,bench}/**/*.ts', 'console/src/**/*.{ts,tsx}'],
    extends: [js.configs.recommended, ...tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // A leading underscore marks a parameter a signature needs but the body does not (a
      // type-graphql resolver's positional args, an Express error handler's `next`), and a rest
      // sibling is how a field is left out of a copy.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      // An async method often implements a contract that returns a Promise (Apollo plugin hooks,
      // a port's close(), MikroORM's subscriber hooks) whether or not this implementation waits.
      '@typescript-eslint/require-await': 'off',
      // MikroORM's `Opt<WebhookStatus>` (a property the constructor need not set) is an
      // intersection the rule no longer sees as the enum, so `webhook.status !== WebhookStatus.active`
      // would be reported; tsc already refuses a comparison between unrelated enums.
      '@typescript-eslint/no-unsafe-enum-comparison': 'off',
    },
  },
  {
    files: ['{src,rest-compat}/**/*.ts'],
    rules: {
      // A statement's text is a constant (rawRows numbers each text once and keeps the latest
      // thousand): a list of values is bound as one array parameter, `col = any(?::text[])`
      // (rows of several fields as one jsonb parameter), never spelt as one placeholder per
      // element, which made a new text for every list length. SQL itself is written only where
      // SQL_FILES says (docs/architecture.md, "SQL").
      'no-restricted-syntax': ['error', ...placeholderSelectors, ...sqlCallSelectors],
      // One entry holds both import rules: in a flat config a later block's setting of a rule
      // replaces an earlier one's for the files both match, so two blocks would silently drop one.
      'no-restricted-imports': ['error', { patterns: [rawRowsImport, ...chainImports] }],
    },
  },
  {
    files: SQL_FILES,
    rules: {
      'no-restricted-syntax': ['error', ...placeholderSelectors],
      'no-restricted-imports': ['error', { patterns: chainImports }],
    },
  },
  {
    // The chain adapter alone knows viem, the ABIs and calldata (docs/architecture.md#the-chain-port);
    // rawRows only where SQL_FILES lets it be (a block for the chain's own, below).
    files: ['src/modules/chain/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [rawRowsImport] }] },
  },
  {
    files: ['src/modules/chain/*.queries.ts', 'src/modules/chain/follower.ts', 'src/modules/chain/follower-reorg.ts'],
    rules: { 'no-restricted-imports': 'off' },
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
