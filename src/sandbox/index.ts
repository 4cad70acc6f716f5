export { startSandbox, type ChurnOptions, type Sandbox, type SandboxOptions } from './server'
export type { ChangeKind, SandboxChange } from './churn'
export { demoCredentials, type DemoCredentials } from './seed'
export { startEmbeddedSandbox, type EmbeddedProfile, type EmbeddedSandbox } from './embedded'
