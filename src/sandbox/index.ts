export { startSandbox, type Sandbox, type SandboxOptions } from './server'
export { demoCredentials } from './seed'
export {
  EMBEDDED_DATA,
  embeddedProfile,
  startEmbeddedSandbox,
  type EmbeddedProfile,
} from './embedded'
