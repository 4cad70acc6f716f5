export { startSandbox, type Sandbox, type SandboxOptions } from './server'
export { demoCredentials, type DemoCredentials } from './seed'
export {
  EMBEDDED_DATA,
  embeddedProfile,
  startEmbeddedSandbox,
  type EmbeddedProfile,
  type EmbeddedSandbox,
} from './embedded'
