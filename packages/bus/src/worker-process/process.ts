/**
 * `@interlude/bus/process`: what a bin of the deployment shares with `interlude-worker` (the module
 * contract, the environment, the runtime on NATS). Used by `interlude-gateway`; unstable, not for apps.
 */
export { type AgentsFactory, AgentsModuleError, defineAgents, importAgentsFactory } from './agents-module.js';
export {
  type DeploymentSettings,
  deploymentUsageRows,
  readDeploymentSettings,
  startDeploymentRuntime,
} from './deployment-settings.js';
export { type Environment, SettingsError, SettingsReader } from './environment-values.js';
export { exitForStartFailure } from './start-failure.js';
