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
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "CallExpression[callee.property.name='only'][callee.object.name=/^(it|test|describe)$/]",
          message: 'No focused tests.',
        },
      ],
    },
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
  { files: ['src/core/**'], rules: { 'no-restricted-imports': ['error', coreLayer] } },
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
