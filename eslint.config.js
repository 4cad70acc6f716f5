import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import svelte from 'eslint-plugin-svelte'
import globals from 'globals'
import svelteConfig from './svelte.config.js'

/** Layer rules: core and shared never import electron; shared and renderer never import node. */
const noElectron = {
  paths: [{ name: 'electron', message: 'Only src/main and src/preload may import electron.' }],
}
/** Core is plain Node composed by the hosts: it never imports a host, the sandbox or the renderer. */
const coreLayer = {
  ...noElectron,
  patterns: [
    {
      regex: '^(\\.\\./)+(sandbox|main|preload|renderer|web-host)(/|$)',
      message:
        'src/core never imports the sandbox, a host or the renderer: the hosts start those and hand core what it needs.',
    },
  ],
}
/**
 * Fences inside core (docs/architecture.md): each folder below adds its rules to
 * the core layer's. ESLint checks static imports, `import type` and `export … from`;
 * tests/core/lint/layers.test.ts also runs every `import()` in core through them.
 */
const coreFence = (...patterns) => ({
  ...coreLayer,
  patterns: [...coreLayer.patterns, ...patterns],
})
const noMigrations = {
  regex: '(^|/)migrations(/|$)',
  message: 'Only src/core/store/schema reaches the migrations: open the database through it.',
}
const apiFence = coreFence(noMigrations, {
  regex: '^(\\.\\./)+(store|owner)(/|$)',
  message: 'src/core/api speaks HTTP and imports no store: the sync writes what it reads.',
})
const syncFence = coreFence(noMigrations, {
  regex: '^(\\.\\./)+store/(?!(record-types|sync-state|write/page-write|write/row-format)$)',
  message:
    "src/core/sync reaches the store only through the owner's client (owner/store-owner.ts) and the store's shared shapes: record-types, sync-state, write/page-write and the row format the page thread encodes with (write/row-format).",
})
const threadsFence = coreFence({
  regex: '^\\.\\./(?!\\.\\./)[^/]+/',
  message:
    'src/core/threads is plumbing its users (sync, owner, images, team) import: it imports none of them, only core root files and src/shared.',
})
const noUpward = {
  regex: '^(\\.\\./)+(export|team)(/|$)',
  message:
    'The store and its owner import neither export nor team: those build on the store (declare the shape in the store, as store/team-events.ts does).',
}
const storeFence = coreFence(noMigrations, noUpward)
const storeSchemaFence = coreFence(noUpward)
const ownerFence = coreFence(noMigrations, {
  ...noUpward,
  regex: '^(\\.\\./)+team(/|$)',
  message:
    'The owner imports no team code: the store declares the team events (store/team-events.ts).',
})

/** No focused tests anywhere. */
const noFocusedTests = {
  selector:
    "CallExpression[callee.property.name='only'][callee.object.name=/^(it|test|describe)$/]",
  message: 'No focused tests.',
}
const RESOURCES_ONCE =
  'The two lists are declared once, in src/shared/resources.ts: use PAGED_RESOURCES / PagedResourceName.'
/** The resource names are written out in src/shared/resources.ts only (and in migrations, which are frozen). */
const resourcesOnce = [
  {
    selector:
      "ArrayExpression[elements.length<4]:has(> Literal[value='inspections']):has(> Literal[value='guarantees'])",
    message: RESOURCES_ONCE,
  },
  {
    selector:
      "TSUnionType:has(> TSLiteralType[literal.value='inspections']):has(> TSLiteralType[literal.value='guarantees'])",
    message: RESOURCES_ONCE,
  },
]

const noNode = {
  paths: [{ name: 'electron', message: 'The renderer talks only to window.api.' }],
  patterns: [
    {
      group: ['node:*', 'fs', 'path', 'child_process', 'os', 'crypto'],
      message: 'No Node modules here.',
    },
  ],
}
/** The renderer runs in the page: it reaches core, the sandbox and the shell only through window.api. */
const rendererLayer = {
  ...noNode,
  patterns: [
    ...noNode.patterns,
    {
      regex: '^(\\.\\./)+(core|sandbox|main)(/|$)',
      message:
        'src/renderer never imports src/core, src/sandbox or src/main: it calls window.api, and shares only src/shared.',
    },
  ],
}

export default tseslint.config(
  {
    ignores: [
      'out/**',
      'dist/**',
      'release/**',
      'node_modules/**',
      'coverage/**',
      'test-results/**',
      'playwright-report/**',
      // Git-ignored scratch space and caches (see .gitignore): not the project's code.
      '.tmp/**',
      '.cache/**',
      // Compiled from messages/*.json by `npm run i18n`.
      'src/shared/messages/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...svelte.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      'no-restricted-syntax': ['error', noFocusedTests],
    },
  },
  {
    files: ['src/**', 'bench/**'],
    ignores: ['src/shared/resources.ts', 'src/core/store/schema/migrations/**'],
    rules: { 'no-restricted-syntax': ['error', noFocusedTests, ...resourcesOnce] },
  },
  {
    files: ['**/*.svelte', '**/*.svelte.ts'],
    languageOptions: {
      globals: { ...globals.browser },
      parserOptions: {
        projectService: false,
        extraFileExtensions: ['.svelte'],
        parser: tseslint.parser,
        svelteConfig,
      },
    },
    rules: { 'svelte/no-at-html-tags': 'error' },
  },
  {
    files: ['src/sandbox/**', 'src/web-host/**'],
    rules: { 'no-restricted-imports': ['error', noElectron] },
  },
  {
    files: ['src/core/**'],
    rules: { 'no-restricted-imports': ['error', coreFence(noMigrations)] },
  },
  { files: ['src/core/api/**'], rules: { 'no-restricted-imports': ['error', apiFence] } },
  { files: ['src/core/sync/**'], rules: { 'no-restricted-imports': ['error', syncFence] } },
  { files: ['src/core/threads/**'], rules: { 'no-restricted-imports': ['error', threadsFence] } },
  { files: ['src/core/store/**'], rules: { 'no-restricted-imports': ['error', storeFence] } },
  {
    files: ['src/core/store/schema/**'],
    rules: { 'no-restricted-imports': ['error', storeSchemaFence] },
  },
  { files: ['src/core/owner/**'], rules: { 'no-restricted-imports': ['error', ownerFence] } },
  {
    files: ['src/renderer/**'],
    rules: { 'no-restricted-imports': ['error', rendererLayer] },
  },
  {
    // Shared is what both sides of IPC agree on: no Node, no electron, nothing of ours outside it.
    files: ['src/shared/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          ...noNode,
          patterns: [
            ...noNode.patterns,
            {
              regex: '^\\.\\./',
              message:
                'src/shared imports only src/shared (it is compiled for both main and the renderer).',
            },
          ],
        },
      ],
    },
  },
  { files: ['src/renderer/**'], languageOptions: { globals: { ...globals.browser } } },
)
