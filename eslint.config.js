import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import svelte from 'eslint-plugin-svelte'
import globals from 'globals'
import svelteConfig from './svelte.config.js'

/** Layer rules: core and shared never import electron; shared and renderer never import node. */
const noElectron = {
  paths: [{ name: 'electron', message: 'Only src/main and src/preload may import electron.' }],
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
    files: ['src/core/**', 'src/sandbox/**', 'src/web-host/**'],
    rules: { 'no-restricted-imports': ['error', noElectron] },
  },
  {
    files: ['src/shared/**', 'src/renderer/**'],
    rules: { 'no-restricted-imports': ['error', noNode] },
  },
  { files: ['src/renderer/**'], languageOptions: { globals: { ...globals.browser } } },
)
