export { startSandbox } from './server'
/** The tests' handle on a sandbox they start. @internal */
export type { Sandbox, SandboxOptions } from './server'
export { demoCredentials } from './seed'
export {
  EMBEDDED_DATA,
  embeddedProfile,
  startEmbeddedSandbox,
  type EmbeddedProfile,
} from './embedded'
