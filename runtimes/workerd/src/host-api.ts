/**
 * What host-timed suites (start-up and HTTP load, timed from outside the
 * runtime) reuse from this runner: the job config, the server process with its
 * control-fd port (and its inspector's), a job run with hooks around the
 * exchange (profiling over the inspector), and the names the config and the worker share.
 */
export { writeJobConfig, workerdEnv, JOB_DIR_PREFIX, startWorkerdJob, type WorkerdJobHooks } from './run-job.ts';
export { startWorkerd, type WorkerdProcess } from './server.ts';
export { capnpString, compatibilityDateFor, COMPATIBILITY_FLAGS, SOCKET_NAME } from './config.ts';
export { HANDLER_KEY } from './handoff.ts';
